import type { AuditPage, AuditQueryInput } from '@dentflow/domain';
import type { AppContext } from '../../context';
import { searchAudit, type AuditFilter } from './audit.repository';

/** Rows per page of the audit search. */
export const AUDIT_PAGE_SIZE = 20;

const DAY_MS = 86_400_000;
const isDay = (value: string) => /^\d{4}-\d{2}-\d{2}$/.test(value);

/** The filter's bounds: a day as `to` means up to the end of that day. */
function filterOf(query: AuditQueryInput): AuditFilter {
  const to = query.to ? new Date(Date.parse(query.to) + (isDay(query.to) ? DAY_MS : 0)) : undefined;
  return {
    actorUserId: query.actor,
    entity: query.entity,
    entityId: query.entityId,
    from: query.from ? new Date(query.from) : undefined,
    to,
  };
}

/** The admin's audit log search. */
export function createAuditService(ctx: AppContext) {
  return {
    async search(query: AuditQueryInput): Promise<AuditPage> {
      const { rows, total } = await searchAudit(
        ctx.db,
        filterOf(query),
        query.page,
        AUDIT_PAGE_SIZE,
      );
      return {
        items: rows.map((row) => ({
          id: row.id,
          at: row.at.toISOString(),
          actorUserId: row.actorUserId,
          actorName: row.actorName,
          action: row.action,
          entity: row.entity,
          entityId: row.entityId,
          details: row.details,
          ip: row.ip,
        })),
        total,
        page: query.page,
        pageSize: AUDIT_PAGE_SIZE,
      };
    },
  };
}
export type AuditService = ReturnType<typeof createAuditService>;
