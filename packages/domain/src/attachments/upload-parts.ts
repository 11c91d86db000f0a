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

/** A signed part URL as the server answers it. */
export interface PartUrl {
  partNumber: number;
  url: string;
}

/**
 * The part URLs of one round of an upload, asked for a little ahead. The URLs of the next
 * PARALLEL_UPLOAD_PARTS parts come in one call, asked for when the part before them starts: each
 * part can start as soon as a part ends, without a round trip of its own, and the server signs a
 * third as many times. A URL is used once, a few parts after it was asked for, well inside its
 * hour; a part tried again asks for a fresh one.
 */
export function partUrlPool(ask: (partNumbers: number[]) => Promise<PartUrl[]>) {
  const asked = new Map<number, Promise<string>>();
  const request = (partNumbers: number[]) => {
    const answer = ask(partNumbers);
    for (const part of partNumbers) {
      const url = answer.then((urls) => {
        const found = urls.find((answered) => answered.partNumber === part);
        if (!found) throw new Error(`no URL for part ${part}`);
        return found.url;
      });
      // A failure reaches whoever takes the URL; one asked ahead and never taken is dropped.
      url.catch(() => undefined);
      asked.set(part, url);
    }
  };
  const without = (parts: readonly number[], count: number) =>
    parts.filter((part) => !asked.has(part)).slice(0, count);
  const takeAsked = (part: number) => {
    const url = asked.get(part)!;
    asked.delete(part);
    return url;
  };
  return {
    /**
     * The URL for the first try of `part`; `upcoming` are the parts still waiting for their
     * turn, in order. Asks ahead for the next of them when they have no URL yet.
     */
    take(part: number, upcoming: readonly number[]): Promise<string> {
      if (!asked.has(part)) request([part, ...without(upcoming, PARALLEL_UPLOAD_PARTS - 1)]);
      const url = takeAsked(part);
      if (upcoming.length > 0 && !asked.has(upcoming[0]!)) {
        request(without(upcoming, PARALLEL_UPLOAD_PARTS));
      }
      return url;
    },
    /** A fresh URL for a part tried again (the one it had may have expired or been refused). */
    fresh(part: number): Promise<string> {
      request([part]);
      return takeAsked(part);
    },
  };
}
