import { isOneOf } from '../common/one-of';
import { isBroadNew } from '../cases/case-status';
import { AVATAR_MAX_BYTES } from '../profile/avatar';
import {
  ATTACHMENT_BUCKETS,
  ATTACHMENT_KINDS,
  attachmentStatusAfter,
  isInputBucket,
  type AttachmentAction,
  type AttachmentBucket,
} from './attachment';

/**
 * File rules: which file types and sizes each bucket/kind accepts, the attachment name
 * (`bucket.kind`) parser, the required slots per product category, and who may do which
 * attachment action. Pure; the server enforces them and the web uses them before a round trip.
 */

/** File types the platform accepts, each checked by its first bytes after the upload. */
export const FILE_TYPES = ['jpeg', 'png', 'gif', 'stl', 'dicom', 'zip'] as const;
export type FileType = (typeof FILE_TYPES)[number];

/** The content type stored and served for each file type. */
export const FILE_TYPE_MIME: Record<FileType, string> = {
  jpeg: 'image/jpeg',
  png: 'image/png',
  gif: 'image/gif',
  stl: 'model/stl',
  dicom: 'application/dicom',
  zip: 'application/zip',
};

const EXTENSION_TYPES: Record<string, FileType> = {
  jpg: 'jpeg',
  jpeg: 'jpeg',
  png: 'png',
  gif: 'gif',
  stl: 'stl',
  dcm: 'dicom',
  dicom: 'dicom',
  zip: 'zip',
};

/** Declared mimetypes browsers send for these files (STL and DICOM have several in the wild). */
const MIME_TYPES: Record<string, FileType> = {
  'image/jpeg': 'jpeg',
  'image/jpg': 'jpeg',
  'image/pjpeg': 'jpeg',
  'image/png': 'png',
  'image/gif': 'gif',
  'model/stl': 'stl',
  'model/x.stl-binary': 'stl',
  'model/x.stl-ascii': 'stl',
  'application/sla': 'stl',
  'application/vnd.ms-pki.stl': 'stl',
  'application/dicom': 'dicom',
  'application/zip': 'zip',
  'application/x-zip-compressed': 'zip',
};

/** The file type named by a filename's extension, or null. */
export function fileTypeOfName(filename: string): FileType | null {
  const dot = filename.lastIndexOf('.');
  if (dot <= 0 && !filename.startsWith('.')) return null;
  return EXTENSION_TYPES[filename.slice(dot + 1).toLowerCase()] ?? null;
}

/** The file type of a declared mimetype, or null (unknown or generic like octet-stream). */
export function fileTypeOfMime(mimetype: string | null | undefined): FileType | null {
  if (!mimetype) return null;
  return MIME_TYPES[mimetype.split(';')[0]!.trim().toLowerCase()] ?? null;
}

const MB = 1024 * 1024;
const IMAGES: readonly FileType[] = ['jpeg', 'png', 'gif'];
const SCANS: readonly FileType[] = ['stl', 'zip'];

export interface FileRule {
  types: readonly FileType[];
  maxBytes: number;
}

/**
 * Allowed types and size per bucket and kind. Photos are camera images; jaw scans STL (or a zip of
 * them); a CT exam a DICOM file or a zip of its series; planning and generic exams any of these.
 */
export function attachmentFileRule(bucket: AttachmentBucket, kind: string): FileRule {
  switch (bucket) {
    case 'photoProtocol':
      return { types: IMAGES, maxBytes: 30 * MB };
    case 'exams':
      if (kind === 'upperJawStl' || kind === 'lowerJawStl' || kind === 'object') {
        return { types: SCANS, maxBytes: 1024 * MB };
      }
      if (kind === 'dicom') return { types: ['dicom', 'zip'], maxBytes: 1024 * MB };
      return { types: FILE_TYPES, maxBytes: 1024 * MB };
    case 'planning':
      return { types: FILE_TYPES, maxBytes: 1024 * MB };
    case 'avatar':
      return { types: IMAGES, maxBytes: AVATAR_MAX_BYTES };
    case 'productThumbnail':
      return { types: IMAGES, maxBytes: 5 * MB };
  }
}

export type FileRejection = 'type' | 'size';

