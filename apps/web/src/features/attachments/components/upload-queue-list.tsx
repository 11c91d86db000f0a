import { ActionIcon, Alert, Button, Group, Progress, Stack, Text } from '@mantine/core';
import { IconX } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import type { UploadItem } from './use-upload-queue';

/** The files being sent: name, 0-100 progress and cancel; a failed one shows the error and retry. */
export function UploadQueueList(props: {
  items: readonly UploadItem[];
  onCancel: (key: string) => void;
  onRetry: (key: string) => void;
  onDismiss: (key: string) => void;
}) {
  const { t } = useTranslation();
  if (props.items.length === 0) return null;
  return (
    <Stack gap="xs" aria-label={t('files:upload.queue')} role="list">
      {props.items.map((item) =>
        item.state === 'error' ? (
          <Alert
            key={item.key}
            role="listitem"
            color="red"
            variant="light"
            title={item.file.name}
            data-testid="upload-error"
          >
            <Stack gap={6}>
              <Text size="sm">{t('files:upload.failed')}</Text>
              {item.errorDetail && (
                <Text size="xs" c="dimmed">
                  {item.errorDetail}
                </Text>
              )}
              <Group gap="xs">
                <Button size="compact-xs" onClick={() => props.onRetry(item.key)}>
                  {t('files:upload.retry')}
                </Button>
                <Button
                  size="compact-xs"
                  variant="default"
                  onClick={() => props.onDismiss(item.key)}
                >
                  {t('files:upload.dismiss')}
                </Button>
              </Group>
            </Stack>
          </Alert>
        ) : (
          <Group key={item.key} role="listitem" wrap="nowrap" gap="sm" data-testid="upload-item">
            <Stack gap={2} style={{ flex: 1, minWidth: 0 }}>
              <Group justify="space-between" wrap="nowrap" gap="xs">
                <Text size="sm" truncate>
                  {item.file.name}
                </Text>
                <Text size="xs" c="dimmed" style={{ flexShrink: 0 }}>
                  {item.state === 'confirming'
                    ? t('files:upload.checking')
                    : t('files:upload.percent', { percent: item.percent })}
                </Text>
              </Group>
              <Progress
                value={item.percent}
                animated={item.state === 'confirming'}
                aria-label={t('files:upload.progressOf', { name: item.file.name })}
              />
            </Stack>
            <ActionIcon
              variant="subtle"
              color="gray"
              aria-label={t('files:upload.cancelOf', { name: item.file.name })}
              disabled={item.state === 'confirming'}
              onClick={() => props.onCancel(item.key)}
            >
              <IconX size={16} />
            </ActionIcon>
          </Group>
        ),
      )}
    </Stack>
  );
}
