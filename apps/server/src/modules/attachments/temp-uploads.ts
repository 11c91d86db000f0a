import { isSafeKey } from '../../adapters/storage/storage';
import type { AppContext } from '../../context';
import { AppError } from '../../http/app-error';
import type { DbOrTx } from '../../db/client';
import {
  findAttachmentById,
  findAttachmentForUpdate,
  removeAttachmentRow,
  type AttachmentRow,
} from './attachments.repository';

/** The buckets whose confirmed temporary uploads other modules take over. */
export type TempUploadBucket = 'productThumbnail' | 'avatar';

/** A confirmed temporary upload: not on a case, not deleted, its object stored. */
export type TempUpload = AttachmentRow & { storageKey: string };

/** Images of at most a few MB (avatar, product thumbnail) are copied through memory. */
const MAX_COPY_BYTES = 8 * 1024 * 1024;

/**
 * Moves the caller's confirmed temporary upload of `bucket` (from `create/temp` +
 * `uploadedSuccess`) to `targetKey`, then removes the temp row and object so the cleanup job
 * does not take it. For other modules, e.g. a product image: `consumeTempUpload(ctx, userId, id,
 * 'productThumbnail', 'products/12/<random>')`. 404 when it is not such an upload.
 */
/**
 * The user's confirmed temporary upload of `bucket`, or undefined when the id names anything else
 * (another user's, another bucket's, one on a case, deleted, or still uploading).
 */
export async function findTempUpload(
  db: DbOrTx,
  userId: number,
  attachmentId: number,
  bucket: TempUploadBucket,
): Promise<TempUpload | undefined> {
  const row = await findAttachmentById(db, attachmentId);
  if (
    !row ||
    row.caseId !== null ||
    row.deletedAt ||
    row.userId !== userId ||
    row.bucketName !== bucket ||
    row.status === 'uploading' ||
    !row.storageKey
  ) {
    return undefined;
  }
  return { ...row, storageKey: row.storageKey };
}

/**
 * Takes a temporary upload found earlier in the caller's transaction: its row is locked, checked
 * to still hold `storageKey`, and removed, so two saves cannot both use it and the cleanup job
 * no longer sees it. False when it is gone or changed. The caller deletes the temporary object
 * once its transaction has committed.
 */
export async function takeTempUpload(
  tx: DbOrTx,
  attachmentId: number,
  storageKey: string,
): Promise<boolean> {
  const row = await findAttachmentForUpdate(tx, attachmentId);
  if (!row || row.storageKey !== storageKey) return false;
  await removeAttachmentRow(tx, attachmentId);
  return true;
}

export async function consumeTempUpload(
  ctx: Pick<AppContext, 'db' | 'storage'>,
  userId: number,
  attachmentId: number,
  bucket: TempUploadBucket,
  targetKey: string,
): Promise<{ key: string; mimetype: string; filename: string; size: number }> {
  const row = await findTempUpload(ctx.db, userId, attachmentId, bucket);
  if (!row) throw new AppError(404, 'NOT_FOUND');
  if (!isSafeKey(targetKey)) throw new Error(`unsafe storage key ${targetKey}`);
  const size = row.filesize ?? 0;
  if (size > MAX_COPY_BYTES) throw new AppError(413, 'FILE_TOO_LARGE');
  const chunks: Buffer[] = [];
  for await (const chunk of await ctx.storage.getObjectStream(row.storageKey)) {
    chunks.push(Buffer.from(chunk as Uint8Array));
  }
  const mimetype = row.mimetype ?? 'application/octet-stream';
  await ctx.storage.put(targetKey, Buffer.concat(chunks), mimetype);
  await removeAttachmentRow(ctx.db, row.id);
  await ctx.storage.delete(row.storageKey).catch(() => undefined);
  return { key: targetKey, mimetype, filename: row.filename ?? 'file', size };
}