/**
 * Why a file announced for a bucket/kind is refused, or null. The type comes from the filename's
 * extension; a declared mimetype, when it names a known type, must agree with it.
 */
export function attachmentFileRejection(
  bucket: AttachmentBucket,
  kind: string,
  file: { filename: string; filesize: number; mimetype?: string | null },
): FileRejection | null {
  const rule = attachmentFileRule(bucket, kind);
  const type = fileTypeOfName(file.filename);
  if (!type || !rule.types.includes(type)) return 'type';
  const declared = fileTypeOfMime(file.mimetype);
  if (declared && declared !== type) return 'type';
  if (!Number.isSafeInteger(file.filesize) || file.filesize <= 0 || file.filesize > rule.maxBytes) {
    return 'size';
  }
  return null;
}

/** `photoProtocol.forcedSmile` → bucket and kind; a bare bucket means its generic kind; else null. */
export function parseAttachmentName(
  name: string,
): { bucket: AttachmentBucket; kind: string } | null {
  const [bucket, kind = 'generic', ...rest] = name.trim().split('.');
  if (rest.length > 0 || !isOneOf(ATTACHMENT_BUCKETS, bucket)) return null;
  const kinds: readonly string[] = ATTACHMENT_KINDS[bucket];
  return kinds.includes(kind) ? { bucket, kind } : null;
}

/** Buckets of files that belong to a case (the others are temporary uploads). */
export const CASE_BUCKETS = [
  'photoProtocol',
  'exams',
  'planning',
] as const satisfies readonly AttachmentBucket[];
export const isCaseBucket = (bucket: string) => isOneOf(CASE_BUCKETS, bucket);

export interface AttachmentSlot {
  bucketName: AttachmentBucket;
  attachmentType: string;
}

const PHOTO_PROTOCOL_SLOTS = ATTACHMENT_KINDS.photoProtocol.filter((kind) => kind !== 'generic');
/** Categories whose work depends on the smile: the full photo protocol (decision 012). */
const PHOTO_PROTOCOL_CATEGORIES: readonly number[] = [2, 4];
/** Categories planned on the jaw scans (decision 012). */
const JAW_SCAN_CATEGORIES: readonly number[] = [1, 2, 3, 4];
/** Guided implant surgery also needs the CT exam. */
const DICOM_CATEGORIES: readonly number[] = [3];

/**
 * The required slots of a case from its services' product categories (docs/decisions/012). With
 * a single jaw chosen (category 3's service data) only that jaw's scan is required.
 */
export function requiredAttachmentSlots(
  categoryIds: readonly number[],
  jaw?: 'upper' | 'lower' | 'both' | null,
): AttachmentSlot[] {
  const slots: AttachmentSlot[] = [];
  if (categoryIds.some((id) => PHOTO_PROTOCOL_CATEGORIES.includes(id))) {
    for (const kind of PHOTO_PROTOCOL_SLOTS) {
      slots.push({ bucketName: 'photoProtocol', attachmentType: kind });
    }
  }
  if (categoryIds.some((id) => JAW_SCAN_CATEGORIES.includes(id))) {
    if (jaw !== 'lower') slots.push({ bucketName: 'exams', attachmentType: 'upperJawStl' });
    if (jaw !== 'upper') slots.push({ bucketName: 'exams', attachmentType: 'lowerJawStl' });
  }
  if (categoryIds.some((id) => DICOM_CATEGORIES.includes(id))) {
    slots.push({ bucketName: 'exams', attachmentType: 'dicom' });
  }
  return slots;
}

/** The required slots with no file yet. */
export function emptyRequiredSlots(
  required: readonly AttachmentSlot[],
  files: readonly { bucketName: string; attachmentType: string }[],
): AttachmentSlot[] {
  return required.filter(
    (slot) =>
      !files.some(
        (file) =>
          file.bucketName === slot.bucketName && file.attachmentType === slot.attachmentType,
      ),
  );
}

/** The caller's standing on a case, as far as files go. */
export type AttachmentActor = 'owner' | 'planner' | 'supervisor' | 'member';

export interface AttachmentCaseState {
  caseStatus: string;
  caseArchived: boolean;
  /** A planning file of the case is in request_change: the client may send new inputs. */
  changeRequested: boolean;
}

