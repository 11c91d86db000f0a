import { and, asc, desc, eq, getTableColumns, gte, lt, sql, type SQL } from 'drizzle-orm';
import type { DbOrTx } from '../../db/client';
import { auditLog, users } from '../../db/schema';

export interface AuditEntry {
  actorUserId: number | null;
  action: string;
  entity: string;
  entityId?: string | number | null;
  details?: Record<string, unknown>;
  ip?: string | null;
}

/** Written inside the transaction of the change it records. */
export async function writeAudit(db: DbOrTx, entry: AuditEntry): Promise<void> {
  await db.insert(auditLog).values(auditRowOf(entry));
}

function auditRowOf(entry: AuditEntry) {
  return {
    actorUserId: entry.actorUserId,
    action: entry.action,
    entity: entry.entity,
    entityId:
      entry.entityId === undefined || entry.entityId === null ? null : String(entry.entityId),
    details: entry.details ?? {},
    ip: entry.ip ?? null,
  };
}

/**
 * An audit row's insert as a CTE (`with audit as (insert …)`) of another write, for a statement
 * built once (`preparedStatement`): its values are placeholders, filled by `auditCteValues`.
 */
export function auditCte(db: DbOrTx) {
  return db.$with('audit').as(
    db
      .insert(auditLog)
      .values({
        actorUserId: sql.placeholder('auditActorUserId'),
        action: sql.placeholder('auditAction'),
        entity: sql.placeholder('auditEntity'),
        entityId: sql.placeholder('auditEntityId'),
        details: sql.placeholder('auditDetails'),
        ip: sql.placeholder('auditIp'),
      })
      .returning({ auditId: auditLog.id }),
  );
}

/** The values of `auditCte`'s placeholders for one entry. */
export function auditCteValues(entry: AuditEntry): Record<string, unknown> {
  const row = auditRowOf(entry);
  return {
    auditActorUserId: row.actorUserId,
    auditAction: row.action,
    auditEntity: row.entity,
    auditEntityId: row.entityId,
    auditDetails: row.details,
    auditIp: row.ip,
  };
}

export type AuditRow = typeof auditLog.$inferSelect;

export interface AuditFilter {
  actorUserId?: number | undefined;
  entity?: string | undefined;
  entityId?: string | undefined;
  /** Inclusive lower bound of `at`. */
  from?: Date | undefined;
  /** Exclusive upper bound of `at`. */
  to?: Date | undefined;
}

function auditFilterCondition(filter: AuditFilter): SQL | undefined {
  return and(
    filter.actorUserId === undefined ? undefined : eq(auditLog.actorUserId, filter.actorUserId),
    filter.entity === undefined ? undefined : eq(auditLog.entity, filter.entity),
    filter.entityId === undefined ? undefined : eq(auditLog.entityId, filter.entityId),
    filter.from === undefined ? undefined : gte(auditLog.at, filter.from),
    filter.to === undefined ? undefined : lt(auditLog.at, filter.to),
  );
}

/** One page of audit rows matching the filter, newest first, with the actor's display name. */
export async function searchAudit(
  db: DbOrTx,
  filter: AuditFilter,
  page: number,
  pageSize: number,
): Promise<{ rows: (AuditRow & { actorName: string | null })[]; total: number }> {
  const where = auditFilterCondition(filter);
  const [rows, [count]] = await Promise.all([
    db
      .select({ ...getTableColumns(auditLog), actorName: users.displayName })
      .from(auditLog)
      .leftJoin(users, eq(users.id, auditLog.actorUserId))
      .where(where)
      .orderBy(desc(auditLog.at), desc(auditLog.id))
      .limit(pageSize)
      .offset(page * pageSize),
    db
      .select({ total: sql<number>`count(*)::int` })
      .from(auditLog)
      .where(where),
  ]);
  return { rows, total: count?.total ?? 0 };
}

/** Every audit row a user acted in, oldest first (their personal data export). */
export function listAuditByActor(db: DbOrTx, actorUserId: number): Promise<AuditRow[]> {
  return db
    .select()
    .from(auditLog)
    .where(eq(auditLog.actorUserId, actorUserId))
    .orderBy(asc(auditLog.id));
}
