import type { Readable } from 'node:stream';

/**
 * The file store: local folder by default, any S3-compatible store with `S3_BUCKET`.
 * Browsers upload straight to the store with a presigned POST and download through short-lived
 * signed URLs; the server only signs, checks and cleans up.
 */
export interface PresignedPost {
  /** Where the browser posts the multipart form (relative to the app for local storage). */
  url: string;
  /** Form fields to send before the `file` field, as given. */
  fields: Record<string, string>;
}

export interface PresignedPostRequest {
  key: string;
  contentType: string;
  minSize: number;
  maxSize: number;
  expiresInSec: number;
}

/** One part the browser sent, as its store answered it (the ETag of its PUT). */
export interface UploadedPart {
  partNumber: number;
  etag: string;
}

/** Thrown by `completeMultipartUpload` when a named part was never received (or its ETag differs). */
export class MultipartPartsMissing extends Error {
  constructor() {
    super('multipart upload: parts missing');
    this.name = 'MultipartPartsMissing';
  }
}

/**
 * Resumable uploads (S3 multipart upload; the local store implements the same protocol): the
 * server starts an upload at a staging key, signs one PUT URL per part (that accepts exactly the
 * part's size), and completes it into one object at that key from the parts the browser names.
 */
export interface MultipartStore {
  createMultipartUpload(key: string, contentType: string): Promise<string>;
  /** A PUT URL for one part, valid `expiresInSec`; the body must be exactly `size` bytes. */
  signPartUrl(part: {
    key: string;
    uploadId: string;
    partNumber: number;
    /** The part's first byte in the file (the local store writes it there; S3 ignores it). */
    start: number;
    size: number;
    expiresInSec: number;
  }): Promise<string>;
  /** Joins the parts, in order, into the object at `key`; throws MultipartPartsMissing. */
  completeMultipartUpload(key: string, uploadId: string, parts: UploadedPart[]): Promise<void>;
  /** Drops the upload and its parts; an unknown upload is not an error. */
  abortMultipartUpload(key: string, uploadId: string): Promise<void>;
}

export interface Storage extends MultipartStore {
  readonly kind: 'local' | 's3';
  /** Origin the browser posts to and downloads from, for the CSP (null: the app itself). */
  readonly browserOrigin: string | null;
  createPresignedPost(request: PresignedPostRequest): Promise<PresignedPost>;
  /** The object's size, or null when it does not exist. */
  head(key: string): Promise<{ size: number } | null>;
  /** Up to `n` first bytes (fewer when the object is shorter). */
  readFirstBytes(key: string, n: number): Promise<Buffer>;
  /** A link that serves the object for DOWNLOAD_LINK_SECONDS, to whoever holds it. */
  signedDownloadUrl(
    key: string,
    options: { filename: string; contentType: string },
  ): Promise<string>;
  getObjectStream(key: string): Promise<Readable>;
  /**
   * Moves an uploaded object to a key no upload policy names (local: a rename; S3: a server-side
   * copy, then the old key is deleted) and answers its size there; null when nothing is at
   * `from`. What is read at `to` afterwards is exactly what was moved: a policy replayed later
   * only ever reaches `from`.
   */
  move(from: string, to: string): Promise<{ size: number } | null>;
  /** Server-made files (avatar thumbnails, seed samples). */
  put(key: string, body: Buffer, contentType: string): Promise<void>;
  /** Removes the object; a missing object is not an error. */
  delete(key: string): Promise<void>;
  /**
   * Removes upload leftovers older than `olderThanMs`: the local store's partial files, write
   * claims and multipart uploads untouched that long, S3 objects left under `UPLOAD_STAGING_PREFIX` (a policy replayed after its
   * upload was confirmed and moved). Must exceed the longest upload policy.
   */
  sweepTemporary(olderThanMs: number): Promise<number>;
}

/**
 * Upload policies only ever name keys under this prefix; `uploadedSuccess` moves a checked upload
 * out of it to the key the file is served from.
 */
export const UPLOAD_STAGING_PREFIX = 'uploads/';

/** The domain's signed download link lifetime (5 minutes), which both stores apply. */
export { DOWNLOAD_LINK_SECONDS } from '@dentflow/domain';

/** Keys are made by the server: `<prefix>/<id>/<random>` of safe characters only. */
const KEY_PATTERN = /^[a-z0-9-]+(\/[A-Za-z0-9_-]+)+$/;
export const isSafeKey = (key: string) => KEY_PATTERN.test(key) && key.length <= 200;

/**
 * `Content-Disposition` with an ASCII fallback and the RFC 5987 UTF-8 name, so a filename can
 * neither break the header nor be lost.
 */
export function contentDisposition(filename: string, type: 'inline' | 'attachment' = 'inline') {
  const fallback = filename.replace(/[^\x20-\x7e]|["\\%;]/g, '_').slice(0, 150) || 'file';
  const encoded = encodeURIComponent(filename).replace(
    /['()*]/g,
    (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`,
  );
  return `${type}; filename="${fallback}"; filename*=UTF-8''${encoded}`;
}
