import { CloseButton, Group, Paper, Skeleton, Stack, Text } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { notificationLabelKey } from '@dentflow/domain';
import { useQuotedNotification } from '../../notifications/api/case-notifications';
import {
  formatRelativeTime,
  NotificationIcon,
  notificationPatient,
} from '../../notifications/notification-display';

/** Above the composer: the notification the next message answers, with a way to drop it. */
export function QuoteBlock({
  caseId,
  notificationId,
  onRemove,
}: {
  caseId: number;
  notificationId: number;
  onRemove: () => void;
}) {
  const { t } = useTranslation();
  const { notification, isLoading } = useQuotedNotification(caseId, notificationId);
  const details = notification
    ? [
        notification.actor?.displayName ?? '',
        notificationPatient(notification),
        formatRelativeTime(notification.createdAt),
      ].filter(Boolean)
    : [];
  return (
    <Paper
      withBorder
      radius="sm"
      px="sm"
      py={6}
      data-testid="chat-quote"
      style={{ borderLeft: '3px solid var(--mantine-primary-color-filled)' }}
    >
      <Group justify="space-between" wrap="nowrap" gap="xs">
        <Group gap="xs" wrap="nowrap" style={{ minWidth: 0 }}>
          {notification && <NotificationIcon notification={notification} size={24} />}
          <Stack gap={0} style={{ minWidth: 0 }}>
            <Text size="xs" c="dimmed">
              {t('chat:quote.label')}
            </Text>
            {isLoading ? (
              <Skeleton h={14} w={160} />
            ) : (
              <Text size="sm" truncate>
                {notification
                  ? t(`domain:${notificationLabelKey(notification.eventType)}`)
                  : t('chat:quote.unknown')}
                {details.length > 0 && (
                  <Text span size="xs" c="dimmed">
                    {' · '}
                    {details.join(' · ')}
                  </Text>
                )}
              </Text>
            )}
          </Stack>
        </Group>
        <CloseButton size="sm" aria-label={t('chat:quote.remove')} onClick={onRemove} />
      </Group>
    </Paper>
  );
}
