import { useInfiniteQuery, type InfiniteData, type QueryClient } from '@tanstack/react-query';
import {
  chatPageSchema,
  CHAT_PAGE_SIZE,
  type ChatMessageView,
  type ChatPage,
} from '@dentflow/domain';
import { api } from '../../../lib/api-client';
import { chatKeys } from './chat-keys';

export async function fetchChatPage(
  caseId: number,
  channel: number,
  before?: number,
): Promise<ChatPage> {
  const query = new URLSearchParams({ limit: String(CHAT_PAGE_SIZE) });
  if (before) query.set('before', String(before));
  return chatPageSchema.parse(await api.get<unknown>(`/case/${caseId}/chat/${channel}?${query}`));
}

export type ChatPages = InfiniteData<ChatPage, number | undefined>;

/**
 * A channel's messages: the newest page first, older pages as the user asks for them (`before`
 * the oldest id loaded). A refetch (live update) reads the loaded pages again from the newest.
 */
export const useChatMessages = (caseId: number, channel: number) =>
  useInfiniteQuery({
    queryKey: chatKeys.messages(caseId, channel),
    queryFn: ({ pageParam }) => fetchChatPage(caseId, channel, pageParam),
    initialPageParam: undefined as number | undefined,
    getNextPageParam: (page) => (page.hasMore ? page.items.at(-1)?.id : undefined),
  });

/** The loaded messages oldest → newest, each once (a sent message may also come in a refetch). */
export function messagesInOrder(pages: { pages: ChatPage[] } | undefined): ChatMessageView[] {
  const byId = new Map<number, ChatMessageView>();
  for (const page of pages?.pages ?? []) {
    for (const message of page.items) if (!byId.has(message.id)) byId.set(message.id, message);
  }
  return [...byId.values()].sort((a, b) => a.id - b.id);
}

/** Puts a message the server answered with (sent or deleted) into the cached pages. */
export function storeChatMessage(queryClient: QueryClient, message: ChatMessageView): void {
  queryClient.setQueryData<ChatPages>(
    chatKeys.messages(message.caseId, message.channel),
    (cached) => {
      if (!cached) return cached;
      const known = cached.pages.some((page) => page.items.some((item) => item.id === message.id));
      const pages = known
        ? cached.pages.map((page) => ({
            ...page,
            items: page.items.map((item) => (item.id === message.id ? message : item)),
          }))
        : cached.pages.map((page, index) =>
            index === 0 ? { ...page, items: [message, ...page.items] } : page,
          );
      return { ...cached, pages };
    },
  );
}
