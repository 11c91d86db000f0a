import { z } from 'zod';
import { MESSAGE } from '../forms/rules';

/**
 * Chat channels (ids equal their notification event types). Who may use each on a case:
 * `allowedChatChannels` (chat-access.ts).
 */
export const CHAT_CHANNELS = { public: 3, internal: 4, clinic: 5, instructor: 13 } as const;
export type ChatChannelKey = keyof typeof CHAT_CHANNELS;
export type ChatChannelId = (typeof CHAT_CHANNELS)[ChatChannelKey];
export const CHAT_CHANNEL_IDS = Object.values(CHAT_CHANNELS) as ChatChannelId[];

export const CHAT_MESSAGE_MAX_LENGTH = 2000;

/**
 * Whether a reply may quote a notification of this type. A chat message's notification says only
 * "New message": quoting it in the reply to that very chat tells nobody anything.
 */
export const mayQuoteNotification = (eventType: number) =>
  !(CHAT_CHANNEL_IDS as number[]).includes(eventType);

/** What a user sends. */
export const newChatMessageSchema = z.object({
  text: z
    .string({ error: MESSAGE.required })
    .trim()
    .min(1, MESSAGE.required)
    .max(CHAT_MESSAGE_MAX_LENGTH, MESSAGE.max),
});

/** Message count: the loaded messages if any, else qtdMsg. */
export function chatMessageCount(chat: {
  qtdMsg: number;
  messages?: Record<string, unknown> | null;
}): number {
  const loaded = Object.keys(chat.messages ?? {}).length;
  return loaded > 0 ? loaded : chat.qtdMsg;
}
