// What the attachments module offers other modules; they import nothing else from it.
export { findTempUpload, takeTempUpload } from './temp-uploads';
export { approvablePlanningFiles, storedFileBytes } from './approved-versions';
export { loadVisibleCaseFile, type VisibleCaseFile } from './visible-file';
