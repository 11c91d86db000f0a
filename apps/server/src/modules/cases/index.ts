// What the cases module offers other modules; they import nothing else from it.
export { type CaseAccess, loadCaseAccess } from './case-access.service';
export { recordCaseActivity } from './case-activity';
export { moveToCheckingOut } from './case-status-audit';
export {
  findCase,
  findCaseVisibilityFacts,
  listCaseTransactionStatuses,
  previewServicesSql,
  setCaseAddressIfNone,
} from './cases.repository';
export {
  addServicesToCase,
  advancePaidCase,
  deferredUnpaidServices,
  openCase,
  openCaseUpgradedReview,
  refreshCaseDerived,
  servicesWithoutOrder,
} from './cases.service';
