import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import type { Config } from '../../config';
import { responses } from '../../http/envelope';
import { caller } from '../../http/request-meta';
import {
  attachmentWithActions,
  caseAttachmentsResult,
  caseIdParams,
  createPostUrlResult,
  deleteResult,
  idParams,
  requestChangeBody,
  uploadAnnouncementBody,
  uploadedSuccessResult,
} from './attachments.schemas';
import type { AttachmentsService } from './attachments.service';

const tags = ['attachments'];

/** Attachment calls; per-record rules in the service. */
export function registerAttachmentRoutes(
  app: FastifyInstance,
  attachments: AttachmentsService,
  config: Config,
) {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const uploadLimit = { max: config.rateLimit.upload, timeWindow: config.rateLimit.windowMs };

  r.get('/api/v1/attachment/case/:caseId/list', {
    config: { permission: 'authenticated' },
    schema: {
      tags,
      summary:
        "A case's files the caller sees, each with the actions the caller may do now, and the " +
        'empty required slots',
      params: caseIdParams,
      response: responses(caseAttachmentsResult),
    },
    handler: async (req) => ({ obj: await attachments.listCase(caller(req), req.params.caseId) }),
  });

  r.post('/api/v1/attachment/createPostUrl/:caseId', {
    config: { permission: 'authenticated', rateLimit: uploadLimit },
    schema: {
      tags,
      summary:
        'Announce a case file (attachment_name = bucket.kind); answers the uploading attachment ' +
        'and the presigned POST (url + fields; send the file last, in a `file` field)',
      params: caseIdParams,
      body: uploadAnnouncementBody,
      response: responses(createPostUrlResult),
    },
    handler: async (req) => ({
      obj: await attachments.createPostUrl(caller(req), req.params.caseId, req.body),
    }),
  });

  r.post('/api/v1/attachment/create/temp', {
    config: { permission: 'authenticated', rateLimit: uploadLimit },
    schema: {
      tags,
      summary:
        'Announce a file not attached to a case (avatar, productThumbnail); removed after 24 h',
      body: uploadAnnouncementBody,
      response: responses(createPostUrlResult),
    },
    handler: async (req) => ({ obj: await attachments.createTemp(caller(req), req.body) }),
  });

  r.get('/api/v1/attachment/uploadedSuccess/:id', {
    config: { permission: 'authenticated' },
    schema: {
      tags,
      summary:
        'Confirm an upload: size and content are checked, then the file joins the case ' +
        '(a mismatch discards it)',
      params: idParams,
      response: responses(uploadedSuccessResult),
    },
    handler: async (req) => ({
      obj: await attachments.uploadedSuccess(caller(req), req.params.id),
    }),
  });

  r.get('/api/v1/attachment/:id/get', {
    config: { permission: 'authenticated' },
    schema: {
      tags,
      summary: 'One attachment with its short-lived download url and the allowed actions',
      params: idParams,
      response: responses(attachmentWithActions),
    },
    handler: async (req) => ({ obj: await attachments.get(caller(req), req.params.id) }),
  });

  r.get('/api/v1/attachment/:id/download', {
    config: { permission: 'authenticated' },
    schema: {
      tags,
      summary: 'Redirect (302) to a short-lived signed URL of the file',
      params: idParams,
    },
    handler: async (req, reply) =>
      reply.redirect(await attachments.downloadUrl(caller(req), req.params.id), 302),
  });

  const moves = [
    ['publish', 'publish', 'Publish a planning file to the client (planner, supervisor)'],
    ['unpublish', 'unpublish', 'Take a published planning file back (planner, supervisor)'],
    ['approve', 'approve', 'Approve a published planning file (case owner, supervisor)'],
    [
      'cancelRequest4Change',
      'cancelChangeRequest',
      'Cancel the change request of a planning file (case owner, supervisor)',
    ],
  ] as const;
  for (const [path, action, summary] of moves) {
    r.get(`/api/v1/attachment/:id/${path}`, {
      config: { permission: 'authenticated' },
      schema: {
        tags,
        summary,
        params: idParams,
        response: responses(attachmentWithActions),
      },
      handler: async (req) => ({
        obj: await attachments.move(caller(req), req.params.id, action),
      }),
    });
  }

  r.post('/api/v1/attachment/:id/request4Change', {
    config: { permission: 'authenticated' },
    schema: {
      tags,
      summary: 'Ask for a change of a published planning file (case owner, supervisor)',
      params: idParams,
      body: requestChangeBody,
      response: responses(attachmentWithActions),
    },
    handler: async (req) => ({
      obj: await attachments.move(caller(req), req.params.id, 'requestChange', req.body.text),
    }),
  });

  r.delete('/api/v1/attachment/:id/delete', {
    config: { permission: 'authenticated' },
    schema: {
      tags,
      summary: 'Delete a file (a required one leaves its slot empty)',
      params: idParams,
      response: responses(deleteResult),
    },
    handler: async (req) => ({ obj: await attachments.remove(caller(req), req.params.id) }),
  });
}
