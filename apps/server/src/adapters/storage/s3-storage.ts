import { Readable } from 'node:stream';
import {
  AbortMultipartUploadCommand,
  CompleteMultipartUploadCommand,
  CopyObjectCommand,
  CreateMultipartUploadCommand,
  DeleteObjectCommand,
  GetObjectCommand,
  HeadObjectCommand,
  ListObjectsV2Command,
  PutObjectCommand,
  S3Client,
  S3ServiceException,
  UploadPartCommand,
} from '@aws-sdk/client-s3';
import { createPresignedPost } from '@aws-sdk/s3-presigned-post';
import { getSignedUrl } from '@aws-sdk/s3-request-presigner';
import {
  contentDisposition,
  DOWNLOAD_LINK_SECONDS,
  MultipartPartsMissing,
  UPLOAD_STAGING_PREFIX,
  type Storage,
} from './storage';

export interface S3StorageOptions {
  bucket: string;
  endpoint?: string;
  region: string;
  accessKeyId?: string;
  secretAccessKey?: string;
  forcePathStyle: boolean;
}

/** S3's answers to a completion whose parts are not all there (or too small, or out of order). */
const PARTS_MISSING = new Set([
  'InvalidPart',
  'InvalidPartOrder',
  'NoSuchUpload',
  'EntityTooSmall',
]);

const isNotFound = (error: unknown) =>
  error instanceof S3ServiceException &&
  (error.name === 'NotFound' ||
    error.name === 'NoSuchKey' ||
    error.$metadata.httpStatusCode === 404);

/** Any S3-compatible store: presigned POST for uploads, presigned GET for downloads. */
export function createS3Storage(options: S3StorageOptions): Storage & { client: S3Client } {
  const client = new S3Client({
    region: options.region,
    endpoint: options.endpoint,
    forcePathStyle: options.forcePathStyle,
    credentials:
      options.accessKeyId && options.secretAccessKey
        ? { accessKeyId: options.accessKeyId, secretAccessKey: options.secretAccessKey }
        : undefined,
  });
  const Bucket = options.bucket;

  async function head(key: string) {
    try {
      const result = await client.send(new HeadObjectCommand({ Bucket, Key: key }));
      return { size: result.ContentLength ?? 0 };
    } catch (error) {
      if (isNotFound(error)) return null;
      throw error;
    }
  }

  async function remove(key: string) {
    try {
      await client.send(new DeleteObjectCommand({ Bucket, Key: key }));
    } catch (error) {
      if (!isNotFound(error)) throw error;
    }
  }

  return {
    kind: 's3',
    client,
    browserOrigin: options.endpoint
      ? new URL(options.endpoint).origin
      : `https://${options.bucket}.s3.${options.region}.amazonaws.com`,

    async createPresignedPost({ key, contentType, minSize, maxSize, expiresInSec }) {
      const { url, fields } = await createPresignedPost(client, {
        Bucket,
        Key: key,
        Conditions: [
          ['content-length-range', minSize, maxSize],
          ['eq', '$Content-Type', contentType],
          ['eq', '$key', key],
        ],
        Fields: { 'Content-Type': contentType },
        Expires: expiresInSec,
      });
      return { url, fields };
    },

    head,

    async readFirstBytes(key, n) {
      const result = await client.send(
        new GetObjectCommand({ Bucket, Key: key, Range: `bytes=0-${Math.max(0, n - 1)}` }),
      );
      if (!result.Body) return Buffer.alloc(0);
      const bytes = Buffer.from(await result.Body.transformToByteArray());
      // A store that ignores Range sends everything; keep only what was asked.
      return bytes.subarray(0, n);
    },

    async signedDownloadUrl(key, { filename, contentType }) {
      return getSignedUrl(
        client,
        new GetObjectCommand({
          Bucket,
          Key: key,
          ResponseContentDisposition: contentDisposition(filename),
          ResponseContentType: contentType,
        }),
        { expiresIn: DOWNLOAD_LINK_SECONDS },
      );
    },

    async getObjectStream(key) {
      const result = await client.send(new GetObjectCommand({ Bucket, Key: key }));
      if (!result.Body) throw new Error(`empty body for ${key}`);
      return result.Body as Readable;
    },

    // A presigned POST can be replayed until it expires and S3 has no one-shot condition for
    // it, so the checked upload is copied out of the policy's reach. The copy is a snapshot:
    // what is read at `to` is what gets served, whatever reaches `from` later.
    async move(from, to) {
      try {
        await client.send(
          new CopyObjectCommand({ Bucket, Key: to, CopySource: `${Bucket}/${encodeURI(from)}` }),
        );
      } catch (error) {
        if (isNotFound(error)) return null;
        throw error;
      }
      await remove(from);
      return head(to);
    },

    async put(key, body, contentType) {
      await client.send(
        new PutObjectCommand({ Bucket, Key: key, Body: body, ContentType: contentType }),
      );
    },

    delete: remove,

    async createMultipartUpload(key, contentType) {
      const result = await client.send(
        new CreateMultipartUploadCommand({ Bucket, Key: key, ContentType: contentType }),
      );
      if (!result.UploadId) throw new Error(`no upload id for ${key}`);
      return result.UploadId;
    },

    // The part's length is signed: the URL takes exactly the planned size and nothing else.
    async signPartUrl({ key, uploadId, partNumber, size, expiresInSec }) {
      return getSignedUrl(
        client,
        new UploadPartCommand({
          Bucket,
          Key: key,
          UploadId: uploadId,
          PartNumber: partNumber,
          ContentLength: size,
        }),
        { expiresIn: expiresInSec, signableHeaders: new Set(['content-length']) },
      );
    },

    async completeMultipartUpload(key, uploadId, parts) {
      try {
        await client.send(
          new CompleteMultipartUploadCommand({
            Bucket,
            Key: key,
            UploadId: uploadId,
            MultipartUpload: {
              Parts: parts.map((part) => ({ PartNumber: part.partNumber, ETag: part.etag })),
            },
          }),
        );
      } catch (error) {
        if (error instanceof S3ServiceException && PARTS_MISSING.has(error.name)) {
          throw new MultipartPartsMissing();
        }
        throw error;
      }
    },

    async abortMultipartUpload(key, uploadId) {
      try {
        await client.send(
          new AbortMultipartUploadCommand({ Bucket, Key: key, UploadId: uploadId }),
        );
      } catch (error) {
        if (!isNotFound(error)) throw error;
      }
    },

    // Interrupted presigned POSTs never create an object on S3; a policy replayed after its
    // upload was moved leaves one under the staging prefix. Multipart uploads never completed
    // are aborted by the cleanup from their rows, and by the bucket's lifecycle rule
    // (AbortIncompleteMultipartUpload) for any the rows lost.
    async sweepTemporary(olderThanMs) {
      const before = Date.now() - olderThanMs;
      let removed = 0;
      let ContinuationToken: string | undefined;
      do {
        const page = await client.send(
          new ListObjectsV2Command({ Bucket, Prefix: UPLOAD_STAGING_PREFIX, ContinuationToken }),
        );
        for (const object of page.Contents ?? []) {
          if (object.Key && object.LastModified && object.LastModified.getTime() < before) {
            await remove(object.Key);
            removed++;
          }
        }
        ContinuationToken = page.IsTruncated ? page.NextContinuationToken : undefined;
      } while (ContinuationToken);
      return removed;
    },
  };
}
