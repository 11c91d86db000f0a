// What the audit module offers other modules; they import nothing else from it.
export { type AuditRow, auditCte, listAuditByActor, writeAudit } from './audit.repository';
