import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { attachmentSchema, MAX_PART_URLS_PER_CALL, MAX_UPLOAD_PARTS } from '@dentflow/domain';
import type { Config } from '../../config';
import { responses } from '../../http/envelope';
import { caller } from '../../http/request-meta';
import {
  caseIdParams,
  idParams,
  uploadAnnouncementBody,
  uploadedSuccessResult,
} from './attachments.schemas';
import type { ResumableUploads } from './resumable-uploads.service';

const tags = ['attachments'];
const partNumber = z.number().int().min(1).max(MAX_UPLOAD_PARTS);

const resumableCreated = z.object({
  attachment: attachmentSchema.omit({ uploadPercent: true, error: true }),
  /** Every part but the last is `partSize` bytes; parts are numbered 1..partCount. */
  upload: z.object({ partSize: z.number().int(), partCount: z.number().int() }),
});

const partUrlsBody = z
  .object({ partNumbers: z.array(partNumber).min(1).max(MAX_PART_URLS_PER_CALL) })
  .strict();

const partUrlsResult = z.object({
  parts: z.array(
    z.object({ partNumber: z.number().int(), size: z.number().int(), url: z.string() }),
  ),
});

const completeBody = z
  .object({
    parts: z
      .array(z.object({ partNumber, etag: z.string().trim().min(1).max(200) }).strict())
      .min(1)
      .max(MAX_UPLOAD_PARTS),
  })
  .strict();

/** Resumable uploads (exams, planning): start, part URLs, complete, abort. */
export function registerResumableUploadRoutes(
  app: FastifyInstance,
  uploads: ResumableUploads,
  config: Config,
) {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const uploadLimit = { max: config.rateLimit.upload, timeWindow: config.rateLimit.windowMs };

  r.post('/api/v1/attachment/resumable/:caseId', {
    config: { permission: 'authenticated', rateLimit: uploadLimit },
    schema: {
      tags,
      summary:
        'Announce an exam or planning file sent in parts (attachment_name = bucket.kind); ' +
        'answers the uploading attachment and the part plan',
      params: caseIdParams,
      body: uploadAnnouncementBody,
      response: responses(resumableCreated),
    },
    handler: async (req) => ({
      obj: await uploads.create(caller(req), req.params.caseId, req.body),
    }),
  });

  r.post('/api/v1/attachment/resumable/:id/partUrls', {
    config: { permission: 'authenticated' },
    schema: {
      tags,
      summary:
        'Signed PUT URLs of some parts of the caller’s upload; each takes exactly its size and ' +
        'answers an ETag header',
      params: idParams,
      body: partUrlsBody,
      response: responses(partUrlsResult),
    },
    handler: async (req) => ({
      obj: await uploads.partUrls(caller(req), req.params.id, req.body.partNumbers),
    }),
  });

  r.post('/api/v1/attachment/resumable/:id/complete', {
    config: { permission: 'authenticated' },
    schema: {
      tags,
      summary:
        'Join every part (number and ETag) into the file, then confirm it as uploadedSuccess ' +
        'does; 409 UPLOAD_PARTS_MISSING while parts are missing',
      params: idParams,
      body: completeBody,
      response: responses(uploadedSuccessResult),
    },
    handler: async (req) => ({
      obj: await uploads.complete(caller(req), req.params.id, req.body.parts),
    }),
  });

  r.delete('/api/v1/attachment/resumable/:id', {
    config: { permission: 'authenticated' },
    schema: {
      tags,
      summary: 'Cancel the caller’s unconfirmed upload: its parts and its row are removed',
      params: idParams,
      response: responses(z.object({ deleted: z.literal(true) })),
    },
    handler: async (req) => ({ obj: await uploads.abort(caller(req), req.params.id) }),
  });
}
