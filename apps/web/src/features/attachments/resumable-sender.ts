import {
  PARALLEL_UPLOAD_PARTS,
  partUrlPool,
  remainingUploadParts,
  uploadPartRange,
  type UploadPartPlan,
} from '@dentflow/domain';
import { ApiError } from '../../lib/api-client';
import type { CreatePostUrlBody } from './api/create-post-url';
import {
  abortResumableUpload,
  completeResumableUpload,
  requestPartUrls,
  sendPart,
  startResumableUpload,
} from './api/resumable-upload';
import { UploadAbortedError, UploadFailedError } from './api/upload-to-storage';

/** The network steps of a resumable upload; replaceable in tests. */
export interface ResumableTransport {
  start: typeof startResumableUpload;
  partUrls: typeof requestPartUrls;
  sendPart: typeof sendPart;
  complete: typeof completeResumableUpload;
  abort: typeof abortResumableUpload;
}

export const defaultResumableTransport: ResumableTransport = {
  start: startResumableUpload,
  partUrls: requestPartUrls,
  sendPart,
  complete: completeResumableUpload,
  abort: abortResumableUpload,
};

/** What the browser keeps of an unfinished upload, to resume it after a reload. */
export interface SavedUpload {
  attachmentId: number;
  plan: UploadPartPlan;
  /** ETags of the parts the store has, by part number. */
  etags: Record<number, string>;
}

const SAVED_PREFIX = 'dentflow.upload.';

/** The same file chosen again for the same case and slot has the same key. */
export function uploadKey(caseId: number, target: string, file: File): string {
  return `${SAVED_PREFIX}${caseId}.${target}.${file.name}.${file.size}.${file.lastModified}`;
}

export const savedUploads = {
  load(key: string): SavedUpload | null {
    try {
      const raw = localStorage.getItem(key);
      return raw ? (JSON.parse(raw) as SavedUpload) : null;
    } catch {
      return null;
    }
  },
  save(key: string, saved: SavedUpload) {
    try {
      localStorage.setItem(key, JSON.stringify(saved));
    } catch {
      // A full or disabled storage only loses the resume after a reload.
    }
  },
  remove(key: string) {
    try {
      localStorage.removeItem(key);
    } catch {
      // Nothing to forget.
    }
  },
};

/** Tries of one part before the upload stops with an error (the user may retry it). */
const PART_TRIES = 8;
const backoffMs = (attempt: number) => Math.min(30_000, 1000 * 2 ** attempt);

export interface ResumableProgress {
  /** Bytes the store has (whole parts) plus those of parts in flight. */
  sent: number;
  total: number;
  /** A part failed and is tried again after a pause (a network drop). */
  retrying: boolean;
}

export interface ResumableOptions {
  caseId: number;
  key: string;
  body: CreatePostUrlBody;
  file: File;
  onProgress: (progress: ResumableProgress) => void;
  /** Called once with whether the upload continues one kept from before (a reload). */
  onStarted?: (info: { attachmentId: number; resumed: boolean }) => void;
  signal: AbortSignal;
  transport?: ResumableTransport;
  store?: typeof savedUploads;
  sleep?: (ms: number, signal: AbortSignal) => Promise<void>;
}

const defaultSleep = (ms: number, signal: AbortSignal) =>
  new Promise<void>((resolve, reject) => {
    const timer = setTimeout(resolve, ms);
    signal.addEventListener('abort', () => {
      clearTimeout(timer);
      reject(new UploadAbortedError());
    });
  });

/** The upload the server no longer has (cancelled, cleaned up, or confirmed meanwhile). */
const isGone = (error: unknown) =>
  error instanceof ApiError && (error.status === 404 || error.code === 'UPLOAD_NOT_FOUND');

/**
 * Sends a file in parts: starts (or resumes the upload kept under `key`), sends the parts still
 * missing a few at a time, each retried with a growing pause, keeps every part's ETag so a reload
 * resumes where it stopped, then completes. Resolves with the confirmed attachment id.
 */
