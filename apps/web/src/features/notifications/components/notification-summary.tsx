import { Box, Group, Stack, Text } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { notificationLabelKey, type NotificationView } from '@dentflow/domain';
import {
  formatDateTime,
  formatRelativeTime,
  NotificationIcon,
  notificationPatient,
} from '../notification-display';

/**
 * What one notification says, for the bell and the list: icon, type, patient, actor and how long
 * ago. Unseen ones are bold with a dot.
 */
export function NotificationSummary({
  notification,
  withCase = false,
}: {
  notification: NotificationView;
  /** Also name the case number (the full list). */
  withCase?: boolean;
}) {
  const { t } = useTranslation();
  const unseen = !notification.viewedAt;
  const patient = notificationPatient(notification);
  const about = [
    withCase && notification.caseId
      ? t('notifications:caseNumber', { id: notification.caseId })
      : '',
    patient,
    notification.actor?.displayName ?? '',
  ].filter(Boolean);
  return (
    <Group gap="sm" wrap="nowrap" align="flex-start">
      <NotificationIcon notification={notification} />
      <Stack gap={0} style={{ minWidth: 0, flex: 1 }}>
        <Group gap={6} wrap="nowrap">
          <Text size="sm" fw={unseen ? 700 : 400} truncate>
            {t(`domain:${notificationLabelKey(notification.eventType)}`)}
          </Text>
          {unseen && (
            <Box
              component="span"
              w={8}
              h={8}
              bg="var(--mantine-primary-color-filled)"
              style={{ borderRadius: '50%', flexShrink: 0 }}
              aria-label={t('notifications:unseen')}
              role="img"
              data-testid="notification-unseen-dot"
            />
          )}
        </Group>
        {about.length > 0 && (
          <Text size="xs" c="dimmed" truncate>
            {about.join(' · ')}
          </Text>
        )}
        <Text size="xs" c="dimmed" title={formatDateTime(notification.createdAt)}>
          {formatRelativeTime(notification.createdAt)}
        </Text>
      </Stack>
    </Group>
  );
}
