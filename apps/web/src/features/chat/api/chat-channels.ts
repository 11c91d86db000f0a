import { useQuery } from '@tanstack/react-query';
import {
  CHAT_CHANNELS,
  chatChannelsSchema,
  type ChatChannelKey,
  type ChatChannels,
} from '@dentflow/domain';
import { api } from '../../../lib/api-client';
import { chatKeys } from './chat-keys';

export const fetchChatChannels = async (caseId: number): Promise<ChatChannels> =>
  chatChannelsSchema.parse(await api.get<unknown>(`/case/${caseId}/chat`));

/** The channels the caller may use on a case, with their message and unread counts. */
export const useChatChannels = (caseId: number) =>
  useQuery({
    queryKey: chatKeys.channels(caseId),
    queryFn: () => fetchChatChannels(caseId),
    enabled: caseId > 0,
  });

/** The unread messages of all the caller's channels of a case (the Chat tab's label). */
export function useChatUnread(caseId: number): number {
  const { data } = useChatChannels(caseId);
  return (data?.channels ?? []).reduce((sum, channel) => sum + channel.unread, 0);
}

/** The name key of a channel id (`public`, `internal`...), undefined for an unknown one. */
export function chatChannelKey(channel: number): ChatChannelKey | undefined {
  return (Object.keys(CHAT_CHANNELS) as ChatChannelKey[]).find(
    (key) => CHAT_CHANNELS[key] === channel,
  );
}
