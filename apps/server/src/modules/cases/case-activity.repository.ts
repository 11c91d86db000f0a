import { sql } from 'drizzle-orm';
import type { DbOrTx } from '../../db/client';
import { caseEvents, cases } from '../../db/schema';

/** A case history row as another feature records it (see `case-activity.ts`). */
export interface CaseActivityEvent {
  caseId: number;
  actorId: number | null;
  action: string;
  fromStatus?: string | null;
  toStatus?: string | null;
  detail: Record<string, unknown>;
}

/**
 * One history row, and the case's `modifiedAt` moves forward (at least 1 ms past the stored one)
 * so clients replace their cached copy and its checks and actions are read again.
 */
export async function insertCaseActivity(db: DbOrTx, event: CaseActivityEvent): Promise<void> {
  // The case row first, as every change of a case takes it: otherwise two activities on one case
  // at once each hold the key-share lock of their history row's foreign key while waiting for the
  // other's row lock, and PostgreSQL ends one of them as a deadlock (a 500).
  await db.execute(sql`select 1 from ${cases} where ${cases.id} = ${event.caseId} for update`);
  await db.insert(caseEvents).values({
    caseId: event.caseId,
    actorId: event.actorId,
    action: event.action,
    fromStatus: event.fromStatus ?? null,
    toStatus: event.toStatus ?? null,
    detail: event.detail,
  });
  await db
    .update(cases)
    .set({
      modifiedAt: sql`greatest(now(), ${cases.modifiedAt} + interval '1 millisecond')`,
    })
    .where(sql`${cases.id} = ${event.caseId}`);
}
