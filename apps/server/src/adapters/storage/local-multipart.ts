import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import { createWriteStream } from 'node:fs';
import { mkdir, readdir, readFile, rename, rm, stat, unlink, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import type { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { flushFile, flushFolder } from './flush';
import { MultipartPartsMissing, type MultipartStore, type UploadedPart } from './storage';

/** The local store's part endpoint: PUT the part's bytes to `?t=<signed part grant>`. */
export const LOCAL_PART_PATH = '/api/v1/storage/part';

/** What a part URL allows: exactly `size` bytes written at `start` of one upload's file. */
export interface PartGrant {
  key: string;
  uploadId: string;
  partNumber: number;
  start: number;
  size: number;
  expiresAt: number;
}

export type PartFailure =
  'grant' | 'expired' | 'noUpload' | 'lengthRequired' | 'tooLarge' | 'tooSmall';

export class PartRejected extends Error {
  constructor(readonly reason: PartFailure) {
    super(`part rejected: ${reason}`);
    this.name = 'PartRejected';
  }
}

const UPLOAD_ID = /^[a-f0-9]{32}$/;
/**
 * How much of a part may wait in memory for the disk: the socket hands over 64 KiB at a time, and
 * letting up to 1 MiB gather turns sixteen writes (each a round trip to the file thread pool) into
 * one `writev`. Three parts in flight hold at most about 3 MiB.
 */
const WRITE_BATCH_BYTES = 1024 * 1024;
const b64 = (value: string) => Buffer.from(value).toString('base64url');

export interface LocalMultipart extends MultipartStore {
  verifyPartToken(token: string, now?: number): PartGrant;
  /**
   * Streams one part to its place in the upload's file; answers the part's ETag. `declaredBytes`
   * is the request's Content-Length, which a part must give (browsers and S3 clients always do).
   */
  receivePart(grant: PartGrant, body: Readable, declaredBytes: number | undefined): Promise<string>;
  sweep(olderThanMs: number): Promise<number>;
}

/**
 * Multipart uploads of the local store. Each upload is a folder `.multipart/<uploadId>` with the
 * target key, one file the size of the upload, and one receipt per part received whole. A part is
 * streamed straight to its offset in that file (no part is held in memory and nothing is copied on
 * completion); its receipt is written only after its last byte, and removed before a part is
 * written again, so a part cut short is never counted. Completion renames the file to the key.
 * Each part is flushed to the disk before its receipt is written, and the rename before
 * completion answers (see `flush.ts`).
 */
export function createLocalMultipart(options: {
  root: string;
  secret: string;
  pathOf: (key: string) => string;
}): LocalMultipart {
  const base = join(options.root, '.multipart');
  const signingKey = createHmac('sha256', options.secret)
    .update('dentflow-storage-part-v1')
    .digest();
  const sign = (payload: string) =>
    createHmac('sha256', signingKey).update(payload).digest('base64url');
  const folderOf = (uploadId: string) => {
    if (!UPLOAD_ID.test(uploadId)) throw new PartRejected('grant');
    return join(base, uploadId);
  };
  const dataOf = (uploadId: string) => join(folderOf(uploadId), 'data');
  const receiptOf = (uploadId: string, partNumber: number) =>
    join(folderOf(uploadId), `part-${partNumber}`);
  // The ETag proves the receipt: a part's ETag is only known to whoever sent it whole.
  const etagOf = (grant: PartGrant, nonce: string) =>
    `"${sign(`${grant.uploadId}:${grant.partNumber}:${grant.size}:${nonce}`).slice(0, 32)}"`;

  /** The upload's target key, or null when no such upload is open. */
  async function keyOf(uploadId: string): Promise<string | null> {
    try {
      return await readFile(join(folderOf(uploadId), 'key'), 'utf8');
    } catch {
      return null;
    }
  }

  return {
    async createMultipartUpload(key) {
      options.pathOf(key);
      const uploadId = randomBytes(16).toString('hex');
      const folder = folderOf(uploadId);
      await mkdir(folder, { recursive: true });
      await writeFile(dataOf(uploadId), '', { flag: 'wx' });
      await writeFile(join(folder, 'key'), key, { flag: 'wx' });
      return uploadId;
    },

    async signPartUrl({ key, uploadId, partNumber, size, start, expiresInSec }) {
      const grant: PartGrant = {
        key,
        uploadId,
        partNumber,
        start,
        size,
        expiresAt: Date.now() + expiresInSec * 1000,
      };
      const payload = b64(JSON.stringify(grant));
      return `${LOCAL_PART_PATH}?t=${payload}.${sign(payload)}`;
    },

    verifyPartToken(token, now = Date.now()) {
      const [payload = '', signature = '', ...rest] = token.split('.');
      const expected = Buffer.from(sign(payload));
      const given = Buffer.from(signature);
      if (
        rest.length > 0 ||
        !payload ||
        given.length !== expected.length ||
        !timingSafeEqual(given, expected)
      ) {
        throw new PartRejected('grant');
      }
      const grant = JSON.parse(Buffer.from(payload, 'base64url').toString('utf8')) as PartGrant;
      if (!(grant.expiresAt > now)) throw new PartRejected('expired');
      return grant;
    },

    async receivePart(grant, body, declaredBytes) {
      // The HTTP parser never hands over more body than its Content-Length, so checking the
      // declared length is the size limit: no counting stage between the socket and the file.
      if (declaredBytes === undefined) throw new PartRejected('lengthRequired');
      if (declaredBytes > grant.size) throw new PartRejected('tooLarge');
      if (declaredBytes < grant.size) throw new PartRejected('tooSmall');
      // No lookup of the upload first: the signed grant names it, and an upload completed or
      // aborted has no `data` file to open (ENOENT below). Each file operation here waits for the
      // file thread pool, which the parts in flight keep busy with their writes.
      const receipt = receiptOf(grant.uploadId, grant.partNumber);
      await unlink(receipt).catch((error: NodeJS.ErrnoException) => {
        if (error.code !== 'ENOENT') throw error;
      });
      const data = dataOf(grant.uploadId);
      const file = createWriteStream(data, {
        flags: 'r+',
        start: grant.start,
        highWaterMark: WRITE_BATCH_BYTES,
      });
      // An upload completed or aborted, before this part or while it streamed, has no file.
      const noUpload = (error: NodeJS.ErrnoException) => {
        throw error.code === 'ENOENT' ? new PartRejected('noUpload') : error;
      };
      await pipeline(body, file).catch(noUpload);
      if (file.bytesWritten !== grant.size) throw new PartRejected('tooSmall');
      // The part's bytes reach the disk before its receipt can: a receipt that outlived a crash
      // without them would let the upload complete with a hole in the file.
      await flushFile(data).catch(noUpload);
      const etag = etagOf(grant, randomBytes(8).toString('hex'));
      await writeFile(receipt, etag).catch(noUpload);
      return etag;
    },

    async completeMultipartUpload(key, uploadId, parts: UploadedPart[]) {
      if ((await keyOf(uploadId)) !== key) throw new MultipartPartsMissing();
      const receipts = await Promise.all(
        parts.map((part) => readFile(receiptOf(uploadId, part.partNumber), 'utf8').catch(() => '')),
      );
      if (parts.some((part, i) => !receipts[i] || receipts[i] !== part.etag)) {
        throw new MultipartPartsMissing();
      }
      const target = options.pathOf(key);
      await mkdir(dirname(target), { recursive: true });
      await rename(dataOf(uploadId), target);
      await flushFolder(dirname(target));
      await rm(folderOf(uploadId), { recursive: true, force: true });
    },

    async abortMultipartUpload(key, uploadId) {
      if (!UPLOAD_ID.test(uploadId) || (await keyOf(uploadId)) !== key) return;
      await rm(folderOf(uploadId), { recursive: true, force: true });
    },

    /** Removes uploads nothing was written to for `olderThanMs` (receipts touch the folder). */
    async sweep(olderThanMs) {
      let names: string[];
      try {
        names = await readdir(base);
      } catch {
        return 0;
      }
      let removed = 0;
      for (const name of names) {
        const folder = join(base, name);
        const [own, data] = await Promise.all([
          stat(folder).catch(() => null),
          stat(join(folder, 'data')).catch(() => null),
        ]);
        const touched = Math.max(own?.mtimeMs ?? 0, data?.mtimeMs ?? 0);
        if (own && Date.now() - touched > olderThanMs) {
          await rm(folder, { recursive: true, force: true });
          removed++;
        }
      }
      return removed;
    },
  };
}
