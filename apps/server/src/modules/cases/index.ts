// What the cases module offers other modules; they import nothing else from it.
export { type CaseAccess, loadCaseAccess, loadCaseVisibilityFacts } from './case-access.service';
export { recordCaseActivity } from './case-activity';
export {
  addServicesToCase,
  advancePaidCase,
  deferredUnpaidServices,
  openCase,
  openCaseUpgradedReview,
  refreshCaseDerived,
  servicesWithoutOrder,
} from './case-lifecycle.service';
export {
  caseServicesPreviewColumn,
  caseTransactionStatuses,
  keepFirstDeliveryAddress,
  loadCaseRecord,
} from './case-records.service';
export { moveToCheckingOut } from './case-status-audit';
export type { ApprovalInput, ApprovalRecorder } from './case-move-effects';
