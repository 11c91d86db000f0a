import { isSafeKey } from '../../adapters/storage/storage';
import type { AppContext } from '../../context';
import { AppError } from '../../http/app-error';
import { findAttachmentById, removeAttachmentRow } from './attachments.repository';

/** Images of at most a few MB (avatar, product thumbnail) are copied through memory. */
const MAX_COPY_BYTES = 8 * 1024 * 1024;

/**
 * Moves the caller's confirmed temporary upload of `bucket` (from `create/temp` +
 * `uploadedSuccess`) to `targetKey`, then removes the temp row and object so the cleanup job
 * does not take it. For other modules, e.g. a product image: `consumeTempUpload(ctx, userId, id,
 * 'productThumbnail', 'products/12/<random>')`. 404 when it is not such an upload.
 */
export async function consumeTempUpload(
  ctx: Pick<AppContext, 'db' | 'storage'>,
  userId: number,
  attachmentId: number,
  bucket: 'productThumbnail' | 'avatar',
  targetKey: string,
): Promise<{ key: string; mimetype: string; filename: string; size: number }> {
  const row = await findAttachmentById(ctx.db, attachmentId);
  if (
    !row ||
    row.caseId !== null ||
    row.deletedAt ||
    row.userId !== userId ||
    row.bucketName !== bucket ||
    row.status === 'uploading' ||
    !row.storageKey
  ) {
    throw new AppError(404, 'NOT_FOUND');
  }
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
