import { and, asc, eq, inArray, isNotNull, isNull, lt, ne, or, sql } from 'drizzle-orm';
import type { DbOrTx } from '../../db/client';
import { attachments, caseServices, users } from '../../db/schema';

export type AttachmentRow = typeof attachments.$inferSelect;
export type NewAttachmentRow = typeof attachments.$inferInsert;
export type AttachmentPatch = Partial<
  Pick<
    AttachmentRow,
    | 'status'
    | 'required'
    | 'filesize'
    | 'mimetype'
    | 'uploadedAt'
    | 'justification'
    | 'deletedAt'
    | 'storageKey'
    | 'uploadId'
    | 'uploadPartSize'
    | 'publishedAt'
    | 'publishedBy'
    | 'supersededAt'
    | 'contentSha256'
  >
>;

export async function insertAttachment(
  db: DbOrTx,
  values: NewAttachmentRow,
): Promise<AttachmentRow> {
  const [row] = await db.insert(attachments).values(values).returning();
  return row!;
}

export async function findAttachmentById(
  db: DbOrTx,
  id: number,
): Promise<AttachmentRow | undefined> {
  const [row] = await db.select().from(attachments).where(eq(attachments.id, id)).limit(1);
  return row;
}

/** The row locked until the transaction ends, so two status moves never interleave. */
export async function findAttachmentForUpdate(
  tx: DbOrTx,
  id: number,
): Promise<AttachmentRow | undefined> {
  const [row] = await tx
    .select()
    .from(attachments)
    .where(eq(attachments.id, id))
    .limit(1)
    .for('update');
  return row;
}

export async function updateAttachment(
  db: DbOrTx,
  id: number,
  patch: AttachmentPatch,
): Promise<AttachmentRow> {
  const [row] = await db
    .update(attachments)
    .set({ ...patch, modifiedAt: new Date() })
    .where(eq(attachments.id, id))
    .returning();
  return row!;
}

export async function removeAttachmentRow(db: DbOrTx, id: number): Promise<void> {
  await db.delete(attachments).where(eq(attachments.id, id));
}

/** Removes a row still waiting for its upload; a confirmed one stays. */
export async function removeUploadingAttachmentRow(db: DbOrTx, id: number): Promise<void> {
  await db
    .delete(attachments)
    .where(and(eq(attachments.id, id), eq(attachments.status, 'uploading')));
}

/** A case's files that exist (not deleted, upload confirmed), oldest first. */
export async function listCaseAttachments(db: DbOrTx, caseId: number): Promise<AttachmentRow[]> {
  return db
    .select()
    .from(attachments)
    .where(
      and(
        eq(attachments.caseId, caseId),
        isNull(attachments.deletedAt),
        ne(attachments.status, 'uploading'),
      ),
    )
    .orderBy(asc(attachments.id));
}

/** The listed files of a version chain (its first version and every later one), oldest first. */
export async function listChainFiles(db: DbOrTx, chainId: number): Promise<AttachmentRow[]> {
  return db
    .select()
    .from(attachments)
    .where(
      and(
        or(eq(attachments.id, chainId), eq(attachments.chainId, chainId)),
        isNull(attachments.deletedAt),
        ne(attachments.status, 'uploading'),
      ),
    )
    .orderBy(asc(attachments.version), asc(attachments.id));
}

/**
 * Records a file's hash unless one is there already: files are immutable, so a concurrent
 * computation wrote the same value.
 */
export async function setContentHash(db: DbOrTx, id: number, sha256: string): Promise<void> {
  await db
    .update(attachments)
    .set({ contentSha256: sha256 })
    .where(and(eq(attachments.id, id), isNull(attachments.contentSha256)));
}

/** The display names of the users who published files (the answer's `publishedBy`). */
export async function findPublisherNames(
  db: DbOrTx,
  ids: readonly number[],
): Promise<Map<number, string>> {
  if (ids.length === 0) return new Map();
  const rows = await db
    .select({ id: users.id, name: users.displayName })
    .from(users)
    .where(inArray(users.id, [...new Set(ids)]));
  return new Map(rows.map((row) => [row.id, row.name]));
}

/** The product categories of a case's services and the jaw its service data names, if one. */
export async function findCaseServiceFacts(
  db: DbOrTx,
  caseId: number,
): Promise<{ categoryIds: number[]; jaws: (string | null)[] }> {
  const rows = await db
    .select({ categoryId: caseServices.productCategoryId, data: caseServices.data })
    .from(caseServices)
    .where(eq(caseServices.caseId, caseId));
  return {
    categoryIds: rows.map((row) => row.categoryId),
    jaws: rows.map((row) => {
      const data = row.data as { jaw?: unknown } | null;
      return typeof data?.jaw === 'string' ? data.jaw : null;
    }),
  };
}

/**
 * Uploads never confirmed and temporary files (no case) created before `before`, and not yet
 * deleted: the cleanup job removes them with their objects.
 */
export async function findStaleAttachments(db: DbOrTx, before: Date): Promise<AttachmentRow[]> {
  return db
    .select()
    .from(attachments)
    .where(
      and(
        lt(attachments.createdAt, before),
        or(eq(attachments.status, 'uploading'), isNull(attachments.caseId)),
      ),
    )
    .limit(500);
}

/** Soft-deleted rows whose object could not be removed at once keep `storageKey` for a retry. */
export async function findDeletedWithObjects(db: DbOrTx): Promise<AttachmentRow[]> {
  return db
    .select()
    .from(attachments)
    .where(and(isNotNull(attachments.deletedAt), isNotNull(attachments.storageKey)))
    .limit(500);
}

export async function removeAttachmentRows(db: DbOrTx, ids: number[]): Promise<void> {
  if (ids.length > 0) await db.delete(attachments).where(inArray(attachments.id, ids));
}

export async function findUserAvatar(
  db: DbOrTx,
  userId: number,
): Promise<string | null | undefined> {
  const [row] = await db
    .select({ avatar: users.avatar })
    .from(users)
    .where(eq(users.id, userId))
    .limit(1);
  return row ? row.avatar : undefined;
}

export async function setUserAvatar(db: DbOrTx, userId: number, avatar: string | null) {
  await db
    .update(users)
    .set({ avatar, modifiedAt: sql`now()` })
    .where(eq(users.id, userId));
}
