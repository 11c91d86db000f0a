import { aliasedTable, asc, eq } from 'drizzle-orm';
import type { DbOrTx } from '../../db/client';
import { planPins, users } from '../../db/schema';

export type PinRow = typeof planPins.$inferSelect;
export type NewPinRow = typeof planPins.$inferInsert;

/** A pin with the names the answer shows beside it. */
export interface PinListRow extends PinRow {
  authorName: string;
  resolvedByName: string | null;
}

const resolver = aliasedTable(users, 'resolver');

const listColumns = {
  id: planPins.id,
  caseId: planPins.caseId,
  attachmentId: planPins.attachmentId,
  authorId: planPins.authorId,
  note: planPins.note,
  point: planPins.point,
  normal: planPins.normal,
  camera: planPins.camera,
  createdAt: planPins.createdAt,
  resolvedAt: planPins.resolvedAt,
  resolvedBy: planPins.resolvedBy,
  chatMessageId: planPins.chatMessageId,
  authorName: users.displayName,
  resolvedByName: resolver.displayName,
};

function selectPins(db: DbOrTx) {
  return db
    .select(listColumns)
    .from(planPins)
    .innerJoin(users, eq(users.id, planPins.authorId))
    .leftJoin(resolver, eq(resolver.id, planPins.resolvedBy));
}

export async function insertPin(db: DbOrTx, values: NewPinRow): Promise<PinRow> {
  const [row] = await db.insert(planPins).values(values).returning();
  return row!;
}

/** A file's pins, oldest first. */
export async function listFilePins(db: DbOrTx, attachmentId: number): Promise<PinListRow[]> {
  return selectPins(db).where(eq(planPins.attachmentId, attachmentId)).orderBy(asc(planPins.id));
}

export async function findPinListRow(db: DbOrTx, id: number): Promise<PinListRow | undefined> {
  const [row] = await selectPins(db).where(eq(planPins.id, id)).limit(1);
  return row;
}

/** The row locked until the transaction ends, so a resolve and a reopen never interleave. */
export async function findPinForUpdate(db: DbOrTx, id: number): Promise<PinRow | undefined> {
  const [row] = await db.select().from(planPins).where(eq(planPins.id, id)).limit(1).for('update');
  return row;
}

export async function updatePin(
  db: DbOrTx,
  id: number,
  patch: Partial<Pick<PinRow, 'resolvedAt' | 'resolvedBy' | 'chatMessageId'>>,
): Promise<void> {
  await db.update(planPins).set(patch).where(eq(planPins.id, id));
}
