import { useEffect, useState } from 'react';
import { Alert, Button, Group, Stack, Text, Textarea } from '@mantine/core';
import { IconSend } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import { CHAT_MESSAGE_MAX_LENGTH, mayQuoteNotification } from '@dentflow/domain';
import { ApiError } from '../../../lib/api-client';
import { useQuotedNotification } from '../../notifications/api/case-notifications';
import { useSendChatMessage } from '../api/chat-commands';
import { QuoteBlock } from './quote-block';

/** The counter shows from this many characters left. */
const COUNTER_FROM = 200;

/**
 * Writes a message: Enter sends, Shift+Enter starts a line. A failed send keeps the text and
 * offers Retry ('Error sending message').
 */
export function ChatComposer({
  caseId,
  channel,
  quote,
  onQuoteRemoved,
}: {
  caseId: number;
  channel: number;
  /** A notification id the next message answers (`?quote=`), or null. */
  quote: number | null;
  onQuoteRemoved: () => void;
}) {
  const { t } = useTranslation();
  const [text, setText] = useState('');
  const [failure, setFailure] = useState<unknown>(null);
  const sending = useSendChatMessage(caseId, channel);
  // A chat message's own notification ("New message") is no quote worth attaching: dropped.
  const { notification: quoted } = useQuotedNotification(caseId, quote);
  const pointless = quoted !== undefined && !mayQuoteNotification(quoted.eventType);
  const quoting = quote !== null && !pointless ? quote : null;
  // Sent only once known to be worth quoting (a send while it loads goes without it).
  const sentQuote = quoting !== null && quoted !== undefined ? quoting : null;
  useEffect(() => {
    if (pointless) onQuoteRemoved();
  }, [pointless, onQuoteRemoved]);
  const left = CHAT_MESSAGE_MAX_LENGTH - text.length;
  const canSend = text.trim().length > 0 && !sending.isPending;

  const send = () => {
    const sent = text;
    if (!sent.trim() || sending.isPending) return;
    sending.mutate(
      { text: sent, quotedNotification: sentQuote },
      {
        onSuccess: () => {
          // Typed while it was on its way: that text stays.
          setText((current) => (current === sent ? '' : current));
          setFailure(null);
          if (quoting) onQuoteRemoved();
        },
        onError: (error) => setFailure(() => error),
      },
    );
  };

  // The server's own words when it refused the text (too long, not allowed); else the spec's.
  const detail =
    failure instanceof ApiError && failure.status >= 400 && failure.status < 500
      ? failure.message
      : null;

  return (
    <Stack gap={6}>
      {quoting !== null && (
        <QuoteBlock caseId={caseId} notificationId={quoting} onRemove={onQuoteRemoved} />
      )}
      {failure !== null && (
        <Alert color="red" py="xs" title={t('chat:errors.send')} data-testid="chat-send-error">
          <Group justify="space-between" gap="xs">
            {detail && detail !== t('chat:errors.send') ? (
              <Text size="sm">{detail}</Text>
            ) : (
              <span />
            )}
            <Button
              size="xs"
              variant="light"
              color="red"
              onClick={send}
              loading={sending.isPending}
              data-testid="chat-retry"
            >
              {t('chat:composer.retry')}
            </Button>
          </Group>
        </Alert>
      )}
      <form
        onSubmit={(event) => {
          event.preventDefault();
          send();
        }}
      >
        <Group gap="xs" align="flex-end" wrap="nowrap">
          <Textarea
            aria-label={t('chat:composer.label')}
            placeholder={t('chat:composer.placeholder')}
            value={text}
            onChange={(event) => setText(event.currentTarget.value)}
            onKeyDown={(event) => {
              if (event.key === 'Enter' && !event.shiftKey && !event.nativeEvent.isComposing) {
                event.preventDefault();
                send();
              }
            }}
            maxLength={CHAT_MESSAGE_MAX_LENGTH}
            autosize
            minRows={1}
            maxRows={6}
            style={{ flex: 1 }}
            data-testid="chat-composer"
          />
          <Button
            type="submit"
            loading={sending.isPending}
            disabled={!canSend}
            leftSection={<IconSend size={16} />}
            data-testid="chat-send"
          >
            {t('chat:composer.send')}
          </Button>
        </Group>
      </form>
      {left <= COUNTER_FROM && (
        <Text size="xs" c={left <= 20 ? 'orange' : 'dimmed'} ta="right" aria-live="polite">
          {t('chat:composer.charactersLeft', { n: left })}
        </Text>
      )}
    </Stack>
  );
}
