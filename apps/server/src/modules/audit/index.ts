// What the audit module offers other modules; they import nothing else from it.
export { type AuditRow, listAuditByActor, writeAudit } from './audit.repository';
