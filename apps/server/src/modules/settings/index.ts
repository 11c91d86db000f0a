// What the settings module offers other modules; they import nothing else from it.
export { configuredPaymentMethods, loadPixReceiver } from './payment-settings';
export {
  emailsSettingsColumn,
  emailsSettingsOf,
  loadEmailsSettings,
  loadShippingSettings,
  loadTreatmentPurposesSettings,
} from './settings-documents';
