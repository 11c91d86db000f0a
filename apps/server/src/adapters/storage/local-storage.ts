import { createHash, createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import { createReadStream, createWriteStream } from 'node:fs';
import { mkdir, open, readdir, rename, rm, stat, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { Transform, type Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { flushFile, flushFolder } from './flush';
import { createLocalMultipart, type LocalMultipart } from './local-multipart';
import {
  DOWNLOAD_LINK_SECONDS,
  isSafeKey,
  type PresignedPost,
  type PresignedPostRequest,
  type Storage,
} from './storage';

/** The app's own upload endpoint: the same form protocol as an S3 presigned POST. */
export const LOCAL_UPLOAD_PATH = '/api/v1/storage/upload';
export const LOCAL_DOWNLOAD_PATH = '/api/v1/storage/download';
/** The signature field of the local policy (S3 has its own x-amz-* fields). */
export const LOCAL_SIGNATURE_FIELD = 'x-dentflow-signature';

export interface UploadPolicy {
  key: string;
  contentType: string;
  minSize: number;
  maxSize: number;
  /** Unix time in ms after which the policy is refused. */
  expiresAt: number;
}

export interface DownloadGrant {
  key: string;
  filename: string;
  contentType: string;
  expiresAt: number;
}

export type UploadFailure =
  'policy' | 'expired' | 'key' | 'contentType' | 'tooLarge' | 'tooSmall' | 'alreadyReceived';

export class UploadRejected extends Error {
  constructor(readonly reason: UploadFailure) {
    super(`upload rejected: ${reason}`);
    this.name = 'UploadRejected';
  }
}

const exists = (path: string) =>
  stat(path).then(
    () => true,
    () => false,
  );

const b64 = (value: string | Buffer) => Buffer.from(value).toString('base64url');

/** Signs and checks small JSON documents (upload policies, download grants) with one HMAC key. */
function createSigner(secret: string, purpose: string) {
  // A key of its own, derived from the app secret: a storage token is never a valid JWT and back.
  const key = createHmac('sha256', secret).update(`dentflow-storage-${purpose}-v1`).digest();
  const sign = (payload: string) => createHmac('sha256', key).update(payload).digest('base64url');
  return {
    sign,
    verify(payload: string, signature: string): boolean {
      const expected = Buffer.from(sign(payload));
      const given = Buffer.from(signature);
      return given.length === expected.length && timingSafeEqual(given, expected);
    },
  };
}

export interface LocalStorage
  extends Storage, Pick<LocalMultipart, 'verifyPartToken' | 'receivePart'> {
  readonly kind: 'local';
  /** Checks the signed form fields of an upload; throws UploadRejected. */
  verifyUploadFields(fields: Record<string, string>, now?: number): UploadPolicy;
  /**
   * Streams the file to a temporary file, enforcing the policy's size range without buffering,
   * flushes it to the disk and renames it into place (the folder flushed too). One shot: the
   * first complete write of a key wins and every later one is refused ('alreadyReceived'), so a
   * policy cannot be replayed to change a file after its bytes were checked. Throws
   * UploadRejected (the partial file is removed).
   */
  receiveUpload(policy: UploadPolicy, file: Readable): Promise<number>;
  /** The grant of a valid, unexpired download token, or null. */
  verifyDownloadToken(token: string, now?: number): DownloadGrant | null;
}

export function createLocalStorage(options: { rootDir: string; secret: string }): LocalStorage {
  const root = options.rootDir;
  const tmpDir = join(root, '.tmp');
  // One empty file per key written through a policy; kept after the object is moved or deleted,
  // until the sweep (far beyond the policy's lifetime). Dot folders never collide with keys.
  const claimsDir = join(root, '.claims');
  const uploads = createSigner(options.secret, 'upload');
  const downloads = createSigner(options.secret, 'download');

  function pathOf(key: string): string {
    if (!isSafeKey(key)) throw new UploadRejected('key');
    return join(root, ...key.split('/'));
  }

  const multipart = createLocalMultipart({ root, secret: options.secret, pathOf });

  const claimOf = (key: string) => join(claimsDir, createHash('sha256').update(key).digest('hex'));

  /** Removes the files of `dir` last modified more than `olderThanMs` ago. */
  async function sweepOlderThan(dir: string, olderThanMs: number): Promise<number> {
    let names: string[];
    try {
      names = await readdir(dir);
    } catch {
      return 0;
    }
    let removed = 0;
    for (const name of names) {
      const path = join(dir, name);
      const info = await stat(path).catch(() => null);
      if (info && Date.now() - info.mtimeMs > olderThanMs) {
        await rm(path, { force: true });
        removed++;
      }
    }
    return removed;
  }

  return {
    kind: 'local',
    browserOrigin: null,

    async createPresignedPost(request: PresignedPostRequest): Promise<PresignedPost> {
      const policy: UploadPolicy = {
        key: request.key,
        contentType: request.contentType,
        minSize: request.minSize,
        maxSize: request.maxSize,
        expiresAt: Date.now() + request.expiresInSec * 1000,
      };
      const encoded = b64(JSON.stringify(policy));
      return {
        url: LOCAL_UPLOAD_PATH,
        fields: {
          key: request.key,
          'Content-Type': request.contentType,
          policy: encoded,
          [LOCAL_SIGNATURE_FIELD]: uploads.sign(encoded),
        },
      };
    },

    verifyUploadFields(fields, now = Date.now()): UploadPolicy {
      const encoded = fields.policy ?? '';
      const signature = fields[LOCAL_SIGNATURE_FIELD] ?? '';
      if (!encoded || !signature || !uploads.verify(encoded, signature)) {
        throw new UploadRejected('policy');
      }
      let policy: UploadPolicy;
      try {
        policy = JSON.parse(Buffer.from(encoded, 'base64url').toString('utf8')) as UploadPolicy;
      } catch {
        throw new UploadRejected('policy');
      }
      if (!(policy.expiresAt > now)) throw new UploadRejected('expired');
      if (fields.key !== policy.key || !isSafeKey(policy.key)) throw new UploadRejected('key');
      if (fields['Content-Type'] !== policy.contentType) throw new UploadRejected('contentType');
      return policy;
    },

    async receiveUpload(policy: UploadPolicy, file: Readable): Promise<number> {
      const target = pathOf(policy.key);
      const claim = claimOf(policy.key);
      if (await exists(claim)) {
        // Refused before a byte is written; the rest of the body is drained.
        file.resume();
        throw new UploadRejected('alreadyReceived');
      }
      await mkdir(tmpDir, { recursive: true });
      const temp = join(tmpDir, `${Date.now()}-${randomBytes(8).toString('hex')}`);
      let size = 0;
      const limiter = new Transform({
        transform(chunk: Buffer, _encoding, callback) {
          size += chunk.length;
          if (size > policy.maxSize) callback(new UploadRejected('tooLarge'));
          else callback(null, chunk);
        },
      });
      try {
        await pipeline(file, limiter, createWriteStream(temp, { flags: 'wx' }));
        if (size < policy.minSize) throw new UploadRejected('tooSmall');
        await flushFile(temp);
        // The claim is taken only by a complete write, atomically: of two concurrent writes
        // exactly one creates it.
        await mkdir(claimsDir, { recursive: true });
        await writeFile(claim, '', { flag: 'wx' }).catch((error: NodeJS.ErrnoException) => {
          throw error.code === 'EEXIST' ? new UploadRejected('alreadyReceived') : error;
        });
        await mkdir(dirname(target), { recursive: true });
        await rename(temp, target);
        await flushFolder(dirname(target));
        return size;
      } catch (error) {
        // Drain what is left so the request ends cleanly; the client gets the error.
        file.resume();
        await rm(temp, { force: true });
        throw error;
      }
    },

    async head(key) {
      try {
        const info = await stat(pathOf(key));
        return info.isFile() ? { size: info.size } : null;
      } catch {
        return null;
      }
    },

    async readFirstBytes(key, n) {
      const handle = await open(pathOf(key), 'r');
      try {
        const buffer = Buffer.alloc(n);
        const { bytesRead } = await handle.read(buffer, 0, n, 0);
        return buffer.subarray(0, bytesRead);
      } finally {
        await handle.close();
      }
    },

    async signedDownloadUrl(key, { filename, contentType }) {
      const grant: DownloadGrant = {
        key,
        filename,
        contentType,
        expiresAt: Date.now() + DOWNLOAD_LINK_SECONDS * 1000,
      };
      const payload = b64(JSON.stringify(grant));
      return `${LOCAL_DOWNLOAD_PATH}?t=${payload}.${downloads.sign(payload)}`;
    },

    verifyDownloadToken(token, now = Date.now()) {
      const [payload = '', signature = '', ...rest] = token.split('.');
      if (rest.length > 0 || !payload || !downloads.verify(payload, signature)) return null;
      try {
        const grant = JSON.parse(
          Buffer.from(payload, 'base64url').toString('utf8'),
        ) as DownloadGrant;
        return grant.expiresAt > now && isSafeKey(grant.key) ? grant : null;
      } catch {
        return null;
      }
    },

    async getObjectStream(key) {
      const path = pathOf(key);
      await stat(path);
      return createReadStream(path);
    },

    async move(from, to) {
      const target = pathOf(to);
      await mkdir(dirname(target), { recursive: true });
      try {
        await rename(pathOf(from), target);
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code === 'ENOENT') return null;
        throw error;
      }
      await flushFolder(dirname(target));
      return { size: (await stat(target)).size };
    },

    async put(key, body) {
      const target = pathOf(key);
      await mkdir(dirname(target), { recursive: true });
      const temp = `${target}.${randomBytes(6).toString('hex')}.part`;
      await writeFile(temp, body);
      await flushFile(temp);
      await rename(temp, target);
      await flushFolder(dirname(target));
    },

    async delete(key) {
      if (!isSafeKey(key)) return;
      await rm(pathOf(key), { force: true });
    },

    createMultipartUpload: multipart.createMultipartUpload,
    signPartUrl: multipart.signPartUrl,
    verifyPartToken: multipart.verifyPartToken,
    receivePart: multipart.receivePart,
    completeMultipartUpload: multipart.completeMultipartUpload,
    abortMultipartUpload: multipart.abortMultipartUpload,

    async sweepTemporary(olderThanMs) {
      await sweepOlderThan(claimsDir, olderThanMs);
      const uploads = await multipart.sweep(olderThanMs);
      return uploads + (await sweepOlderThan(tmpDir, olderThanMs));
    },
  };
}
