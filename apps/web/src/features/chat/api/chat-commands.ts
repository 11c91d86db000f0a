import { useMutation, useQueryClient } from '@tanstack/react-query';
import { z } from 'zod';
import { chatMessageViewSchema, type ChatMessageView } from '@dentflow/domain';
import { api } from '../../../lib/api-client';
import { chatKeys } from './chat-keys';
import { storeChatMessage, type ChatPages } from './chat-messages';

export interface NewChatMessage {
  text: string;
  quotedNotification?: number | null | undefined;
}

/** `POST /case/{id}/chat/{channel}`: the message as stored, shown at once. */
export function useSendChatMessage(caseId: number, channel: number) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async ({ text, quotedNotification }: NewChatMessage): Promise<ChatMessageView> =>
      chatMessageViewSchema.parse(
        await api.post<unknown>(`/case/${caseId}/chat/${channel}`, {
          text: text.trim(),
          ...(quotedNotification ? { quotedNotification } : {}),
        }),
      ),
    onSuccess: (message) => {
      storeChatMessage(queryClient, message);
      void queryClient.invalidateQueries({ queryKey: chatKeys.channels(caseId) });
    },
  });
}

/** `DELETE /case/{id}/chat/message/{messageId}`: the message keeps its place, shown as deleted. */
export function useDeleteChatMessage(caseId: number) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async (messageId: number): Promise<ChatMessageView> =>
      chatMessageViewSchema.parse(
        await api.delete<unknown>(`/case/${caseId}/chat/message/${messageId}`),
      ),
    onSuccess: (message) => storeChatMessage(queryClient, message),
    onError: () => void queryClient.invalidateQueries({ queryKey: chatKeys.all(caseId) }),
  });
}

const seenAnswerSchema = z.object({
  lastSeenMessageId: z.number().int().min(0),
  unread: z.number().int().min(0),
});

/** `POST /case/{id}/chat/{channel}/seen`: the caller has read up to `upTo`. */
export function useMarkChatSeen(caseId: number, channel: number) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (upTo: number) =>
      api.post<unknown>(`/case/${caseId}/chat/${channel}/seen`, { upTo }),
    onSuccess: (body) => {
      void queryClient.invalidateQueries({ queryKey: chatKeys.channels(caseId) });
      const parsed = seenAnswerSchema.safeParse(body);
      if (!parsed.success) return;
      const answer = parsed.data;
      // Only the newest page carries the counts; the messages themselves do not change.
      queryClient.setQueryData<ChatPages>(chatKeys.messages(caseId, channel), (cached) =>
        cached
          ? {
              ...cached,
              pages: cached.pages.map((page, index) =>
                index === 0
                  ? { ...page, lastSeenMessageId: answer.lastSeenMessageId, unread: answer.unread }
                  : page,
              ),
            }
          : cached,
      );
    },
  });
}
