import type { ChatChannels, ChatMessageView, ChatPage } from '@dentflow/domain';

/** Test data in the contract's shapes (chat-api.ts). */
export function chatMessage(overrides: Partial<ChatMessageView> = {}): ChatMessageView {
  return {
    id: 1,
    caseId: 42,
    channel: 3,
    author: { id: 9, displayName: 'Paulo Planner' },
    text: 'Hello',
    deleted: false,
    quotedNotification: null,
    sendAt: new Date().toISOString(),
    seenBy: 0,
    canDelete: false,
    pin: null,
    ...overrides,
  };
}

export function chatPage(overrides: Partial<ChatPage> = {}): ChatPage {
  return { items: [], hasMore: false, unread: 0, lastSeenMessageId: 0, ...overrides };
}

export function chatChannels(channels: ChatChannels['channels'] = []): ChatChannels {
  return {
    channels: channels.length > 0 ? channels : [{ channel: 3, qtdMsg: 0, unread: 0 }],
  };
}