export async function sendResumable(options: ResumableOptions): Promise<number> {
  const transport = options.transport ?? defaultResumableTransport;
  const store = options.store ?? savedUploads;
  const sleep = options.sleep ?? defaultSleep;
  const { file, signal } = options;
  const checkAborted = () => {
    if (signal.aborted) throw new UploadAbortedError();
  };

  let saved = store.load(options.key);
  let resumed = saved !== null;
  if (saved) {
    // The server may have dropped it (a day old, cancelled elsewhere): start again then.
    const remaining = remainingUploadParts(saved.plan, Object.keys(saved.etags).map(Number));
    try {
      await transport.partUrls(saved.attachmentId, [remaining[0] ?? 1]);
    } catch (error) {
      if (!isGone(error)) throw error;
      store.remove(options.key);
      saved = null;
      resumed = false;
    }
  }
  if (!saved) {
    const { attachment, upload } = await transport.start(options.caseId, options.body);
    saved = { attachmentId: attachment.id, plan: upload, etags: {} };
    store.save(options.key, saved);
  }
  const upload = saved;
  options.onStarted?.({ attachmentId: upload.attachmentId, resumed });
  checkAborted();

  const sizeOf = (part: number) => uploadPartRange(upload.plan, file.size, part)!.size;
  const inFlight = new Map<number, number>();
  let retrying = 0;
  const report = () => {
    let sent = 0;
    for (const part of Object.keys(upload.etags)) sent += sizeOf(Number(part));
    for (const loaded of inFlight.values()) sent += loaded;
    options.onProgress({
      sent: Math.min(sent, file.size),
      total: file.size,
      retrying: retrying > 0,
    });
  };
  const aborts = new Set<() => void>();
  const onAbort = () => aborts.forEach((abort) => abort());
  signal.addEventListener('abort', onAbort);

  // The parts of the current round still waiting for their turn, and their URLs asked ahead.
  let queue: number[] = [];
  let urls: ReturnType<typeof partUrlPool>;
  const askPartUrls = async (partNumbers: number[]) =>
    (await transport.partUrls(upload.attachmentId, partNumbers)).parts;

  async function sendOne(part: number) {
    for (let attempt = 0; ; attempt++) {
      checkAborted();
      try {
        const url = attempt === 0 ? await urls.take(part, queue) : await urls.fresh(part);
        const range = uploadPartRange(upload.plan, file.size, part)!;
        const sending = transport.sendPart(url, file.slice(range.start, range.end), (loaded) => {
          inFlight.set(part, loaded);
          report();
        });
        aborts.add(sending.abort);
        try {
          upload.etags[part] = await sending.promise;
        } finally {
          aborts.delete(sending.abort);
          inFlight.delete(part);
        }
        store.save(options.key, upload);
        report();
        return;
      } catch (error) {
        if (error instanceof UploadAbortedError || signal.aborted) throw new UploadAbortedError();
        // The server refused (not the network): trying again would not help.
        if (error instanceof ApiError && error.status >= 400 && error.status < 500) throw error;
        if (error instanceof UploadFailedError && error.status >= 400 && error.status < 500) {
          if (error.status !== 403 && error.status !== 408) throw error;
        }
        if (attempt + 1 >= PART_TRIES) throw error;
        retrying++;
        report();
        try {
          await sleep(backoffMs(attempt), signal);
        } finally {
          retrying--;
        }
      }
    }
  }

  try {
    report();
    for (let round = 0; ; round++) {
      queue = remainingUploadParts(upload.plan, Object.keys(upload.etags).map(Number));
      urls = partUrlPool(askPartUrls);
      const worker = async () => {
        for (let part = queue.shift(); part !== undefined; part = queue.shift())
          await sendOne(part);
      };
      await Promise.all(Array.from({ length: PARALLEL_UPLOAD_PARTS }, worker));
      checkAborted();
      try {
        const parts = Object.entries(upload.etags).map(([part, etag]) => ({
          partNumber: Number(part),
          etag,
        }));
        const done = await transport.complete(upload.attachmentId, parts);
        store.remove(options.key);
        return done.attachment.id;
      } catch (error) {
        // The store lost parts it had answered (rare): send them all again, once.
        if (!(error instanceof ApiError && error.code === 'UPLOAD_PARTS_MISSING') || round > 0) {
          throw error;
        }
        upload.etags = {};
        store.save(options.key, upload);
      }
    }
  } catch (error) {
    // A refusal of the file itself (type, size): nothing left to resume.
    if (error instanceof ApiError && error.status === 422) store.remove(options.key);
    throw error;
  } finally {
    signal.removeEventListener('abort', onAbort);
  }
}
