import {
  isResumableBucket,
  planUploadParts,
  uploadPartRange,
  type UploadPartPlan,
} from '@dentflow/domain';
import type { AppContext } from '../../context';
import { MultipartPartsMissing, type UploadedPart } from '../../adapters/storage/storage';
import { AppError } from '../../http/app-error';
import type { AuthContext } from '../../http/permissions';
import { loadCaseAccess } from '../cases';
import {
  findAttachmentById,
  removeUploadingAttachmentRow,
  updateAttachment,
  type AttachmentRow,
} from './attachments.repository';
import type { AttachmentsService } from './attachments.service';
import type { UploadAnnouncement } from './upload-announcement';

/** A part URL is asked for just before its part is sent; a slow part may take this long. */
const PART_URL_EXPIRES_SEC = 60 * 60;

/**
 * Resumable uploads of exams and planning files: a multipart upload at the row's staging key,
 * one signed PUT URL per part (exactly the part's planned size), completion from the parts the
 * browser names, then the same confirmation as a single upload (moved out of reach, size and first
 * bytes checked). Only the uploader may continue, complete or abort an upload, and only while the
 * case is still visible to them; anyone else gets a 404.
 */
export function createResumableUploads(ctx: AppContext, attachments: AttachmentsService) {
  const { db, storage } = ctx;
  const notFound = () => new AppError(404, 'NOT_FOUND');

  const planOf = (row: AttachmentRow): UploadPartPlan => ({
    partSize: row.uploadPartSize!,
    partCount: planUploadParts(row.filesize ?? 0, row.uploadPartSize!).partCount,
  });

  /** The caller's own unconfirmed upload on a case they still see; 404 for anyone else. */
  async function loadOwnUpload(caller: AuthContext, id: number) {
    const row = await findAttachmentById(db, id);
    if (!row || row.deletedAt || row.userId !== caller.userId || row.caseId === null) {
      throw notFound();
    }
    if (!(await loadCaseAccess(db, caller, row.caseId))) throw notFound();
    return row;
  }

  /** An open resumable upload of the caller (a confirmed or single-POST upload is a 409). */
  async function loadOpenUpload(caller: AuthContext, id: number) {
    const row = await loadOwnUpload(caller, id);
    if (row.status !== 'uploading' || !row.uploadId || !row.uploadPartSize || !row.storageKey) {
      throw new AppError(409, 'UPLOAD_NOT_FOUND');
    }
    return row as AttachmentRow & { uploadId: string; uploadPartSize: number; storageKey: string };
  }

  const partInvalid = () =>
    new AppError(400, 'UPLOAD_PART_INVALID', { partNumbers: 'validation.invalid' });

  return {
    /** Announces an exam or planning file and opens its multipart upload; answers the plan. */
    async create(caller: AuthContext, caseId: number, input: UploadAnnouncement) {
      const plan = planUploadParts(input.filesize, ctx.config.uploadPartBytes);
      const { row } = await attachments.insertCaseUpload(
        caller,
        caseId,
        input,
        async (key, contentType, bucket) => {
          if (!isResumableBucket(bucket)) {
            throw new AppError(400, 'UNKNOWN_ATTACHMENT_KIND', {
              attachment_name: 'validation.invalid',
            });
          }
          const uploadId = await storage.createMultipartUpload(key, contentType);
          return { uploadId, uploadPartSize: plan.partSize };
        },
      );
      return { attachment: await attachments.describe(row), upload: plan };
    },

    /** Signed PUT URLs of the named parts (each accepts exactly its planned size). */
    async partUrls(caller: AuthContext, id: number, partNumbers: number[]) {
      const row = await loadOpenUpload(caller, id);
      const plan = planOf(row);
      const ranges = partNumbers.map((partNumber) => {
        const range = uploadPartRange(plan, row.filesize ?? 0, partNumber);
        if (!range) throw partInvalid();
        return { partNumber, ...range };
      });
      const parts = await Promise.all(
        ranges.map(async ({ partNumber, start, size }) => ({
          partNumber,
          size,
          url: await storage.signPartUrl({
            key: row.storageKey,
            uploadId: row.uploadId,
            partNumber,
            start,
            size,
            expiresInSec: PART_URL_EXPIRES_SEC,
          }),
        })),
      );
      return { parts };
    },

    /**
     * Joins the parts into the file and confirms it like any upload. Every part of the plan must
     * be named once (else 409 UPLOAD_PARTS_MISSING, the upload stays open to send the rest).
     */
    async complete(caller: AuthContext, id: number, parts: UploadedPart[]) {
      const own = await loadOwnUpload(caller, id);
      // Completed and confirmed already (a retried call): the same answer as the confirmation.
      if (own.status !== 'uploading' || !own.uploadId) {
        return attachments.uploadedSuccess(caller, id);
      }
      const row = await loadOpenUpload(caller, id);
      const plan = planOf(row);
      const named = new Set<number>();
      for (const part of parts) {
        if (
          !uploadPartRange(plan, row.filesize ?? 0, part.partNumber) ||
          named.has(part.partNumber)
        ) {
          throw partInvalid();
        }
        named.add(part.partNumber);
      }
      if (named.size !== plan.partCount) throw new AppError(409, 'UPLOAD_PARTS_MISSING');
      const ordered = [...parts].sort((a, b) => a.partNumber - b.partNumber);
      try {
        await storage.completeMultipartUpload(row.storageKey, row.uploadId, ordered);
      } catch (error) {
        if (!(error instanceof MultipartPartsMissing)) throw error;
        // A completion that ran before (its answer lost) left the whole file at the key.
        if (!(await storage.head(row.storageKey))) throw new AppError(409, 'UPLOAD_PARTS_MISSING');
      }
      await updateAttachment(db, row.id, { uploadId: null });
      return attachments.uploadedSuccess(caller, id);
    },

    /** Cancels the caller's unconfirmed upload: its parts and its row go. */
    async abort(caller: AuthContext, id: number) {
      const row = await loadOwnUpload(caller, id);
      if (row.status !== 'uploading') throw new AppError(409, 'UPLOAD_ALREADY_RECEIVED');
      await attachments.discardUploadQuietly(row, caller);
      await removeUploadingAttachmentRow(db, row.id);
      return { deleted: true as const };
    },
  };
}

export type ResumableUploads = ReturnType<typeof createResumableUploads>;
