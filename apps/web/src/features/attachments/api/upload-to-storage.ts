import type { PresignedUpload } from './create-post-url';

export class UploadAbortedError extends Error {
  constructor() {
    super('upload aborted');
    this.name = 'UploadAbortedError';
  }
}

export class UploadFailedError extends Error {
  constructor(readonly status: number) {
    super(`upload failed (${status})`);
    this.name = 'UploadFailedError';
  }
}

export interface StorageUpload {
  promise: Promise<void>;
  abort: () => void;
}

/**
 * Sends a file to the store with a presigned POST (S3, or the app's local endpoint that speaks
 * the same protocol): the policy fields first and the file LAST, as S3 requires. XMLHttpRequest
 * rather than fetch because only it reports upload progress. No bearer token: the policy is the
 * authorisation, and the URL may be another origin.
 */
export function uploadToStorage(
  upload: PresignedUpload,
  file: Blob,
  onProgress: (percent: number) => void,
): StorageUpload {
  const xhr = new XMLHttpRequest();
  const promise = new Promise<void>((resolve, reject) => {
    const form = new FormData();
    for (const [name, value] of Object.entries(upload.fields)) form.append(name, value);
    form.append('file', file);
    xhr.upload.onprogress = (event) => {
      if (event.lengthComputable && event.total > 0) {
        onProgress(Math.min(100, Math.floor((event.loaded / event.total) * 100)));
      }
    };
    xhr.onload = () => {
      if (xhr.status >= 200 && xhr.status < 300) {
        onProgress(100);
        resolve();
      } else reject(new UploadFailedError(xhr.status));
    };
    xhr.onerror = () => reject(new UploadFailedError(0));
    xhr.onabort = () => reject(new UploadAbortedError());
    xhr.open('POST', upload.url);
    xhr.send(form);
  });
  return { promise, abort: () => xhr.abort() };
}
