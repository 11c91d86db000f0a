import {
  ATTACHMENT_KINDS,
  isImageAttachment,
  isLanguage,
  languageTag,
  type AttachmentBucket,
} from '@dentflow/domain';

/** The buckets the case's Attachments tab shows, in order. */
export const CASE_TAB_BUCKETS = [
  'photoProtocol',
  'exams',
  'planning',
] as const satisfies readonly AttachmentBucket[];
export type CaseTabBucket = (typeof CASE_TAB_BUCKETS)[number];

export type ViewerKind = 'image' | 'stl' | 'dicom' | 'none';

interface FileLike {
  bucketName: string;
  attachmentType: string;
  filename: string | null;
  mimetype?: string | null;
  url?: string | null;
}

const extension = (filename: string | null | undefined) =>
  (filename ?? '').toLowerCase().match(/\.([a-z0-9]+)$/)?.[1] ?? '';

/** Which viewer opens a file: by its content (image rule of the spec), its kind, or its name. */
export function viewerKind(file: FileLike): ViewerKind {
  if (isImageAttachment(file)) return 'image';
  const ext = extension(file.filename);
  if (ext === 'stl' || file.mimetype === 'model/stl') return 'stl';
  if (file.attachmentType === 'dicom' || ext === 'dcm' || file.mimetype === 'application/dicom') {
    return 'dicom';
  }
  // A jaw scan may also arrive as a zip: downloadable, not viewable.
  return 'none';
}

/**
 * The `attachment_name` (`bucket.kind`) for a file dropped on a bucket with a chosen kind. A
 * generic exam that is clearly a tomography (a .dcm, or a zip of a series) is filed as DICOM.
 */
export function attachmentNameFor(bucket: CaseTabBucket, kind: string, filename: string): string {
  if (bucket === 'planning') return 'planning';
  const kinds: readonly string[] = ATTACHMENT_KINDS[bucket];
  let chosen = kinds.includes(kind) ? kind : 'generic';
  if (bucket === 'exams' && chosen === 'generic') {
    const ext = extension(filename);
    if (ext === 'dcm' || ext === 'zip') chosen = 'dicom';
  }
  return `${bucket}.${chosen}`;
}

/**
 * A size for people: 1 decimal in kB / MB / GB. Takes the interface language (`ptBR`, which is not
 * a BCP 47 tag: `toLocaleString` would throw on it) or a tag.
 */
export function formatBytes(bytes: number | null | undefined, language = 'en'): string {
  const locale = isLanguage(language) ? languageTag(language) : language;
  if (bytes === null || bytes === undefined || !Number.isFinite(bytes)) return '';
  const units = ['B', 'kB', 'MB', 'GB'];
  let value = bytes;
  let unit = 0;
  while (value >= 1024 && unit < units.length - 1) {
    value /= 1024;
    unit += 1;
  }
  const digits = unit === 0 ? 0 : 1;
  return `${value.toLocaleString(locale, { maximumFractionDigits: digits })} ${units[unit]}`;
}
