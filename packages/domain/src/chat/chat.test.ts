import { describe, expect, it } from 'vitest';
import {
  CHAT_CHANNELS,
  chatMessageCount,
  mayQuoteNotification,
  newChatMessageSchema,
} from './chat';
import { NOTIFICATION_TYPES } from '../notifications/notification';

describe('chat channels (3 public, 4 internal, 5 clinic, 13 instructor)', () => {
  it('ids', () =>
    expect(CHAT_CHANNELS).toEqual({ public: 3, internal: 4, clinic: 5, instructor: 13 }));
  it('channel ids are their chat notification types', () => {
    expect(CHAT_CHANNELS.public).toBe(NOTIFICATION_TYPES.publicChatMessage);
    expect(CHAT_CHANNELS.internal).toBe(NOTIFICATION_TYPES.privateChatMessage);
    expect(CHAT_CHANNELS.clinic).toBe(NOTIFICATION_TYPES.clinicChatMessage);
    expect(CHAT_CHANNELS.instructor).toBe(NOTIFICATION_TYPES.instructorChatMessage);
  });
});

describe('message count: loaded messages if any, else qtdMsg', () => {
  const message = {
    id: 1,
    caseId: 1,
    chatId: 1,
    fromUser: 1,
    text: 'hi',
    sendAt: 't',
    deletedAt: null,
    viewers: [],
  };
  it.each([
    [{ qtdMsg: 12, messages: {} }, 12],
    [{ qtdMsg: 12, messages: { 1: message, 2: { ...message, id: 2 } } }, 2],
    [{ qtdMsg: 0, messages: null }, 0],
  ])('%#', (chat, count) => expect(chatMessageCount(chat)).toBe(count));

  it('a message needs text', () => {
    expect(newChatMessageSchema.safeParse({ text: ' ' }).success).toBe(false);
    expect(newChatMessageSchema.safeParse({ text: 'ok' }).success).toBe(true);
  });
});

describe('a reply quotes a notification only when the quote says something', () => {
  it.each(
    Object.entries(NOTIFICATION_TYPES).map(
      ([key, type]) => [key, type, !key.endsWith('ChatMessage')] as const,
    ),
  )('%s (%i) → %s', (_key, type, quotable) => expect(mayQuoteNotification(type)).toBe(quotable));
});
