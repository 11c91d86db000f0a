import { useSearchParams } from 'react-router';
import { Alert, Badge, Button, EmptyState, Skeleton, Stack, Tabs, Text } from '@mantine/core';
import { IconMessageOff } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import { errorMessage } from '../../../lib/notify';
import { useTabStrip } from '../../../lib/ui/tab-strip';
import { chatChannelKey, useChatChannels } from '../api/chat-channels';
import { ChatChannelView } from './chat-channel-view';

const positiveId = (value: string | null) => {
  const id = Number(value);
  return Number.isSafeInteger(id) && id > 0 ? id : null;
};

/**
 * The case's Chat tab: one tab per channel the caller may use, with its unread count. The open
 * channel (`?channel=`) and a quoted notification (`?quote=`) live in the URL, so a notification
 * opens the right place.
 */
export function CaseChatTab({ caseId }: { caseId: number }) {
  const { t } = useTranslation();
  const [params, setParams] = useSearchParams();
  const channels = useChatChannels(caseId);
  const tabStrip = useTabStrip(params.get('channel'));

  if (channels.isLoading) {
    return (
      <Stack aria-busy="true">
        <Skeleton h={32} w={280} />
        <Skeleton h={320} />
      </Stack>
    );
  }
  if (channels.isError || !channels.data) {
    return (
      <Alert color="red" title={t('chat:errors.load')}>
        <Text size="sm">{errorMessage(channels.error)}</Text>
        <Button
          size="xs"
          mt="sm"
          variant="light"
          color="red"
          onClick={() => void channels.refetch()}
        >
          {t('chat:errors.retry')}
        </Button>
      </Alert>
    );
  }

  const available = channels.data.channels.flatMap((item) => {
    const key = chatChannelKey(item.channel);
    return key ? [{ ...item, key }] : [];
  });
  const first = available[0];
  if (!first) {
    return (
      <EmptyState
        icon={<IconMessageOff size={28} />}
        title={t('chat:title')}
        description={t('chat:noChannels')}
        py="xl"
      />
    );
  }
  const requested = positiveId(params.get('channel'));
  const active = available.find((item) => item.channel === requested) ?? first;
  const quote = positiveId(params.get('quote'));

  const changeParams = (change: (next: URLSearchParams) => void) =>
    setParams(
      (current) => {
        const next = new URLSearchParams(current);
        change(next);
        return next;
      },
      { replace: true },
    );

  return (
    <Tabs
      value={String(active.channel)}
      onChange={(value) => {
        if (value) changeParams((next) => next.set('channel', value));
      }}
      keepMounted={false}
      variant="pills"
    >
      <Tabs.List aria-label={t('chat:channelsLabel')} mb="sm" {...tabStrip}>
        {available.map((item) => (
          <Tabs.Tab
            key={item.channel}
            value={String(item.channel)}
            data-testid={`chat-channel-${item.key}`}
            rightSection={
              item.unread > 0 ? (
                <Badge
                  size="sm"
                  circle={item.unread < 10}
                  color="red"
                  data-testid={`chat-channel-unread-${item.key}`}
                  title={t('chat:unread', { n: item.unread })}
                >
                  {item.unread > 99 ? '99+' : item.unread}
                </Badge>
              ) : null
            }
          >
            {t(`chat:channels.${item.key}`)}
          </Tabs.Tab>
        ))}
      </Tabs.List>
      {available.map((item) => (
        <Tabs.Panel key={item.channel} value={String(item.channel)}>
          <ChatChannelView
            caseId={caseId}
            channel={item.channel}
            channelKey={item.key}
            quote={quote}
            onQuoteRemoved={() => changeParams((next) => next.delete('quote'))}
          />
        </Tabs.Panel>
      ))}
    </Tabs>
  );
}
