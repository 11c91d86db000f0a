import { useEffect, useLayoutEffect, useMemo, useRef, useState } from 'react';
import {
  Alert,
  Button,
  Card,
  Center,
  Divider,
  EmptyState,
  ScrollArea,
  Skeleton,
  Stack,
  Text,
} from '@mantine/core';
import { useDocumentVisibility } from '@mantine/hooks';
import { IconMessages } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import type { ChatChannelKey, ChatMessageView } from '@dentflow/domain';
import { errorMessage, showError } from '../../../lib/notify';
import { ConfirmDialog } from '../../../lib/ui/confirm-dialog';
import { useProfile } from '../../profile/api/get-profile';
import { useDeleteChatMessage, useMarkChatSeen } from '../api/chat-commands';
import { messagesInOrder, useChatMessages } from '../api/chat-messages';
import { chatRows, dayLabel } from '../chat-days';
import { ChatComposer } from './chat-composer';
import { ChatMessageItem } from './chat-message-item';

function MessagesSkeleton() {
  return (
    <Stack gap="sm" p="sm" aria-busy="true">
      <Skeleton h={44} w="60%" radius="md" />
      <Skeleton h={44} w="45%" radius="md" ml="auto" />
      <Skeleton h={60} w="70%" radius="md" />
    </Stack>
  );
}

/** One channel: its messages (oldest first, day separators) and the composer. */
export function ChatChannelView({
  caseId,
  channel,
  channelKey,
  quote,
  onQuoteRemoved,
}: {
  caseId: number;
  channel: number;
  channelKey: ChatChannelKey;
  quote: number | null;
  onQuoteRemoved: () => void;
}) {
  const { t } = useTranslation();
  const { data: profile } = useProfile();
  const messages = useChatMessages(caseId, channel);
  const ordered = useMemo(() => messagesInOrder(messages.data), [messages.data]);
  const rows = useMemo(() => chatRows(ordered), [ordered]);
  const newestId = ordered.at(-1)?.id ?? 0;
  const lastSeen = messages.data?.pages[0]?.lastSeenMessageId ?? 0;

  // Read up to the newest message while this channel is on screen.
  const visibility = useDocumentVisibility();
  const { mutate: markSeen } = useMarkChatSeen(caseId, channel);
  const seenSent = useRef(0);
  useEffect(() => {
    if (visibility !== 'visible' || newestId === 0) return;
    if (newestId <= lastSeen || newestId <= seenSent.current) return;
    seenSent.current = newestId;
    markSeen(newestId);
  }, [visibility, newestId, lastSeen, markSeen]);

  // The newest message in view; loading earlier ones keeps what the user was reading in place.
  const viewport = useRef<HTMLDivElement>(null);
  const keepPosition = useRef<{ height: number; top: number } | null>(null);
  useLayoutEffect(() => {
    const element = viewport.current;
    if (!element) return;
    const kept = keepPosition.current;
    keepPosition.current = null;
    element.scrollTop = kept ? element.scrollHeight - kept.height + kept.top : element.scrollHeight;
  }, [newestId, ordered.length]);

  const loadEarlier = () => {
    const element = viewport.current;
    if (element) keepPosition.current = { height: element.scrollHeight, top: element.scrollTop };
    void messages.fetchNextPage();
  };

  const [deleting, setDeleting] = useState<ChatMessageView | null>(null);
  const deleteMessage = useDeleteChatMessage(caseId);
  const confirmDelete = () => {
    if (!deleting) return;
    deleteMessage.mutate(deleting.id, {
      onSuccess: () => setDeleting(null),
      onError: (error) => {
        setDeleting(null);
        showError(error);
      },
    });
  };

  const labels = { today: t('chat:today'), yesterday: t('chat:yesterday') };
  const now = new Date();

  return (
    <Stack gap="sm">
      <Card withBorder radius="md" padding={0}>
        <ScrollArea
          viewportRef={viewport}
          type="auto"
          offsetScrollbars
          style={{ height: 'min(60dvh, 560px)', minHeight: 240 }}
        >
          {messages.isLoading ? (
            <MessagesSkeleton />
          ) : messages.isError ? (
            <Alert color="red" m="sm" title={t('chat:errors.load')}>
              <Text size="sm">{errorMessage(messages.error)}</Text>
              <Button
                size="xs"
                mt="sm"
                variant="light"
                color="red"
                onClick={() => void messages.refetch()}
              >
                {t('chat:errors.retry')}
              </Button>
            </Alert>
          ) : ordered.length === 0 ? (
            <EmptyState
              icon={<IconMessages size={28} />}
              title={t('chat:emptyTitle')}
              description={t(`chat:empty.${channelKey}`)}
              py="xl"
              data-testid="chat-empty"
            />
          ) : (
            <Stack gap="xs" p="sm">
              {messages.hasNextPage && (
                <Center>
                  <Button
                    variant="subtle"
                    size="xs"
                    onClick={loadEarlier}
                    loading={messages.isFetchingNextPage}
                    data-testid="chat-load-earlier"
                  >
                    {t('chat:loadEarlier')}
                  </Button>
                </Center>
              )}
              <Stack
                gap="xs"
                role="log"
                aria-label={t('chat:messages')}
                data-testid="chat-messages"
              >
                {rows.map((row) =>
                  row.kind === 'day' ? (
                    <Divider
                      key={row.key}
                      label={dayLabel(row.day, labels, now)}
                      labelPosition="center"
                      data-testid="chat-day-separator"
                    />
                  ) : (
                    <ChatMessageItem
                      key={row.key}
                      message={row.message}
                      own={row.message.author.id === profile?.id}
                      onDelete={setDeleting}
                    />
                  ),
                )}
              </Stack>
            </Stack>
          )}
        </ScrollArea>
      </Card>
      <ChatComposer
        caseId={caseId}
        channel={channel}
        quote={quote}
        onQuoteRemoved={onQuoteRemoved}
      />
      <ConfirmDialog
        opened={deleting !== null}
        title={t('chat:delete.title')}
        message={t('chat:delete.confirm')}
        confirmLabel={t('chat:delete.yes')}
        danger
        loading={deleteMessage.isPending}
        onConfirm={confirmDelete}
        onClose={() => setDeleting(null)}
      />
    </Stack>
  );
}
