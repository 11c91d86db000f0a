import { z } from 'zod';
import type { Language } from '../i18n/locale';
import { translate } from '../i18n/catalogues';
import { isOneOf } from '../common/one-of';

/** Attachments: buckets, kinds, statuses, actions, the is-image and label-key rules. */

export const ATTACHMENT_BUCKETS = [
  'photoProtocol',
  'exams',
  'planning',
  'productThumbnail',
  'avatar',
] as const;
export type AttachmentBucket = (typeof ATTACHMENT_BUCKETS)[number];
/** Buckets of files the client sends for a case; planning is separate (the planners' output). */
export const CASE_INPUT_BUCKETS = [
  'photoProtocol',
  'exams',
] as const satisfies readonly AttachmentBucket[];
export const isInputBucket = (bucket: string) => isOneOf(CASE_INPUT_BUCKETS, bucket);

/** Attachment kinds per bucket (the attachmentType values with a label). */
export const ATTACHMENT_KINDS = {
  photoProtocol: [
    'generic',
    'lipRetractor',
    'lipAtRest',
    'naturalSmile',
    'forcedSmile',
    'lateralAtRest',
    'lateralNaturalSmile',
    'photo45Degrees',
    'upperOcclusal',
  ],
  exams: ['generic', 'upperJawStl', 'lowerJawStl', 'object', 'dicom'],
  planning: ['generic'],
  productThumbnail: ['generic'],
  avatar: ['generic'],
} as const satisfies Record<AttachmentBucket, readonly string[]>;

export const ATTACHMENT_STATUSES = [
  'public',
  'private',
  'request_change',
  'publish',
  'approved',
  'uploading',
] as const;
export type AttachmentStatus = (typeof ATTACHMENT_STATUSES)[number];

/**
 * How long a signed download link works (file `url`s, receipts): 5 minutes, so a link that leaks
 * (browser history, a proxy's log, a forwarded screenshot) is soon dead. Clients refetch the
 * answers that carry links well before.
 */
export const DOWNLOAD_LINK_SECONDS = 300;

// Pure: only the server validates with it, and the web's initial chunks need not build it.
export const attachmentSchema = /* @__PURE__ */ z.object({
  id: z.number().int(),
  caseId: z.number().int().nullable(),
  userId: z.number().int(),
  bucketName: z.enum(ATTACHMENT_BUCKETS),
  attachmentType: z.string().max(60),
  stringId: z.string().max(120).nullable(),
  required: z.boolean(),
  status: z.enum(ATTACHMENT_STATUSES),
  freeze: z.boolean(),
  filename: z.string().max(255).nullable(),
  filesize: z.number().int().min(0).nullable(),
  url: z.string().nullable(),
  uploadedAt: z.string().nullable(),
  createdAt: z.string(),
  deletedAt: z.string().nullable(),
  justification: z.string().nullable(),
  mimetype: z.string().max(255).nullable(),
  /** Version chain (docs/decisions/028): an input or a first plan is version 1 of its own chain. */
  version: z.number().int().min(1),
  /** Id of the chain's first version. */
  chainId: z.number().int(),
  /** The file this one answers as its next version. */
  previousVersionId: z.number().int().nullable(),
  /** The planner's latest publication of the file (kept after later moves). */
  publishedAt: z.string().nullable(),
  publishedBy: z.object({ id: z.number().int(), name: z.string() }).nullable(),
  /** Set when the next version was published: the file is read-only from then on. */
  supersededAt: z.string().nullable(),
  /** SHA-256 (hex) of the stored bytes of a planning file, computed when its upload is confirmed. */
  sha256: z.string().nullable(),
  /** Client-side only: upload progress 0-100 and the upload error. */
  uploadPercent: z.number().min(0).max(100).optional(),
  error: z.string().nullable().optional(),
});
export type Attachment = z.infer<typeof attachmentSchema>;

/** An image if the mimetype contains image/, or with no mimetype if the url has .jpg, .jpeg or .png. */
export function isImageAttachment(attachment: {
  mimetype?: string | null;
  url?: string | null;
}): boolean {
  if (attachment.mimetype) return attachment.mimetype.toLowerCase().includes('image/');
  const url = (attachment.url ?? '').toLowerCase();
  return ['.jpg', '.jpeg', '.png'].some((extension) => url.includes(extension));
}

/** Label key: bucket name plus attachment type, or plus 'generic' when the type equals the id. */
export function attachmentLabelKey(attachment: {
  id: number | string;
  bucketName: string;
  attachmentType: string | number;
}): string {
  const type =
    String(attachment.attachmentType) === String(attachment.id)
      ? 'generic'
      : attachment.attachmentType;
  return `${attachment.bucketName}.${type}`;
}