/** A frozen case takes no file changes: archived, cancelled or closed. */
export const isCaseFrozenForFiles = (
  state: Pick<AttachmentCaseState, 'caseStatus' | 'caseArchived'>,
) => state.caseArchived || state.caseStatus === 'cancelled' || state.caseStatus === 'closed';

/** Whether the actor may send a new file to this bucket of the case. */
export function mayUploadAttachment(
  actor: AttachmentActor,
  bucket: AttachmentBucket,
  state: AttachmentCaseState,
): boolean {
  if (isCaseFrozenForFiles(state) || !isCaseBucket(bucket)) return false;
  if (actor === 'supervisor') return true;
  if (actor === 'planner') return bucket === 'planning';
  if (actor === 'owner') {
    return isInputBucket(bucket) && (isBroadNew(state.caseStatus) || state.changeRequested);
  }
  return false;
}

/**
 * The attachment actions the actor may do now: the role's share of the status moves of §4.
 * The owner deletes input files while the case is open to inputs and approves or asks for a
 * change of published planning files; planners publish, unpublish and delete planning files;
 * a supervisor does all. Frozen files and frozen cases take nothing.
 */
export function attachmentActionsFor(
  actor: AttachmentActor,
  attachment: {
    bucketName: string;
    status: string;
    freeze: boolean;
    deletedAt?: string | null;
    supersededAt?: string | null;
  },
  state: AttachmentCaseState,
): AttachmentAction[] {
  if (attachment.freeze || attachment.deletedAt || isCaseFrozenForFiles(state)) return [];
  // A version superseded by a later publication is read-only (docs/decisions/028).
  if (attachment.supersededAt) return [];
  if (attachment.status === 'uploading') return [];
  const planning = attachment.bucketName === 'planning';
  const movable = (action: Exclude<AttachmentAction, 'delete'>) =>
    planning && attachmentStatusAfter(attachment, action) !== null;
  const actions: AttachmentAction[] = [];
  const allow = (action: AttachmentAction, when: boolean) => {
    if (when) actions.push(action);
  };
  const owner = actor === 'owner' || actor === 'supervisor';
  const staff = actor === 'planner' || actor === 'supervisor';
  allow('publish', staff && movable('publish'));
  allow('unpublish', staff && movable('unpublish'));
  allow('approve', owner && movable('approve'));
  allow('requestChange', owner && movable('requestChange'));
  allow('cancelChangeRequest', owner && movable('cancelChangeRequest'));
  const deletable =
    actor === 'supervisor' ||
    (actor === 'planner' && planning) ||
    (actor === 'owner' && !planning && mayUploadAttachment('owner', 'photoProtocol', state));
  allow('delete', deletable);
  return actions;
}

/** The attachment actor of a caller who sees the case: staff, its owner, its planner, or a member. */
export function attachmentActorFor(access: {
  isStaff: boolean;
  relation: string;
}): AttachmentActor {
  if (access.isStaff) return 'supervisor';
  if (access.relation === 'owner' || access.relation === 'planner') return access.relation;
  return 'member';
}

/**
 * A file event of the case history as the actor may read it: the file's name only for whoever
 * saw the file at that event. A file private after the event (an unpublished planning file sent
 * or taken back), or deleted while private, is named to staff and planners only.
 */
export function fileEventDetailFor(
  actor: AttachmentActor,
  event: { fromStatus: string | null; toStatus: string | null; detail: Record<string, unknown> },
): Record<string, unknown> {
  if (!('fileName' in event.detail)) return event.detail;
  const statusAfter = event.toStatus ?? event.fromStatus ?? 'public';
  if (mayViewAttachment(actor, { status: statusAfter })) return event.detail;
  const { fileName: _hidden, ...detail } = event.detail;
  return detail;
}

/** Whether the actor sees the file: unpublished planning files (private) are for staff only. */
export function mayViewAttachment(
  actor: AttachmentActor,
  attachment: { status: string; deletedAt?: string | null },
): boolean {
  if (attachment.deletedAt || attachment.status === 'uploading') return false;
  return attachment.status !== 'private' || actor === 'planner' || actor === 'supervisor';
}
