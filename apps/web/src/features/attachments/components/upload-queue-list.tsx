import { useState } from 'react';
import {
  ActionIcon,
  Alert,
  Button,
  Group,
  Image,
  Modal,
  Progress,
  Stack,
  Text,
} from '@mantine/core';
import { IconX } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import { formatBytes } from '../attachment-files';
import { formatDuration } from '../transfer-rate';
import type { UploadItem } from './use-upload-queue';

/**
 * The files being sent: a preview of images, name, progress (with bytes, speed and time left for
 * files sent in parts) and cancel, after a confirmation; a failed one shows the error and retry.
 */
export function UploadQueueList(props: {
  items: readonly UploadItem[];
  onCancel: (key: string) => void;
  onRetry: (key: string) => void;
  onDismiss: (key: string) => void;
}) {
  const { t } = useTranslation();
  const [cancelling, setCancelling] = useState<UploadItem | null>(null);
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
          <UploadRow key={item.key} item={item} onCancel={() => setCancelling(item)} />
        ),
      )}
      <Modal
        opened={cancelling !== null}
        onClose={() => setCancelling(null)}
        title={t('files:upload.cancelTitle')}
        centered
      >
        <Stack>
          <Text size="sm">
            {t('files:upload.cancelMessage', { name: cancelling?.file.name ?? '' })}
          </Text>
          <Group justify="flex-end">
            <Button variant="default" onClick={() => setCancelling(null)} data-autofocus>
              {t('files:upload.keepSending')}
            </Button>
            <Button
              color="red"
              onClick={() => {
                if (cancelling) props.onCancel(cancelling.key);
                setCancelling(null);
              }}
            >
              {t('files:upload.cancelConfirm')}
            </Button>
          </Group>
        </Stack>
      </Modal>
    </Stack>
  );
}

function UploadRow({ item, onCancel }: { item: UploadItem; onCancel: () => void }) {
  const { t, i18n } = useTranslation();
  const language = i18n.language;
  const details: string[] = [];
  if (item.sent !== undefined && item.state === 'uploading') {
    details.push(
      t('files:upload.sentOf', {
        sent: formatBytes(item.sent, language),
        total: formatBytes(item.file.size, language),
      }),
    );
    if (item.bytesPerSecond) {
      details.push(t('files:upload.speed', { speed: formatBytes(item.bytesPerSecond, language) }));
    }
    if (item.secondsLeft) {
      details.push(
        t('files:upload.timeLeft', { time: formatDuration(item.secondsLeft, language) }),
      );
    }
  }
  return (
    <Group role="listitem" wrap="nowrap" gap="sm" data-testid="upload-item">
      {item.previewUrl && (
        <Image
          src={item.previewUrl}
          alt={t('files:upload.preview', { name: item.file.name })}
          w={48}
          h={48}
          radius="sm"
          fit="cover"
          data-testid="upload-preview"
          style={{ flexShrink: 0 }}
        />
      )}
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
        {(details.length > 0 || item.resumed || item.retrying) && (
          <Group gap="xs" wrap="wrap">
            {details.length > 0 && (
              <Text size="xs" c="dimmed" data-testid="upload-rate">
                {details.join(' · ')}
              </Text>
            )}
            {item.resumed && (
              <Text size="xs" c="teal">
                {t('files:upload.resumed')}
              </Text>
            )}
            {item.retrying && (
              <Text size="xs" c="orange" role="status">
                {t('files:upload.reconnecting')}
              </Text>
            )}
          </Group>
        )}
      </Stack>
      <ActionIcon
        variant="subtle"
        color="gray"
        aria-label={t('files:upload.cancelOf', { name: item.file.name })}
        disabled={item.state === 'confirming'}
        onClick={onCancel}
      >
        <IconX size={16} />
      </ActionIcon>
    </Group>
  );
}