/** The translated label (domain catalogue `attachments.<bucket>.<type>`), generic when unknown. */
export function attachmentLabel(
  language: Language,
  attachment: { id: number | string; bucketName: string; attachmentType: string | number },
): string {
  const key = `attachments.${attachmentLabelKey(attachment)}`;
  const label = translate(language, 'domain', key);
  return label === key
    ? translate(language, 'domain', `attachments.${attachment.bucketName}.generic`)
    : label;
}

/** Publish and approved count as published. */
export const isPublished = (status: string) => status === 'publish' || status === 'approved';
/** Only request_change is not OK. */
export const isAttachmentOk = (status: string) => status !== 'request_change';
/** Visible to everyone on the case: the client's public inputs and published planning files. */
export const isPublicAttachment = (status: string) => status === 'public';

/** New uploads: planning files start private (the planner publishes them); inputs start public. */
export const initialAttachmentStatus = (bucket: AttachmentBucket): AttachmentStatus =>
  bucket === 'planning' ? 'private' : 'public';

export const ATTACHMENT_ACTIONS = [
  'publish',
  'unpublish',
  'approve',
  'requestChange',
  'cancelChangeRequest',
  'delete',
] as const;
export type AttachmentAction = (typeof ATTACHMENT_ACTIONS)[number];

/**
 * Status moves of the actions (delete has its own semantics, see deleteAttachment). Decision where
 * the spec is silent: a file must be published before it is approved or a change is requested;
 * cancelling a change request returns it to published; frozen or uploading files do not move.
 */
const ACTION_MOVES: Record<
  Exclude<AttachmentAction, 'delete'>,
  { from: readonly AttachmentStatus[]; to: AttachmentStatus }
> = {
  publish: { from: ['private', 'public'], to: 'publish' },
  unpublish: { from: ['publish'], to: 'private' },
  approve: { from: ['publish'], to: 'approved' },
  requestChange: { from: ['publish', 'approved'], to: 'request_change' },
  cancelChangeRequest: { from: ['request_change'], to: 'publish' },
};

export function attachmentStatusAfter(
  attachment: { status: string; freeze: boolean },
  action: Exclude<AttachmentAction, 'delete'>,
): AttachmentStatus | null {
  if (attachment.freeze || attachment.status === 'uploading') return null;
  const move = ACTION_MOVES[action];
  return isOneOf(move.from, attachment.status) ? move.to : null;
}

export function allowedAttachmentActions(attachment: {
  status: string;
  freeze: boolean;
  deletedAt?: string | null;
}): AttachmentAction[] {
  if (attachment.deletedAt) return [];
  const moves = (Object.keys(ACTION_MOVES) as Exclude<AttachmentAction, 'delete'>[]).filter(
    (action) => attachmentStatusAfter(attachment, action) !== null,
  );
  return attachment.freeze || attachment.status === 'uploading' ? moves : [...moves, 'delete'];
}

export type AttachmentDeletion<T> = { kind: 'reset'; attachment: T } | { kind: 'remove' };

/**
 * Deleting a required attachment resets it to empty (the slot stays, waiting for a new file); a
 * non-required one is removed.
 */
export function deleteAttachment<T extends Attachment>(attachment: T): AttachmentDeletion<T> {
  if (!attachment.required) return { kind: 'remove' };
  return {
    kind: 'reset',
    attachment: {
      ...attachment,
      status: initialAttachmentStatus(attachment.bucketName),
      filename: null,
      filesize: null,
      url: null,
      uploadedAt: null,
      mimetype: null,
      justification: null,
      uploadPercent: 0,
      error: null,
    },
  };
}

/** Case check: attachments are valid when at least one is public (and not deleted). */
export function areAttachmentsValid(
  attachments: readonly Pick<Attachment, 'status' | 'deletedAt'>[],
): boolean {
  return attachments.some(
    (attachment) => !attachment.deletedAt && isPublicAttachment(attachment.status),
  );
}

/** An upload goes from uploading to done, then joins the case attachments. */
export function completeUpload<T extends Attachment>(
  attachment: T,
  upload: { url: string; uploadedAt: string; filesize: number; mimetype: string | null },
): T {
  return {
    ...attachment,
    ...upload,
    status:
      attachment.status === 'uploading'
        ? initialAttachmentStatus(attachment.bucketName)
        : attachment.status,
    uploadPercent: 100,
    error: null,
  };
}

/** Replaces the attachment with the same id, or appends a new one (joining the case list). */
export function joinCaseAttachments<T extends { id: number }>(
  attachments: readonly T[],
  attachment: T,
): T[] {
  const index = attachments.findIndex((item) => item.id === attachment.id);
  if (index === -1) return [...attachments, attachment];
  return attachments.map((item, i) => (i === index ? attachment : item));
}
