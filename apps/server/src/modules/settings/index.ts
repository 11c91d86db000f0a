// What the settings module offers other modules; they import nothing else from it.
export { loadEmailsSettings, loadTreatmentPurposesSettings } from './settings-documents';
