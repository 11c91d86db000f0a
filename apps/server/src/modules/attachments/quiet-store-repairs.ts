import { logFor, type AppContext, type LogScope } from '../../context';
import type { AttachmentRow } from './attachments.repository';

/**
 * Repairs of what an attachment leaves in the store, where a failure must not fail the caller: it
 * is logged (under the request's id when `scope` has one); the periodic cleanup retries a delete.
 */
export function createQuietStoreRepairs(ctx: Pick<AppContext, 'storage' | 'log'>) {
  /** The object at `key`; answers whether it is gone. */
  async function deleteObjectQuietly(key: string | null, scope?: LogScope) {
    if (!key) return false;
    try {
      await ctx.storage.delete(key);
      return true;
    } catch (error) {
      logFor(ctx, scope).warn(
        { err: error, key },
        'could not delete a stored object; the cleanup retries',
      );
      return false;
    }
  }

  /**
   * An unconfirmed upload's leftovers: its multipart upload, if one is open, and its object. A
   * multipart upload the store fails to abort is left to the bucket's lifecycle rule
   * (AbortIncompleteMultipartUpload); its row goes anyway.
   */
  async function discardUploadQuietly(
    row: Pick<AttachmentRow, 'id' | 'uploadId' | 'storageKey'>,
    scope?: LogScope,
  ) {
    if (row.uploadId && row.storageKey) {
      try {
        await ctx.storage.abortMultipartUpload(row.storageKey, row.uploadId);
      } catch (error) {
        logFor(ctx, scope).warn({ err: error, id: row.id }, 'could not abort a multipart upload');
      }
    }
    return deleteObjectQuietly(row.storageKey, scope);
  }

  /**
   * Moves an object back where it came from (a confirmation that failed after its move); nothing
   * at `from` is not an error. A failure is logged with both keys, for an operator to move it.
   */
  async function putBackQuietly(from: string, to: string, scope?: LogScope) {
    try {
      await ctx.storage.move(from, to);
    } catch (error) {
      logFor(ctx, scope).error(
        { err: error, from, to },
        'could not put an unconfirmed upload back at its staging key',
      );
    }
  }

  return { deleteObjectQuietly, discardUploadQuietly, putBackQuietly };
}
