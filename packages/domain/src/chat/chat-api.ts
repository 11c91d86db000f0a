/**
 * The chat API contract: `/api/v1/case/{id}/chat/…`, shared by the server's
 * routes and the web.
 */
import { z } from 'zod';
import { idParamSchema, idSchema, pageSizeSchema } from '../common/bounds';
import { CHAT_CHANNEL_IDS, newChatMessageSchema } from './chat';

export const CHAT_PAGE_SIZE = 30;
export const CHAT_PAGE_MAX = 100;
/** The author may delete their own message within this time; a supervisor at any time. */
export const CHAT_DELETE_WINDOW_MS = 15 * 60 * 1000;

const channelSchema = z.coerce
  .number()
  .int()
  .min(0)
  .max(Math.max(...CHAT_CHANNEL_IDS))
  .refine((value) => (CHAT_CHANNEL_IDS as number[]).includes(value), 'validation.invalid');

export const chatChannelParamsSchema = z.object({
  id: idParamSchema,
  channel: channelSchema,
});

/** `GET /case/{id}/chat/{channel}?before=&limit=`: newest first, `before` a message id. */
export const chatPageQuerySchema = z.object({
  before: idParamSchema.optional(),
  limit: pageSizeSchema(CHAT_PAGE_MAX).default(CHAT_PAGE_SIZE),
});

/** A message as the chat shows it; a deleted one keeps its place with no text. */
export const chatMessageViewSchema = z.object({
  id: z.number().int(),
  caseId: z.number().int(),
  channel: z.number().int(),
  author: z.object({ id: z.number().int(), displayName: z.string() }),
  text: z.string(),
  deleted: z.boolean(),
  quotedNotification: z.number().int().nullable(),
  sendAt: z.string(),
  /** How many other readers have seen it (read marks). */
  seenBy: z.number().int().min(0),
  /** The caller may delete it now. */
  canDelete: z.boolean(),
  /** The pin on a planning model this message announces (its link opens the viewer there). */
  pin: z.object({ id: z.number().int(), attachmentId: z.number().int() }).nullable(),
});
export type ChatMessageView = z.infer<typeof chatMessageViewSchema>;

export const chatPageSchema = z.object({
  items: z.array(chatMessageViewSchema),
  /** Older messages exist before the last item. */
  hasMore: z.boolean(),
  /** Messages of others after the caller's last seen one. */
  unread: z.number().int().min(0),
  /** The id the caller has seen up to (0: none). */
  lastSeenMessageId: z.number().int().min(0),
});
export type ChatPage = z.infer<typeof chatPageSchema>;

/** `GET /case/{id}/chat`: the channels the caller may use on this case, with counts. */
export const chatChannelsSchema = z.object({
  channels: z.array(
    z.object({
      channel: z.number().int(),
      /** Message count (qtdMsg): the channel's messages, deleted ones included. */
      qtdMsg: z.number().int().min(0),
      unread: z.number().int().min(0),
    }),
  ),
});
export type ChatChannels = z.infer<typeof chatChannelsSchema>;

export const postChatMessageBodySchema = newChatMessageSchema.extend({
  quotedNotification: idSchema.nullable().optional(),
});
export type PostChatMessageBody = z.infer<typeof postChatMessageBodySchema>;

/** `POST /case/{id}/chat/{channel}/seen`: the caller has read up to this message. */
export const chatSeenBodySchema = z.object({
  upTo: idSchema,
});
