import { randomBytes } from 'node:crypto';
import {
  attachmentActionsFor,
  attachmentFileRejection,
  attachmentFileRule,
  emptyRequiredSlots,
  FILE_TYPE_MIME,
  fileTypeOfName,
  isAdmin,
  isCaseBucket,
  mayUploadAttachment,
  nextVersionOf,
  attachmentActorFor,
  mayViewAttachment,
  parseAttachmentName,
  requiredAttachmentSlots,
  type Attachment,
  type AttachmentAction,
  type AttachmentActor,
  type AttachmentBucket,
  type AttachmentCaseState,
  type AttachmentSlot,
  attachmentStatusAfter,
} from '@dentflow/domain';
import type { AppContext } from '../../context';
import type { DbOrTx } from '../../db/client';
import { AppError } from '../../http/app-error';
import type { AuthContext } from '../../http/permissions';
import { loadCaseAccess, type CaseAccess, recordCaseActivity, advancePaidCase } from '../cases';
import {
  findAttachmentById,
  findAttachmentForUpdate,
  findCaseServiceFacts,
  findDeletedWithObjects,
  findPublisherNames,
  findStaleAttachments,
  insertAttachment,
  listCaseAttachments,
  removeAttachmentRow,
  removeAttachmentRows,
  removeUploadingAttachmentRow,
  updateAttachment,
  type AttachmentRow,
  type NewAttachmentRow,
} from './attachments.repository';
import { contentMatches, SNIFF_BYTES } from './file-sniff';
import { createQuietStoreRepairs } from './quiet-store-repairs';
import { sha256OfStoredObject } from './content-hash';
import { replacedVersion, settlePreviousVersion } from './version-chain';
import type { UploadAnnouncement } from './upload-announcement';
import type { CaseEventMessage } from '../../adapters/events/case-events';
import { isoOrNull } from '../../http/envelope';
import { UPLOAD_STAGING_PREFIX } from '../../adapters/storage/storage';

/** Presigned uploads expire in minutes; a browser starts the POST right after asking. */
const UPLOAD_EXPIRES_SEC = 15 * 60;
/** Unconfirmed uploads and temporary files are removed after this age. */
export const STALE_AFTER_MS = 24 * 3600 * 1000;

export type AttachmentWithActions = Attachment & { actions: AttachmentAction[] };

export interface AttachmentEvent {
  caseId: number;
  attachmentId: number;
  action: string;
  actorId: number | null;
  fromStatus: string | null;
  toStatus: string | null;
}

type StatusAction = Exclude<AttachmentAction, 'delete'>;

/** The case_events action names of the attachment moves. */
const EVENT_OF: Record<AttachmentAction, string> = {
  publish: 'attachmentPublished',
  unpublish: 'attachmentUnpublished',
  approve: 'attachmentApproved',
  requestChange: 'attachmentChangeRequested',
  cancelChangeRequest: 'attachmentChangeRequestCancelled',
  delete: 'attachmentDeleted',
};

const randomName = () => randomBytes(16).toString('hex');

export interface AttachmentsServiceOptions {
  /** The cases module's access rule (null: the caller cannot see the case → 404). */
  caseAccess?: (db: DbOrTx, caller: AuthContext, caseId: number) => Promise<CaseAccess | null>;
}

