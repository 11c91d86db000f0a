// What the audit module offers other modules; they import nothing else from it.
export {
  type AuditEntry,
  type AuditRow,
  auditCte,
  auditCteValues,
  listAuditByActor,
  writeAudit,
} from './audit.repository';
