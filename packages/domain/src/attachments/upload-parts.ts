import type { AttachmentBucket } from './attachment';

/**
 * Resumable uploads send a file in numbered parts (S3 multipart upload; the local store speaks the
 * same protocol). Every part but the last has the plan's part size; parts are numbered from 1.
 * Pure: the server plans and checks, the browser slices the file and resumes from the parts it
 * already sent.
 */

/** S3's smallest part (all but the last one). */
export const S3_MIN_PART_BYTES = 5 * 1024 * 1024;
/** S3's largest part count of one upload. */
export const MAX_UPLOAD_PARTS = 10_000;
/** The part size the server plans with unless configured otherwise. */
export const DEFAULT_UPLOAD_PART_BYTES = 16 * 1024 * 1024;
/** Part URLs asked for in one call: the browser asks again as it goes. */
export const MAX_PART_URLS_PER_CALL = 20;
/**
 * Parts the browser sends at once: enough to fill a clinic's uplink, few enough to resume cheaply
 * (the upload bench sends with the same number).
 */
export const PARALLEL_UPLOAD_PARTS = 3;

export interface UploadPartPlan {
  partSize: number;
  partCount: number;
}

/**
 * The parts of a file of `fileSize` bytes with parts of `preferredPartSize`; the part size grows
 * when the file would need more than MAX_UPLOAD_PARTS parts. An empty file still has one part.
 */
export function planUploadParts(fileSize: number, preferredPartSize: number): UploadPartPlan {
  if (!Number.isSafeInteger(fileSize) || fileSize < 0) throw new RangeError('file size');
  if (!Number.isSafeInteger(preferredPartSize) || preferredPartSize <= 0) {
    throw new RangeError('part size');
  }
  const partSize = Math.max(preferredPartSize, Math.ceil(fileSize / MAX_UPLOAD_PARTS));
  return { partSize, partCount: Math.max(1, Math.ceil(fileSize / partSize)) };
}

/** The bytes [start, end) of part `partNumber`, or null when the plan has no such part. */
export function uploadPartRange(
  plan: UploadPartPlan,
  fileSize: number,
  partNumber: number,
): { start: number; end: number; size: number } | null {
  if (!Number.isInteger(partNumber) || partNumber < 1 || partNumber > plan.partCount) return null;
  const start = (partNumber - 1) * plan.partSize;
  const end = Math.min(fileSize, start + plan.partSize);
  return { start, end, size: end - start };
}

/** The part numbers still to send, in order, given the ones already sent (others are ignored). */
export function remainingUploadParts(plan: UploadPartPlan, sent: Iterable<number>): number[] {
  const done = new Set(sent);
  const remaining: number[] = [];
  for (let part = 1; part <= plan.partCount; part++) if (!done.has(part)) remaining.push(part);
  return remaining;
}

/** Exams and planning files (scans, zipped CT series: up to 1 GB) go in resumable parts. */
export const isResumableBucket = (bucket: AttachmentBucket) =>
  bucket === 'exams' || bucket === 'planning';
