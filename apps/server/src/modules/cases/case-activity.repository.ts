import { sql } from 'drizzle-orm';
import type { DbOrTx } from '../../db/client';
import { caseEvents, cases } from '../../db/schema';

/**
 * How another feature (files, payments, chat) records something that happened on a case, in its
 * own transaction: one history row, and the case's `modifiedAt` moves forward (at least 1 ms past
 * the stored one) so clients replace their cached copy (spec §4) and its checks and actions are
 * read again. Publishing on `ctx.caseEvents` after commit stays with the caller.
 */
export async function recordCaseActivity(
  db: DbOrTx,
  event: {
    caseId: number;
    actorId: number | null;
    action: string;
    fromStatus?: string | null;
    toStatus?: string | null;
    detail: Record<string, unknown>;
  },
): Promise<void> {
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
