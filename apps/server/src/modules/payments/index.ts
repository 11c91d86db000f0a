// What the payments module offers other modules; they import nothing else from it.
export { newTransactionReference, startTransaction } from './payment-changes';
export {
  configuredPaymentMethods,
  configuredPaymentMethodsOf,
  loadPaymentSettings,
  paymentSettingsSchema,
  paymentSwitchesOf,
  pixReceiverOf,
  type StoredPaymentSettings,
} from './payment-settings';
