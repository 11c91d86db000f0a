import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  chatChannelParamsSchema,
  chatChannelsSchema,
  chatMessageViewSchema,
  chatPageQuerySchema,
  chatPageSchema,
  chatSeenBodySchema,
  postChatMessageBodySchema,
  idParamSchema,
} from '@dentflow/domain';
import { responses } from '../../http/envelope';
import { caller } from '../../http/request-meta';
import type { ChatService } from './chat.service';

const tags = ['chat'];
const id = idParamSchema;
const auth = { permission: 'authenticated' as const };

/**
 * The case chat (`/case/{id}/chat/…`, docs/permissions.md "Chat channels"): every route is for
 * any signed-in user; who sees the case and which channels they use is decided per record.
 */
export function registerChatRoutes(app: FastifyInstance, chat: ChatService) {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const base = '/api/v1/case/:id/chat';

  r.get(base, {
    config: auth,
    schema: {
      tags,
      summary: 'The chat channels the caller may use on the case, with message and unread counts',
      params: z.object({ id }),
      response: responses(chatChannelsSchema),
    },
    handler: async (req) => ({ obj: await chat.channels(caller(req), req.params.id) }),
  });

  r.delete(`${base}/message/:messageId`, {
    config: auth,
    schema: {
      tags,
      summary: 'Delete a message: its author within 15 minutes, or a supervisor',
      params: z.object({ id, messageId: id }),
      response: responses(chatMessageViewSchema),
    },
    handler: async (req) => ({
      obj: await chat.remove(caller(req), req.params.id, req.params.messageId),
    }),
  });

  r.get(`${base}/:channel`, {
    config: auth,
    schema: {
      tags,
      summary: "A page of a channel's messages, newest first (before: a message id)",
      params: chatChannelParamsSchema,
      querystring: chatPageQuerySchema,
      response: responses(chatPageSchema),
    },
    handler: async (req) => ({
      obj: await chat.page(caller(req), req.params.id, req.params.channel, req.query),
    }),
  });

  r.post(`${base}/:channel`, {
    config: auth,
    schema: {
      tags,
      summary: 'Write a message on a channel (text 1–2000 characters, trimmed)',
      params: chatChannelParamsSchema,
      body: postChatMessageBodySchema,
      response: responses(chatMessageViewSchema),
    },
    handler: async (req) => ({
      obj: await chat.post(caller(req), req.params.id, req.params.channel, req.body),
    }),
  });

  r.post(`${base}/:channel/seen`, {
    config: auth,
    schema: {
      tags,
      summary: 'The caller has read the channel up to this message',
      params: chatChannelParamsSchema,
      body: chatSeenBodySchema,
      response: responses(
        z.object({ lastSeenMessageId: z.number().int(), unread: z.number().int() }),
      ),
    },
    handler: async (req) => ({
      obj: await chat.seen(caller(req), req.params.id, req.params.channel, req.body.upTo),
    }),
  });
}
