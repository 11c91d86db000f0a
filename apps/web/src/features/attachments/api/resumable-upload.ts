import type { Attachment, UploadPartPlan } from '@dentflow/domain';
import { api } from '../../../lib/api-client';
import type { CreatePostUrlBody } from './create-post-url';
import { UploadAbortedError, UploadFailedError } from './upload-to-storage';

/** The server's side of a resumable upload (exams, planning files): start, parts, end, cancel. */
export const startResumableUpload = (caseId: number, body: CreatePostUrlBody) =>
  api.post<{ attachment: Attachment; upload: UploadPartPlan }>(
    `/attachment/resumable/${caseId}`,
    body,
  );

export const requestPartUrls = (attachmentId: number, partNumbers: number[]) =>
  api.post<{ parts: { partNumber: number; size: number; url: string }[] }>(
    `/attachment/resumable/${attachmentId}/partUrls`,
    { partNumbers },
  );

export const completeResumableUpload = (
  attachmentId: number,
  parts: { partNumber: number; etag: string }[],
) =>
  api.post<{ attachment: Attachment; url: string | null }>(
    `/attachment/resumable/${attachmentId}/complete`,
    { parts },
  );

export const abortResumableUpload = (attachmentId: number) =>
  api.delete<{ deleted: true }>(`/attachment/resumable/${attachmentId}`);

/**
 * PUTs one part to its signed URL (S3 or the app's part endpoint) and answers the ETag the store
 * gave it. XMLHttpRequest for the upload progress; no bearer token: the URL is the permission.
 */
export function sendPart(
  url: string,
  part: Blob,
  onProgress: (loaded: number) => void,
): { promise: Promise<string>; abort: () => void } {
  const xhr = new XMLHttpRequest();
  const promise = new Promise<string>((resolve, reject) => {
    xhr.upload.onprogress = (event) => onProgress(event.loaded);
    xhr.onload = () => {
      const etag = xhr.getResponseHeader('etag');
      if (xhr.status >= 200 && xhr.status < 300 && etag) resolve(etag);
      else reject(new UploadFailedError(xhr.status));
    };
    xhr.onerror = () => reject(new UploadFailedError(0));
    xhr.onabort = () => reject(new UploadAbortedError());
    xhr.open('PUT', url);
    // A slice has no type of its own; the part is raw bytes (S3 does not sign this header).
    xhr.setRequestHeader('content-type', 'application/octet-stream');
    xhr.send(part);
  });
  return { promise, abort: () => xhr.abort() };
}
