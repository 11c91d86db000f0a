import { z } from 'zod';
import { MESSAGE } from '../forms/rules';
import { isDoctor, isInstructor, isPlanner, isPrinter } from '../auth/roles';

/** Spec §4 chat channels (ids equal their notification event types). */
export const CHAT_CHANNELS = { public: 3, internal: 4, clinic: 5, instructor: 13 } as const;
export type ChatChannelKey = keyof typeof CHAT_CHANNELS;
export type ChatChannelId = (typeof CHAT_CHANNELS)[ChatChannelKey];
export const CHAT_CHANNEL_IDS = Object.values(CHAT_CHANNELS) as ChatChannelId[];

type Roles = readonly string[];
/**
 * Who may read and write each channel (spec silent; product decision). Per-record access to the
 * case itself is checked by the server first.
 * - public: everyone with access to the case;
 * - internal: the staff doing the work (admin, supervisor, planner, printer);
 * - clinic: the clinic and its doctors (admin included);
 * - instructor: the instructor and the students (clinics and doctors).
 */
export const CHAT_CHANNEL_RULES: Record<ChatChannelKey, (roles: Roles) => boolean> = {
  public: () => true,
  internal: (roles) => isPlanner(roles) || isPrinter(roles),
  clinic: isDoctor,
  instructor: (roles) => isInstructor(roles) || isDoctor(roles),
};

export function chatChannelsFor(roles: Roles): ChatChannelKey[] {
  return (Object.keys(CHAT_CHANNEL_RULES) as ChatChannelKey[]).filter((key) =>
    CHAT_CHANNEL_RULES[key](roles),
  );
}

export function canUseChatChannel(channelId: number, roles: Roles): boolean {
  const key = (Object.keys(CHAT_CHANNELS) as ChatChannelKey[]).find(
    (k) => CHAT_CHANNELS[k] === channelId,
  );
  return !!key && CHAT_CHANNEL_RULES[key](roles);
}

export const CHAT_MESSAGE_MAX_LENGTH = 2000;

export const chatMessageSchema = z.object({
  id: z.number().int(),
  caseId: z.number().int(),
  chatId: z.number().int(),
  fromUser: z.number().int(),
  text: z.string(),
  sendAt: z.string(),
  deletedAt: z.string().nullable(),
  viewers: z.array(z.number().int()),
});
export type ChatMessage = z.infer<typeof chatMessageSchema>;

/** What a user sends. */
export const newChatMessageSchema = z.object({
  text: z
    .string({ error: MESSAGE.required })
    .trim()
    .min(1, MESSAGE.required)
    .max(CHAT_MESSAGE_MAX_LENGTH, MESSAGE.max),
});

export const chatSchema = z.object({
  id: z.number().int(),
  caseId: z.number().int(),
  qtdMsg: z.number().int().min(0),
  ntfMsg: z.number().int().min(0),
  quotedNotification: z.number().int().nullable(),
  messages: z.record(z.string(), chatMessageSchema),
});
export type Chat = z.infer<typeof chatSchema>;

/** Message count: the loaded messages if any, else qtdMsg. */
export function chatMessageCount(chat: {
  qtdMsg: number;
  messages?: Record<string, unknown> | null;
}): number {
  const loaded = Object.keys(chat.messages ?? {}).length;
  return loaded > 0 ? loaded : chat.qtdMsg;
}

/** Spec §3 View record: who saw which event of a case. */
export const viewRecordSchema = z.object({
  id: z.number().int(),
  caseId: z.number().int(),
  userId: z.number().int(),
  eventType: z.number().int(),
  eventSubId: z.number().int().nullable(),
  viewedAt: z.string(),
});
export type ViewRecord = z.infer<typeof viewRecordSchema>;
