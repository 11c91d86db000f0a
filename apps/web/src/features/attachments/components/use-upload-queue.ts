import { useCallback, useEffect, useRef, useState } from 'react';
import { fileTypeOfName, isResumableBucket, type AttachmentBucket } from '@dentflow/domain';
import { ApiError } from '../../../lib/api-client';
import { createPostUrl as defaultCreatePostUrl } from '../api/create-post-url';
import { confirmUpload as defaultConfirmUpload } from '../api/confirm-upload';
import {
  UploadAbortedError,
  uploadToStorage as defaultUploadToStorage,
} from '../api/upload-to-storage';
import {
  defaultResumableTransport,
  savedUploads,
  sendResumable,
  uploadKey,
  type ResumableTransport,
} from '../resumable-sender';
import { createTransferRate, secondsLeft } from '../transfer-rate';

export type UploadState = 'uploading' | 'confirming' | 'error';

export interface UploadItem {
  key: string;
  file: File;
  /** `bucket.kind`. */
  attachmentName: string;
  /** The empty slot (or file) this upload fills, if any. */
  slotId?: number;
  /** The planning file this upload answers as its next version. */
  replacesId?: number;
  percent: number;
  state: UploadState;
  /** Bytes sent of `file.size` (resumable uploads), speed and time left once measurable. */
  sent?: number;
  bytesPerSecond?: number | null;
  secondsLeft?: number | null;
  /** The upload continues one started before (the same file chosen again after a reload). */
  resumed?: boolean;
  /** The connection dropped: a part is tried again after a pause. */
  retrying?: boolean;
  /** An object URL of a chosen image, shown while it uploads (revoked when it leaves). */
  previewUrl?: string;
  /** The server's reason when it gave one (e.g. a type or size refused); else the common error. */
  errorDetail?: string;
}

/** The three steps of an upload; replaceable in tests. */
export interface UploadTransport {
  createPostUrl: typeof defaultCreatePostUrl;
  uploadToStorage: typeof defaultUploadToStorage;
  confirmUpload: typeof defaultConfirmUpload;
  /** Exams and planning files go in resumable parts. */
  resumable?: ResumableTransport;
  /** Where unfinished resumable uploads are kept (localStorage). */
  saved?: typeof savedUploads;
  sleep?: (ms: number, signal: AbortSignal) => Promise<void>;
}

const defaultTransport: UploadTransport = {
  createPostUrl: defaultCreatePostUrl,
  uploadToStorage: defaultUploadToStorage,
  confirmUpload: defaultConfirmUpload,
  resumable: defaultResumableTransport,
  saved: savedUploads,
};

const IMAGE_TYPES = new Set(['jpeg', 'png', 'gif']);
const isImageFile = (file: File) => IMAGE_TYPES.has(fileTypeOfName(file.name) ?? '');

export interface UploadRequest {
  file: File;
  attachmentName: string;
  slotId?: number;
  replacesId?: number;
}

let nextKey = 0;

/**
 * The case's upload queue: each photo goes createPostUrl → store (with 0-100 progress, abortable)
 * → uploadedSuccess; exams and planning files go in resumable parts (resumed after a network drop
 * or, for the same file chosen again, after a reload). Images show their preview while they go. A cancelled upload leaves the queue; a failed one stays with its error until
 * it is retried or dismissed. `onUploaded` runs after each file joins the case.
 */
