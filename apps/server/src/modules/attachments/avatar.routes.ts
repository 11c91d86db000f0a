import { AVATAR_MAX_BYTES, idParamSchema } from '@dentflow/domain';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { Config } from '../../config';
import { AppError } from '../../http/app-error';
import { multipartRefusal } from '../../http/multipart';
import { responses } from '../../http/envelope';
import { callerId, requestMeta } from '../../http/request-meta';
import type { AvatarService } from './avatar.service';

/** Needs @fastify/multipart registered in the scope (see storage.routes.ts). */
export function registerAvatarRoutes(app: FastifyInstance, avatars: AvatarService, config: Config) {
  const r = app.withTypeProvider<ZodTypeProvider>();

  r.post('/api/v1/profile/avatar', {
    config: {
      permission: 'authenticated',
      rateLimit: { max: config.rateLimit.upload, timeWindow: config.rateLimit.windowMs },
    },
    schema: {
      tags: ['profile'],
      summary:
        "Set the caller's avatar: multipart with a `file` field (JPG, GIF or PNG, at most " +
        '800 kB), stored as a 256 px square WebP; answers its URL',
      consumes: ['multipart/form-data'],
      response: responses(z.object({ avatar: z.string() })),
    },
    handler: async (req) => {
      if (!req.isMultipart()) throw new AppError(415, 'UNSUPPORTED_MEDIA_TYPE');
      let buffer: Buffer | undefined;
      try {
        const file = await req.file({ limits: { fileSize: AVATAR_MAX_BYTES, files: 1, parts: 5 } });
        buffer = await file?.toBuffer();
      } catch (error) {
        throw multipartRefusal(error);
      }
      if (!buffer) throw new AppError(400, 'BAD_REQUEST');
      return { obj: await avatars.upload(callerId(req), buffer, requestMeta(req)) };
    },
  });

  r.get('/api/v1/profile/avatar/:userId/:name', {
    // Shown in <img> tags, which send no bearer token: the name is random and changes with
    // every upload, and only the user's current avatar is served.
    config: { permission: 'public' },
    schema: {
      tags: ['profile'],
      summary: "A user's current avatar (image/webp)",
      params: z.object({
        userId: idParamSchema,
        name: z.string().max(64),
      }),
    },
    handler: async (req, reply) => {
      const stream = await avatars.open(req.params.userId, req.params.name);
      return reply
        .type('image/webp')
        .header('cache-control', 'public, max-age=86400, immutable')
        .send(stream);
    },
  });

  r.delete('/api/v1/users/:id/avatar', {
    config: { permission: 'admin' },
    schema: {
      tags: ['users'],
      summary: "Remove a user's avatar (admin)",
      params: z.object({ id: idParamSchema }),
      response: responses(z.object({ avatar: z.null() })),
    },
    handler: async (req) => ({
      obj: await avatars.remove(callerId(req), req.params.id, requestMeta(req)),
    }),
  });
}