export function createAttachmentsService(ctx: AppContext, options: AttachmentsServiceOptions = {}) {
  const { db, storage } = ctx;
  const caseAccess = options.caseAccess ?? loadCaseAccess;
  /** After commit: the case event emitter (live updates, notifications). */
  /** Publishes after commit; `detail` is what the history row recorded (its notified users). */
  const emit = ({ attachmentId, ...event }: AttachmentEvent, detail?: Record<string, unknown>) =>
    ctx.caseEvents.publish({ ...event, detail: detail ?? { attachmentId }, at: new Date() });

  const notFound = () => new AppError(404, 'NOT_FOUND');

  async function caseState(access: CaseAccess, rows?: AttachmentRow[]) {
    const files = rows ?? (await listCaseAttachments(db, access.caseId));
    const state: AttachmentCaseState = {
      caseStatus: access.caseStatus,
      caseArchived: access.caseArchived,
      // A superseded version's request was answered by the version that replaced it.
      changeRequested: files.some(
        (row) =>
          row.bucketName === 'planning' &&
          row.status === 'request_change' &&
          row.supersededAt === null,
      ),
    };
    return { state, files };
  }

  async function requiredSlots(caseId: number): Promise<AttachmentSlot[]> {
    const facts = await findCaseServiceFacts(db, caseId);
    const jaws = new Set(facts.jaws.filter((jaw) => jaw !== null));
    const jaw = jaws.size === 1 ? ([...jaws][0] as 'upper' | 'lower' | 'both') : null;
    return requiredAttachmentSlots(facts.categoryIds, jaw);
  }

  async function publisherNames(rows: readonly AttachmentRow[]) {
    const ids = rows.map((row) => row.publishedBy).filter((id): id is number => id !== null);
    return findPublisherNames(db, ids);
  }

  async function toAttachment(
    row: AttachmentRow,
    publishers?: Map<number, string>,
  ): Promise<Attachment> {
    const names = publishers ?? (await publisherNames([row]));
    const url =
      row.storageKey && row.uploadedAt && !row.deletedAt
        ? await storage.signedDownloadUrl(row.storageKey, {
            filename: row.filename ?? `file-${row.id}`,
            contentType: row.mimetype ?? 'application/octet-stream',
          })
        : null;
    return {
      id: row.id,
      caseId: row.caseId,
      userId: row.userId,
      bucketName: row.bucketName as AttachmentBucket,
      attachmentType: row.attachmentType,
      stringId: row.stringId,
      required: row.required,
      status: row.status as Attachment['status'],
      freeze: row.freeze,
      filename: row.filename,
      filesize: row.filesize,
      url,
      uploadedAt: isoOrNull(row.uploadedAt),
      createdAt: row.createdAt.toISOString(),
      deletedAt: isoOrNull(row.deletedAt),
      justification: row.justification,
      mimetype: row.mimetype,
      version: row.version,
      chainId: row.chainId ?? row.id,
      previousVersionId: row.previousVersionId,
      publishedAt: isoOrNull(row.publishedAt),
      publishedBy:
        row.publishedBy === null
          ? null
          : { id: row.publishedBy, name: names.get(row.publishedBy) ?? '' },
      supersededAt: isoOrNull(row.supersededAt),
      sha256: row.contentSha256,
    };
  }

  const rowView = (row: AttachmentRow) => ({
    bucketName: row.bucketName,
    status: row.status,
    freeze: row.freeze,
    deletedAt: isoOrNull(row.deletedAt),
    supersededAt: isoOrNull(row.supersededAt),
  });

  /**
   * The attachment and the caller's standing on it; 404 when the caller may not see it (another
   * user's temporary file, a case the caller cannot see, a private planning file for a client).
   */
  async function loadVisible(caller: AuthContext, id: number) {
    const row = await findAttachmentById(db, id);
    if (!row || row.deletedAt) throw notFound();
    if (row.caseId === null) {
      if (row.userId !== caller.userId) throw notFound();
      return { row, access: null, actor: null };
    }
    const access = await caseAccess(db, caller, row.caseId);
    if (!access) throw notFound();
    const actor = attachmentActorFor(access);
    const ownUpload = row.status === 'uploading' && row.userId === caller.userId;
    if (!ownUpload && !mayViewAttachment(actor, rowView(row))) throw notFound();
    return { row, access, actor };
  }

  function checkAnnouncement(bucket: AttachmentBucket, kind: string, input: UploadAnnouncement) {
    const rejection = attachmentFileRejection(bucket, kind, {
      filename: input.filename,
      filesize: input.filesize,
      mimetype: input.mimetype,
    });
    if (rejection === 'type') throw new AppError(415, 'FILE_TYPE_NOT_ALLOWED');
    if (rejection === 'size') throw new AppError(413, 'FILE_TOO_LARGE');
    const type = fileTypeOfName(input.filename)!;
    return { type, contentType: FILE_TYPE_MIME[type] };
  }

  async function presign(row: AttachmentRow, contentType: string, bucket: AttachmentBucket) {
    const rule = attachmentFileRule(bucket, row.attachmentType);
    const upload = await storage.createPresignedPost({
      key: row.storageKey!,
      contentType,
      // The announced size exactly: the store refuses anything else before it is written.
      minSize: Math.min(row.filesize ?? 1, rule.maxBytes),
      maxSize: Math.min(row.filesize ?? rule.maxBytes, rule.maxBytes),
      expiresInSec: UPLOAD_EXPIRES_SEC,
    });
    return { attachment: await toAttachment(row), upload };
  }

  /** 403 when the caller's role can never do it, 409 when the file's or case's state forbids it. */
  function refuse(actions: (actor: AttachmentActor) => boolean): never {
    throw actions('supervisor')
      ? new AppError(403, 'FORBIDDEN')
      : new AppError(409, 'ATTACHMENT_ACTION_NOT_ALLOWED');
  }

  const { discardUploadQuietly, deleteObjectQuietly, putBackQuietly } =
    createQuietStoreRepairs(ctx);

  /**
   * Checks that the caller may send this file to the case (kind, type, size, the bucket's upload
   * rule) and creates its `uploading` row at a fresh staging key; `start` opens what the upload
   * needs at that key first (a multipart upload) and names the row's extra columns.
   */
  async function insertCaseUpload(
    caller: AuthContext,
    caseId: number,
    input: UploadAnnouncement,
    start?: (
      key: string,
      contentType: string,
      bucket: AttachmentBucket,
    ) => Promise<Partial<NewAttachmentRow>>,
  ) {
    const access = await caseAccess(db, caller, caseId);
    if (!access) throw notFound();
    const parsed = parseAttachmentName(input.attachment_name);
    if (!parsed || !isCaseBucket(parsed.bucket)) {
      throw new AppError(400, 'UNKNOWN_ATTACHMENT_KIND', {
        attachment_name: 'validation.invalid',
      });
    }
    const { contentType } = checkAnnouncement(parsed.bucket, parsed.kind, input);
    const actor = attachmentActorFor(access);
    const { state } = await caseState(access);
    if (!mayUploadAttachment(actor, parsed.bucket, state)) {
      refuse((a) => mayUploadAttachment(a, parsed.bucket, state));
    }
    const replaces = await replacedVersion(db, caseId, parsed.bucket, input.replacesId);
    const required = (await requiredSlots(caseId)).some(
      (slot) => slot.bucketName === parsed.bucket && slot.attachmentType === parsed.kind,
    );
    const storageKey = `${UPLOAD_STAGING_PREFIX}cases/${caseId}/${randomName()}`;
    const extra = start ? await start(storageKey, contentType, parsed.bucket) : {};
    const row = await insertAttachment(db, {
      caseId,
      userId: caller.userId,
      bucketName: parsed.bucket,
      attachmentType: parsed.kind,
      required,
      status: 'uploading',
      filename: input.filename,
      filesize: input.filesize,
      mimetype: contentType,
      storageKey,
      ...nextVersionOf(replaces && { ...replaces, chainId: replaces.chainId ?? replaces.id }),
      ...extra,
    });
    return { row, contentType, bucket: parsed.bucket };
  }

  async function getWithActions(caller: AuthContext, id: number): Promise<AttachmentWithActions> {
    const { row, access, actor } = await loadVisible(caller, id);
    const actions =
      access && actor
        ? attachmentActionsFor(actor, rowView(row), (await caseState(access)).state)
        : [];
    return { ...(await toAttachment(row)), actions };
  }

  return {
    /** A case's files visible to the caller with their allowed actions, and the empty slots. */
    async listCase(caller: AuthContext, caseId: number) {
      const access = await caseAccess(db, caller, caseId);
      if (!access) throw notFound();
      const actor = attachmentActorFor(access);
      const { state, files } = await caseState(access);
      const visible = files.filter((row) => mayViewAttachment(actor, rowView(row)));
      const publishers = await publisherNames(visible);
      const items = await Promise.all(
        visible.map(async (row) => ({
          ...(await toAttachment(row, publishers)),
          actions: attachmentActionsFor(actor, rowView(row), state),
        })),
      );
      const slots = emptyRequiredSlots(await requiredSlots(caseId), files).map((slot) => ({
        ...slot,
        labelKey: `${slot.bucketName}.${slot.attachmentType}`,
        canUpload: mayUploadAttachment(actor, slot.bucketName, state),
      }));
      const uploadBuckets = (['photoProtocol', 'exams', 'planning'] as const).filter((bucket) =>
        mayUploadAttachment(actor, bucket, state),
      );
      return { items, slots, uploadBuckets };
    },

    /** Creates the `uploading` row of a case file and the presigned POST for it. */
    async createPostUrl(caller: AuthContext, caseId: number, input: UploadAnnouncement) {
      const { row, contentType, bucket } = await insertCaseUpload(caller, caseId, input);
      return presign(row, contentType, bucket);
    },

    insertCaseUpload,
    /** A row as the API shows it (with its signed download URL once uploaded). */
    describe: toAttachment,
    discardUploadQuietly,

    /** A file not attached to a case yet (avatar, product image); the cleanup removes it after 24 h. */
    async createTemp(caller: AuthContext, input: UploadAnnouncement) {
      const parsed = parseAttachmentName(input.attachment_name);
      if (!parsed || isCaseBucket(parsed.bucket)) {
        throw new AppError(400, 'UNKNOWN_ATTACHMENT_KIND', {
          attachment_name: 'validation.invalid',
        });
      }
      if (parsed.bucket === 'productThumbnail' && !isAdmin(caller.roles)) {
        throw new AppError(403, 'FORBIDDEN');
      }
      const { contentType } = checkAnnouncement(parsed.bucket, parsed.kind, input);
      const row = await insertAttachment(db, {
        caseId: null,
        userId: caller.userId,
        bucketName: parsed.bucket,
        attachmentType: parsed.kind,
        status: 'uploading',
        filename: input.filename,
        filesize: input.filesize,
        mimetype: contentType,
        storageKey: `${UPLOAD_STAGING_PREFIX}temp/${caller.userId}/${randomName()}`,
      });
      return presign(row, contentType, parsed.bucket);
    },

    /**
     * Confirms an upload: the object is moved out of the upload policy's reach to the key it is
     * served from, and there it must have the announced size and first bytes of the announced
     * type — so what was checked is what is served, even if the policy is replayed later. Then
     * the file joins the case (inputs public, planning private). A mismatch removes the object
     * and the row.
     */
    async uploadedSuccess(caller: AuthContext, id: number) {
      const row = await findAttachmentById(db, id);
      if (!row || row.deletedAt || row.userId !== caller.userId) throw notFound();
      if (row.caseId !== null && !(await caseAccess(db, caller, row.caseId))) throw notFound();
      const answer = async (confirmed: AttachmentRow) => {
        const attachment = await toAttachment(confirmed);
        return { attachment, url: attachment.url };
      };
      if (row.status !== 'uploading') return answer(row);
      const key = `${row.caseId === null ? `temp/${row.userId}` : `cases/${row.caseId}`}/${randomName()}`;
      const staged = row.storageKey!;
      const advanced: CaseEventMessage[] = [];
      let recorded: { detail: Record<string, unknown> } | null = null;
      let updated: AttachmentRow | undefined;
      try {
        const head = await storage.move(staged, key);
        if (!head) {
          // Nothing uploaded yet, or a concurrent confirmation moved it first.
          const again = await findAttachmentById(db, id);
          if (again && !again.deletedAt && again.status !== 'uploading') return answer(again);
          throw new AppError(409, 'UPLOAD_NOT_FOUND');
        }
        const discard = async (error: AppError) => {
          await deleteObjectQuietly(key, caller);
          await removeUploadingAttachmentRow(db, row.id);
          return error;
        };
        if (head.size !== row.filesize)
          throw await discard(new AppError(422, 'UPLOAD_SIZE_MISMATCH'));
        const type = fileTypeOfName(row.filename ?? '');
        const bytes = await storage.readFirstBytes(key, SNIFF_BYTES);
        if (!type || !(await contentMatches(type, bytes, head.size))) {
          throw await discard(new AppError(422, 'FILE_CONTENT_MISMATCH'));
        }
        const bucket = row.bucketName as AttachmentBucket;
        // The hash of the bytes as stored, at the key they are served from (decision 028).
        const contentSha256 =
          bucket === 'planning' ? await sha256OfStoredObject(storage, key) : null;
        const status =
          bucket === 'planning' ? 'private' : row.caseId === null ? 'private' : 'public';
        updated = await db.transaction(async (tx) => {
          const locked = await findAttachmentForUpdate(tx, row.id);
          if (!locked || locked.status !== 'uploading') return locked;
          const done = await updateAttachment(tx, row.id, {
            status,
            uploadedAt: new Date(),
            storageKey: key,
            contentSha256,
          });
          if (done.caseId !== null) {
            recorded = await recordCaseActivity(tx, {
              caseId: done.caseId,
              actorId: caller.userId,
              action: 'attachmentAdded',
              toStatus: status,
              detail: {
                attachmentId: done.id,
                bucketName: done.bucketName,
                kind: done.attachmentType,
                fileName: done.filename,
              },
            });
            advanced.push(...(await advancePaidCase(tx, done.caseId, caller.userId, new Date())));
          }
          return done;
        });
      } catch (error) {
        // Not confirmed (the database or the disk failed, or the file was refused and removed):
        // the object goes back to the key the row still names, so a retried confirmation finds
        // it instead of answering UPLOAD_NOT_FOUND for a file that was received.
        await putBackQuietly(key, staged, caller);
        throw error;
      }
      ctx.caseEvents.publish(advanced);
      // A concurrent confirmation won (or the upload was cancelled): this copy is not served.
      if (updated?.storageKey !== key) await deleteObjectQuietly(key, caller);
      if (!updated) throw notFound();
      if (updated.caseId !== null && updated.storageKey === key) {
        emit(
          {
            caseId: updated.caseId,
            attachmentId: updated.id,
            action: 'attachmentAdded',
            actorId: caller.userId,
            fromStatus: null,
            toStatus: updated.status,
          },
          (recorded as { detail: Record<string, unknown> } | null)?.detail,
        );
      }
      return answer(updated);
    },

    get: getWithActions,

    /** A short-lived signed URL of a visible, uploaded file. */
    async downloadUrl(caller: AuthContext, id: number): Promise<string> {
      const { row } = await loadVisible(caller, id);
      const { url } = await toAttachment(row);
      if (!url) throw notFound();
      return url;
    },

    /** publish, unpublish, approve, request a change (with its text), cancel the request. */
    async move(caller: AuthContext, id: number, action: StatusAction, text?: string) {
      const { row, access, actor } = await loadVisible(caller, id);
      if (!access || !actor) throw new AppError(409, 'ATTACHMENT_ACTION_NOT_ALLOWED');
      const updated = await db.transaction(async (tx) => {
        const locked = await findAttachmentForUpdate(tx, row.id);
        if (!locked || locked.deletedAt) throw notFound();
        const { state } = await caseState(access, await listCaseAttachments(tx, access.caseId));
        const view = rowView(locked);
        if (!attachmentActionsFor(actor, view, state).includes(action)) {
          refuse((a) => attachmentActionsFor(a, view, state).includes(action));
        }
        const to = attachmentStatusAfter(locked, action)!;
        const now = new Date();
        if (action === 'publish' || action === 'unpublish') {
          await settlePreviousVersion(tx, locked, action === 'publish' ? now : null);
        }
        const done = await updateAttachment(tx, locked.id, {
          status: to,
          // The request text stays with the file until the change is cancelled or a new move.
          justification: action === 'requestChange' ? (text ?? '') : locked.justification,
          ...(action === 'publish' ? { publishedAt: now, publishedBy: caller.userId } : {}),
        });
        await recordCaseActivity(tx, {
          caseId: access.caseId,
          actorId: caller.userId,
          action: EVENT_OF[action],
          fromStatus: locked.status,
          toStatus: to,
          detail: {
            attachmentId: locked.id,
            fileName: locked.filename,
            ...(action === 'requestChange' ? { text: text ?? '' } : {}),
          },
        });
        const advanced = await advancePaidCase(tx, access.caseId, caller.userId, new Date());
        return { done, from: locked.status, advanced };
      });
      ctx.caseEvents.publish(updated.advanced);
      emit({
        caseId: access.caseId,
        attachmentId: row.id,
        action: EVENT_OF[action],
        actorId: caller.userId,
        fromStatus: updated.from,
        toStatus: updated.done.status,
      });
      return getWithActions(caller, id);
    },

    /**
     * Deletes a file: the row is soft-deleted and its object removed. A required file's slot is
     * derived from the case's services, so it shows as an empty slot again (decision 012).
     */
    async remove(caller: AuthContext, id: number) {
      const { row, access, actor } = await loadVisible(caller, id);
      if (!access || !actor || row.status === 'uploading') {
        // The caller's own temporary file, or an upload the caller abandons (cancel).
        await discardUploadQuietly(row, caller);
        await removeAttachmentRow(db, row.id);
        return { deleted: true as const, emptySlot: false };
      }
      const key = await db.transaction(async (tx) => {
        const locked = await findAttachmentForUpdate(tx, row.id);
        if (!locked || locked.deletedAt) throw notFound();
        const { state } = await caseState(access, await listCaseAttachments(tx, access.caseId));
        const view = rowView(locked);
        if (!attachmentActionsFor(actor, view, state).includes('delete')) {
          refuse((a) => attachmentActionsFor(a, view, state).includes('delete'));
        }
        // A deleted version in force hands the chain back to the version it had replaced.
        if (locked.status !== 'private') await settlePreviousVersion(tx, locked, null);
        await updateAttachment(tx, locked.id, { deletedAt: new Date() });
        await recordCaseActivity(tx, {
          caseId: access.caseId,
          actorId: caller.userId,
          action: 'attachmentDeleted',
          fromStatus: locked.status,
          detail: { attachmentId: locked.id, required: locked.required, fileName: locked.filename },
        });
        return locked.storageKey;
      });
      if (await deleteObjectQuietly(key, caller)) {
        await updateAttachment(db, row.id, { storageKey: null });
      }
      emit({
        caseId: access.caseId,
        attachmentId: row.id,
        action: 'attachmentDeleted',
        actorId: caller.userId,
        fromStatus: row.status,
        toStatus: null,
      });
      return { deleted: true as const, emptySlot: row.required };
    },

    /**
     * Removes unconfirmed uploads and temporary files older than 24 h with their objects, retries
     * objects of deleted files, and sweeps the local store's partial uploads.
     */
    async cleanup(now = new Date()) {
      const before = new Date(now.getTime() - STALE_AFTER_MS);
      const stale = await findStaleAttachments(db, before);
      const removed: number[] = [];
      for (const row of stale) {
        if (!row.storageKey || (await discardUploadQuietly(row))) removed.push(row.id);
      }
      await removeAttachmentRows(db, removed);
      let objects = 0;
      for (const row of await findDeletedWithObjects(db)) {
        if (await deleteObjectQuietly(row.storageKey)) {
          await updateAttachment(db, row.id, { storageKey: null });
          objects++;
        }
      }
      const tempFiles = await storage.sweepTemporary(STALE_AFTER_MS);
      return { rows: removed.length, objects, tempFiles };
    },
  };
}

export type AttachmentsService = ReturnType<typeof createAttachmentsService>;