export function useUploadQueue(options: {
  caseId: number;
  onUploaded: () => void;
  transport?: UploadTransport;
}) {
  const { caseId } = options;
  const transport = options.transport ?? defaultTransport;
  const [items, setItems] = useState<UploadItem[]>([]);
  const aborts = useRef(new Map<string, () => void>());
  /** Resumable uploads the server knows: what a cancel must abort and forget. */
  const uploadIds = useRef(new Map<string, { attachmentId: number; savedKey: string }>());
  const cancelled = useRef(new Set<string>());
  const onUploaded = useRef(options.onUploaded);
  onUploaded.current = options.onUploaded;
  const transportRef = useRef(transport);
  transportRef.current = transport;

  const patch = useCallback((key: string, change: Partial<UploadItem>) => {
    setItems((current) =>
      current.map((item) => (item.key === key ? { ...item, ...change } : item)),
    );
  }, []);
  const remove = useCallback((key: string) => {
    setItems((current) => {
      const leaving = current.find((item) => item.key === key);
      if (leaving?.previewUrl) URL.revokeObjectURL(leaving.previewUrl);
      return current.filter((item) => item.key !== key);
    });
  }, []);

  /** Exams and planning files: in parts, resumable, with speed and time left. */
  const runResumable = useCallback(
    async (item: UploadItem, steps: UploadTransport) => {
      const { key } = item;
      const controller = new AbortController();
      aborts.current.set(key, () => controller.abort());
      const target = item.slotId === undefined ? item.attachmentName : `slot-${item.slotId}`;
      const savedKey = uploadKey(caseId, target, item.file);
      const rate = createTransferRate();
      let wasRetrying = false;
      try {
        await sendResumable({
          caseId,
          key: savedKey,
          file: item.file,
          body: {
            ...(item.slotId === undefined ? {} : { id: item.slotId }),
            filename: item.file.name,
            filesize: item.file.size,
            attachment_name: item.attachmentName,
            ...(item.replacesId === undefined ? {} : { replacesId: item.replacesId }),
          },
          signal: controller.signal,
          transport: steps.resumable,
          store: steps.saved,
          sleep: steps.sleep,
          onStarted: ({ attachmentId, resumed }) => {
            uploadIds.current.set(key, { attachmentId, savedKey });
            if (resumed) patch(key, { resumed: true });
          },
          onProgress: ({ sent, total, retrying }) => {
            if (retrying !== wasRetrying) rate.reset();
            wasRetrying = retrying;
            const speed = retrying ? null : rate.sample(performance.now(), sent);
            const percent = total > 0 ? Math.min(99, Math.floor((sent / total) * 100)) : 0;
            patch(key, {
              sent,
              percent,
              retrying,
              bytesPerSecond: speed,
              secondsLeft: secondsLeft(sent, total, speed),
            });
          },
        });
        aborts.current.delete(key);
        uploadIds.current.delete(key);
        if (cancelled.current.has(key)) return;
        remove(key);
        onUploaded.current();
      } catch (error) {
        aborts.current.delete(key);
        if (error instanceof UploadAbortedError || cancelled.current.has(key)) return;
        patch(key, {
          state: 'error',
          retrying: false,
          errorDetail:
            error instanceof ApiError && error.status >= 400 && error.status < 500
              ? error.message
              : undefined,
        });
      }
    },
    [caseId, patch, remove],
  );

  const run = useCallback(
    async (item: UploadItem) => {
      const { key } = item;
      const steps = transportRef.current;
      cancelled.current.delete(key);
      const bucket = item.attachmentName.split('.')[0] as AttachmentBucket;
      if (isResumableBucket(bucket)) {
        await runResumable(item, steps);
        return;
      }
      try {
        const { attachment, upload } = await steps.createPostUrl(caseId, {
          ...(item.slotId === undefined ? {} : { id: item.slotId }),
          filename: item.file.name,
          filesize: item.file.size,
          attachment_name: item.attachmentName,
          ...(item.replacesId === undefined ? {} : { replacesId: item.replacesId }),
        });
        if (cancelled.current.has(key)) return;
        const sending = steps.uploadToStorage(upload, item.file, (percent) =>
          patch(key, { percent }),
        );
        aborts.current.set(key, sending.abort);
        await sending.promise;
        aborts.current.delete(key);
        if (cancelled.current.has(key)) return;
        patch(key, { state: 'confirming', percent: 100 });
        await steps.confirmUpload(attachment.id);
        remove(key);
        onUploaded.current();
      } catch (error) {
        aborts.current.delete(key);
        if (error instanceof UploadAbortedError || cancelled.current.has(key)) return;
        patch(key, {
          state: 'error',
          errorDetail:
            error instanceof ApiError && error.status >= 400 && error.status < 500
              ? error.message
              : undefined,
        });
      }
    },
    [caseId, patch, remove, runResumable],
  );

  const add = useCallback(
    (requests: UploadRequest[]) => {
      const fresh = requests.map((request): UploadItem => ({
        key: `upload-${++nextKey}`,
        file: request.file,
        attachmentName: request.attachmentName,
        slotId: request.slotId,
        replacesId: request.replacesId,
        percent: 0,
        state: 'uploading',
        previewUrl: isImageFile(request.file) ? URL.createObjectURL(request.file) : undefined,
      }));
      setItems((current) => [...current, ...fresh]);
      for (const item of fresh) void run(item);
    },
    [run],
  );

  const cancel = useCallback(
    (key: string) => {
      cancelled.current.add(key);
      aborts.current.get(key)?.();
      aborts.current.delete(key);
      // A cancelled resumable upload is dropped on the server and forgotten by the browser.
      const started = uploadIds.current.get(key);
      if (started) {
        uploadIds.current.delete(key);
        const steps = transportRef.current;
        (steps.saved ?? savedUploads).remove(started.savedKey);
        void (steps.resumable ?? defaultResumableTransport)
          .abort(started.attachmentId)
          .catch(() => undefined);
      }
      remove(key);
    },
    [remove],
  );

  const retry = useCallback(
    (key: string) => {
      const item = items.find((candidate) => candidate.key === key);
      if (!item || item.state !== 'error') return;
      const again: UploadItem = {
        ...item,
        state: 'uploading',
        percent: 0,
        sent: undefined,
        errorDetail: undefined,
      };
      patch(key, again);
      void run(again);
    },
    [items, patch, run],
  );

  // Leaving the case stops what is still being sent (the user has confirmed leaving).
  const itemsNow = useRef(items);
  itemsNow.current = items;
  useEffect(() => {
    const pending = aborts.current;
    const stopped = cancelled.current;
    const shown = itemsNow;
    return () => {
      for (const item of shown.current) if (item.previewUrl) URL.revokeObjectURL(item.previewUrl);
      for (const [key, abort] of pending) {
        stopped.add(key);
        abort();
      }
      pending.clear();
    };
  }, []);

  const busy = items.some((item) => item.state !== 'error');
  return { items, add, cancel, retry, dismiss: cancel, busy };
}
