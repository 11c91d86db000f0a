import { ActionIcon, Anchor, Group, Paper, Stack, Text } from '@mantine/core';
import { IconChecks, IconMapPin, IconQuote, IconTrash } from '@tabler/icons-react';
import { Link } from 'react-router';
import { useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { notificationLabelKey, type ChatMessageView } from '@dentflow/domain';
import { findCachedNotification } from '../../notifications/api/case-notifications';
import { formatDateTime } from '../../notifications/notification-display';
import { messageTime } from '../chat-days';

/** Where a pin's message leads: the case's files, the viewer open at that pin's camera. */
export const pinLink = (caseId: number, pin: { id: number; attachmentId: number }) =>
  `/case/${caseId}?tab=attachments&file=${pin.attachmentId}&pin=${pin.id}`;

/**
 * One message: author and time, the text (or "Message deleted"), the link to the pin it
 * announces, read mark and delete action.
 */
export function ChatMessageItem({
  message,
  own,
  onDelete,
}: {
  message: ChatMessageView;
  /** Written by the caller: on the right, with its read mark. */
  own: boolean;
  onDelete: (message: ChatMessageView) => void;
}) {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  // Only the sender has the quoted notification; others see that the message answers one.
  const quoted =
    message.quotedNotification && !message.deleted
      ? findCachedNotification(queryClient, message.quotedNotification)
      : undefined;

  return (
    <Group
      justify={own ? 'flex-end' : 'flex-start'}
      wrap="nowrap"
      data-testid="chat-message"
      data-message-id={message.id}
      data-own={own ? 'true' : undefined}
      data-deleted={message.deleted ? 'true' : undefined}
    >
      <Paper
        px="sm"
        py={6}
        radius="md"
        maw="min(80%, 560px)"
        withBorder={!own}
        bg={own ? 'var(--mantine-primary-color-light)' : 'var(--mantine-color-body)'}
      >
        <Stack gap={2}>
          <Group gap="xs" wrap="nowrap" justify="space-between">
            <Text size="xs" fw={600} truncate>
              {own ? t('chat:you') : message.author.displayName}
            </Text>
            <Group gap={4} wrap="nowrap">
              <Text
                size="xs"
                c="dimmed"
                component="time"
                dateTime={message.sendAt}
                title={formatDateTime(message.sendAt)}
              >
                {messageTime(message.sendAt)}
              </Text>
              {message.canDelete && !message.deleted && (
                <ActionIcon
                  size="sm"
                  variant="subtle"
                  color="gray"
                  aria-label={t('chat:delete.action')}
                  onClick={() => onDelete(message)}
                >
                  <IconTrash size={14} />
                </ActionIcon>
              )}
            </Group>
          </Group>
          {message.quotedNotification !== null && !message.deleted && (
            <Group gap={4} wrap="nowrap" c="dimmed">
              <IconQuote size={12} />
              <Text size="xs" c="dimmed" fs="italic" truncate>
                {quoted
                  ? t(`domain:${notificationLabelKey(quoted.eventType)}`)
                  : t('chat:quote.inMessage')}
              </Text>
            </Group>
          )}
          {message.deleted ? (
            <Text size="sm" fs="italic" c="dimmed">
              {t('chat:deleted')}
            </Text>
          ) : (
            <Text size="sm" style={{ whiteSpace: 'pre-wrap', overflowWrap: 'anywhere' }}>
              {message.text}
            </Text>
          )}
          {message.pin && !message.deleted && (
            <Anchor
              component={Link}
              to={pinLink(message.caseId, message.pin)}
              size="xs"
              data-testid="chat-pin-link"
            >
              <Group gap={4} wrap="nowrap">
                <IconMapPin size={14} />
                {t('chat:openPin')}
              </Group>
            </Anchor>
          )}
          {own && !message.deleted && message.seenBy > 0 && (
            <Group gap={2} justify="flex-end" c="dimmed" data-testid="chat-message-seen">
              <IconChecks size={12} />
              <Text size="xs" c="dimmed">
                {t('chat:seen')}
              </Text>
            </Group>
          )}
        </Stack>
      </Paper>
    </Group>
  );
}
