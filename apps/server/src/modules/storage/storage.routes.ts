import type { Readable } from 'node:stream';
import multipart from '@fastify/multipart';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  LOCAL_DOWNLOAD_PATH,
  LOCAL_UPLOAD_PATH,
  UploadRejected,
  type LocalStorage,
  type UploadFailure,
} from '../../adapters/storage/local-storage';
import {
  contentDisposition,
  DOWNLOAD_LINK_SECONDS,
  type Storage,
} from '../../adapters/storage/storage';
import {
  LOCAL_PART_PATH,
  PartRejected,
  type PartFailure,
} from '../../adapters/storage/local-multipart';
import { AppError } from '../../http/app-error';
import { multipartParts, multipartRefusal } from '../../http/multipart';

/** The largest file any kind accepts (exams and planning: 1 GB); each policy narrows it. */
export const MAX_UPLOAD_BYTES = 1024 * 1024 * 1024;

const REJECTIONS: Record<UploadFailure, () => AppError> = {
  policy: () => new AppError(403, 'UPLOAD_POLICY_INVALID'),
  key: () => new AppError(403, 'UPLOAD_POLICY_INVALID'),
  contentType: () => new AppError(403, 'UPLOAD_POLICY_INVALID'),
  expired: () => new AppError(403, 'UPLOAD_POLICY_EXPIRED'),
  tooLarge: () => new AppError(413, 'FILE_TOO_LARGE'),
  tooSmall: () => new AppError(400, 'UPLOAD_SIZE_MISMATCH'),
  alreadyReceived: () => new AppError(409, 'UPLOAD_ALREADY_RECEIVED'),
};

const PART_REJECTIONS: Record<PartFailure, () => AppError> = {
  grant: () => new AppError(403, 'UPLOAD_POLICY_INVALID'),
  expired: () => new AppError(403, 'UPLOAD_POLICY_EXPIRED'),
  noUpload: () => new AppError(404, 'UPLOAD_NOT_FOUND'),
  lengthRequired: () => new AppError(411, 'UPLOAD_SIZE_MISMATCH'),
  tooLarge: () => new AppError(413, 'FILE_TOO_LARGE'),
  tooSmall: () => new AppError(400, 'UPLOAD_SIZE_MISMATCH'),
};

const asAppError = (error: unknown) =>
  error instanceof UploadRejected
    ? REJECTIONS[error.reason]()
    : error instanceof PartRejected
      ? PART_REJECTIONS[error.reason]()
      : error;

const isLocal = (storage: Storage): storage is LocalStorage => storage.kind === 'local';

/**
 * Registers @fastify/multipart in a scope of its own with the routes that take files: the local
 * store's upload endpoint and download links, plus `extra` (the avatar upload).
 */
export async function registerStorageRoutes(
  app: FastifyInstance,
  storage: Storage,
  extra: (scope: FastifyInstance) => void,
) {
  await app.register(async (scope) => {
    await scope.register(multipart, {
      limits: { fileSize: MAX_UPLOAD_BYTES, files: 1, fields: 20, fieldSize: 16 * 1024, parts: 25 },
    });
    const r = scope.withTypeProvider<ZodTypeProvider>();

    r.post(LOCAL_UPLOAD_PATH, {
      // Anyone may post, but only with a valid signed policy from createPostUrl (checked before
      // a byte of the file is written), and only once per key: the first complete file wins.
      config: { permission: 'public' },
      schema: {
        tags: ['storage'],
        summary:
          'Local store: the presigned POST target (fields key, Content-Type, policy, signature, ' +
          'then file). 204 when stored; 409 UPLOAD_ALREADY_RECEIVED when the key was already written',
        consumes: ['multipart/form-data'],
      },
      handler: async (req, reply) => {
        if (!isLocal(storage)) throw new AppError(404, 'NOT_FOUND');
        if (!req.isMultipart()) throw new AppError(415, 'UNSUPPORTED_MEDIA_TYPE');
        const fields: Record<string, string> = {};
        let stored = false;
        // The file's stream failing is the body's fault (cut short), not the disk's.
        let file: Readable | undefined;
        try {
          for await (const part of multipartParts(req)) {
            if (part.type === 'field') {
              if (typeof part.value === 'string') fields[part.fieldname] = part.value;
              continue;
            }
            // As on S3: the file comes last; anything after it is ignored.
            if (part.fieldname !== 'file' || stored) {
              part.file.resume();
              continue;
            }
            const policy = storage.verifyUploadFields(fields);
            file = part.file;
            await storage.receiveUpload(policy, part.file);
            stored = true;
          }
        } catch (error) {
          throw file && error === file.errored ? multipartRefusal(error) : asAppError(error);
        }
        if (!stored) throw new AppError(400, 'BAD_REQUEST');
        return reply.status(204).send();
      },
    });

    r.get(LOCAL_DOWNLOAD_PATH, {
      // The signed, short-lived token is the permission (issued after the access check).
      config: { permission: 'public' },
      schema: {
        tags: ['storage'],
        summary: 'Local store: a file by its signed download link',
        querystring: z.object({ t: z.string().min(1).max(4000) }),
      },
      handler: async (req, reply) => {
        if (!isLocal(storage)) throw new AppError(404, 'NOT_FOUND');
        const grant = storage.verifyDownloadToken(req.query.t);
        if (!grant) throw new AppError(403, 'INVALID_TOKEN');
        const head = await storage.head(grant.key);
        if (!head) throw new AppError(404, 'NOT_FOUND');
        const stream = await storage.getObjectStream(grant.key);
        return reply
          .type(grant.contentType)
          .header('content-length', head.size)
          .header('content-disposition', contentDisposition(grant.filename))
          .header('cache-control', `private, max-age=${DOWNLOAD_LINK_SECONDS}`)
          .send(stream);
      },
    });

    extra(scope);
  });

  // A part's body is any bytes: streamed to disk as it arrives, never parsed or buffered.
  await app.register(async (scope) => {
    scope.removeAllContentTypeParsers();
    scope.addContentTypeParser('*', (_req, payload, done) => done(null, payload));
    scope.withTypeProvider<ZodTypeProvider>().put(LOCAL_PART_PATH, {
      // The signed, short-lived part grant (issued after the access check) is the permission.
      config: { permission: 'public' },
      schema: {
        tags: ['storage'],
        summary:
          'Local store: one part of a resumable upload (the body is the part, exactly its ' +
          'planned size); answers its ETag, to name it when completing',
        querystring: z.object({ t: z.string().min(1).max(4000) }),
      },
      handler: async (req, reply) => {
        if (!isLocal(storage)) throw new AppError(404, 'NOT_FOUND');
        const body = req.body as Readable | undefined;
        let etag: string;
        try {
          const grant = storage.verifyPartToken(req.query.t);
          if (!body) throw new PartRejected('tooSmall');
          const declared = req.headers['content-length'];
          etag = await storage.receivePart(grant, body, declared ? Number(declared) : undefined);
        } catch (error) {
          body?.resume();
          throw body?.errored && error === body.errored
            ? new AppError(400, 'BAD_REQUEST')
            : asAppError(error);
        }
        return reply.header('etag', etag).status(200).send();
      },
    });
  });
}
