import { useCallback, useEffect, useRef, useState } from 'react';
import { ApiError } from '../../../lib/api-client';
import { createPostUrl as defaultCreatePostUrl } from '../api/create-post-url';
import { confirmUpload as defaultConfirmUpload } from '../api/confirm-upload';
import {
  UploadAbortedError,
  uploadToStorage as defaultUploadToStorage,
} from '../api/upload-to-storage';

export type UploadState = 'uploading' | 'confirming' | 'error';

export interface UploadItem {
  key: string;
  file: File;
  /** `bucket.kind`. */
  attachmentName: string;
  /** The empty slot (or file) this upload fills, if any. */
  slotId?: number;
  percent: number;
  state: UploadState;
  /** The server's reason when it gave one (e.g. a type or size refused); else the common error. */
  errorDetail?: string;
}

/** The three steps of an upload; replaceable in tests. */
export interface UploadTransport {
  createPostUrl: typeof defaultCreatePostUrl;
  uploadToStorage: typeof defaultUploadToStorage;
  confirmUpload: typeof defaultConfirmUpload;
}

const defaultTransport: UploadTransport = {
  createPostUrl: defaultCreatePostUrl,
  uploadToStorage: defaultUploadToStorage,
  confirmUpload: defaultConfirmUpload,
};

export interface UploadRequest {
  file: File;
  attachmentName: string;
  slotId?: number;
}

let nextKey = 0;

/**
 * The case's upload queue: each file goes createPostUrl → store (with 0-100 progress, abortable)
 * → uploadedSuccess. A cancelled upload leaves the queue; a failed one stays with its error until
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
    setItems((current) => current.filter((item) => item.key !== key));
  }, []);

  const run = useCallback(
    async (item: UploadItem) => {
      const { key } = item;
      const steps = transportRef.current;
      cancelled.current.delete(key);
      try {
        const { attachment, upload } = await steps.createPostUrl(caseId, {
          ...(item.slotId === undefined ? {} : { id: item.slotId }),
          filename: item.file.name,
          filesize: item.file.size,
          attachment_name: item.attachmentName,
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
    [caseId, patch, remove],
  );

  const add = useCallback(
    (requests: UploadRequest[]) => {
      const fresh = requests.map((request): UploadItem => ({
        key: `upload-${++nextKey}`,
        file: request.file,
        attachmentName: request.attachmentName,
        slotId: request.slotId,
        percent: 0,
        state: 'uploading',
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
      remove(key);
    },
    [remove],
  );

  const retry = useCallback(
    (key: string) => {
      const item = items.find((candidate) => candidate.key === key);
      if (!item || item.state !== 'error') return;
      const again: UploadItem = { ...item, state: 'uploading', percent: 0, errorDetail: undefined };
      patch(key, again);
      void run(again);
    },
    [items, patch, run],
  );

  // Leaving the case stops what is still being sent (the user has confirmed leaving).
  useEffect(() => {
    const pending = aborts.current;
    const stopped = cancelled.current;
    return () => {
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
