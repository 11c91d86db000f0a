import { Readable } from 'node:stream';
import {
  DeleteObjectCommand,
  GetObjectCommand,
  HeadObjectCommand,
  PutObjectCommand,
  S3Client,
  S3ServiceException,
} from '@aws-sdk/client-s3';
import { createPresignedPost } from '@aws-sdk/s3-presigned-post';
import { getSignedUrl } from '@aws-sdk/s3-request-presigner';
import { contentDisposition, DOWNLOAD_LINK_SECONDS, type Storage } from './storage';

export interface S3StorageOptions {
  bucket: string;
  endpoint?: string;
  region: string;
  accessKeyId?: string;
  secretAccessKey?: string;
  forcePathStyle: boolean;
}

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

    async head(key) {
      try {
        const result = await client.send(new HeadObjectCommand({ Bucket, Key: key }));
        return { size: result.ContentLength ?? 0 };
      } catch (error) {
        if (isNotFound(error)) return null;
        throw error;
      }
    },

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

    async put(key, body, contentType) {
      await client.send(
        new PutObjectCommand({ Bucket, Key: key, Body: body, ContentType: contentType }),
      );
    },

    async delete(key) {
      try {
        await client.send(new DeleteObjectCommand({ Bucket, Key: key }));
      } catch (error) {
        if (!isNotFound(error)) throw error;
      }
    },

    // Interrupted browser uploads never create an object on S3; nothing to sweep.
    async sweepTemporary() {
      return 0;
    },
  };
}
