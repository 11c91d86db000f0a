import { ActionIcon, Badge, Card, Center, Group, Image, Stack, Text, Tooltip } from '@mantine/core';
import { IconCube, IconDownload, IconFile, IconGitCompare, IconScan } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import { isAttachmentOk, isPublished } from '@dentflow/domain';
import { useAttachmentLabel } from '../attachment-label';
import { showError } from '../../../lib/notify';
import { formatDate } from '../../../lib/format-date';
import { formatBytes, viewerKind } from '../attachment-files';
import { getAttachment } from '../api/get-attachment';
import { useAttachmentUrl } from '../api/use-attachment-url';
import type { CaseAttachment } from '../api/list-case-attachments';
import { AttachmentActions } from './attachment-actions';

const STATUS_COLORS: Record<string, string> = {
  public: 'blue',
  private: 'gray',
  request_change: 'orange',
  publish: 'teal',
  approved: 'green',
  uploading: 'yellow',
};

async function download(attachmentId: number) {
  try {
    // Always a fresh link: the list's may be close to expiry.
    const { url } = await getAttachment(attachmentId);
    if (!url) return;
    const link = document.createElement('a');
    link.href = url;
    link.rel = 'noopener';
    link.target = '_blank';
    link.click();
  } catch (error) {
    showError(error);
  }
}

/** One file of the case: preview, label, status, the caller's actions, download and viewer. */
export function AttachmentCard(props: {
  item: CaseAttachment;
  readOnly: boolean;
  onOpen: (item: CaseAttachment) => void;
  /** Set when the file can be compared with another planning STL of the case. */
  onCompare?: (item: CaseAttachment) => void;
  onChanged: () => void;
}) {
  const { t, i18n } = useTranslation();
  const label = useAttachmentLabel();
  const { item } = props;
  const kind = viewerKind(item);
  // The list's signed link, or a fresh one when it has none.
  const fallback = useAttachmentUrl(item.id, kind === 'image' && !item.url);
  const thumbnailUrl = item.url ?? fallback.data ?? undefined;
  const title = label(item);

  const preview =
    kind === 'image' ? (
      <Image
        src={thumbnailUrl}
        alt={title}
        h={140}
        fit="cover"
        radius="sm"
        fallbackSrc={undefined}
        style={{ cursor: 'zoom-in', background: 'var(--mantine-color-gray-1)' }}
        onClick={() => props.onOpen(item)}
        data-testid="attachment-thumbnail"
      />
    ) : (
      <Center
        h={140}
        bg="gray.1"
        style={{
          borderRadius: 'var(--mantine-radius-sm)',
          cursor: kind === 'none' ? 'default' : 'pointer',
        }}
        onClick={() => kind !== 'none' && props.onOpen(item)}
      >
        {kind === 'stl' ? (
          <IconCube size={48} stroke={1.2} />
        ) : kind === 'dicom' ? (
          <IconScan size={48} stroke={1.2} />
        ) : (
          <IconFile size={48} stroke={1.2} />
        )}
      </Center>
    );

  return (
    <Card
      withBorder
      padding="sm"
      radius="md"
      data-testid="attachment-card"
      data-attachment-id={item.id}
    >
      <Card.Section>{preview}</Card.Section>
      <Stack gap={6} mt="sm">
        <Group justify="space-between" wrap="nowrap" gap="xs">
          <Group gap={6} wrap="nowrap" style={{ minWidth: 0 }}>
            {item.bucketName === 'planning' && (
              <Badge size="sm" variant="outline" color="dark" style={{ flexShrink: 0 }}>
                {t('files:versions.label', { version: item.version })}
              </Badge>
            )}
            <Text fw={600} size="sm" truncate>
              {title}
            </Text>
          </Group>
          <Badge
            size="sm"
            variant="light"
            color={STATUS_COLORS[item.status] ?? 'gray'}
            style={{ flexShrink: 0 }}
          >
            {t(`domain:attachmentStatuses.${item.status}`)}
          </Badge>
        </Group>
        <Group justify="space-between" wrap="nowrap" gap="xs">
          <Text size="xs" c="dimmed" truncate title={item.filename ?? undefined}>
            {item.filename} {item.filesize ? `· ${formatBytes(item.filesize, i18n.language)}` : ''}
          </Text>
          <Group gap={2} wrap="nowrap">
            {(kind === 'stl' || kind === 'dicom') && (
              <Tooltip
                label={t(kind === 'stl' ? 'files:viewers.open3d' : 'files:viewers.openDicom')}
              >
                <ActionIcon
                  variant="subtle"
                  aria-label={t(
                    kind === 'stl' ? 'files:viewers.open3d' : 'files:viewers.openDicom',
                  )}
                  onClick={() => props.onOpen(item)}
                >
                  {kind === 'stl' ? <IconCube size={16} /> : <IconScan size={16} />}
                </ActionIcon>
              </Tooltip>
            )}
            {props.onCompare && (
              <Tooltip label={t('files:planCompare.open')}>
                <ActionIcon
                  variant="subtle"
                  aria-label={t('files:planCompare.open')}
                  onClick={() => props.onCompare?.(item)}
                >
                  <IconGitCompare size={16} />
                </ActionIcon>
              </Tooltip>
            )}
            <Tooltip label={t('files:common.download')}>
              <ActionIcon
                variant="subtle"
                aria-label={t('files:common.download')}
                onClick={() => void download(item.id)}
              >
                <IconDownload size={16} />
              </ActionIcon>
            </Tooltip>
          </Group>
        </Group>
        {item.bucketName === 'planning' && (
          <Text size="xs" c="dimmed" data-testid="published-by">
            {item.publishedAt && item.publishedBy
              ? t('files:versions.publishedBy', {
                  name: item.publishedBy.name,
                  date: formatDate(item.publishedAt, true),
                })
              : t('files:versions.notPublished')}
          </Text>
        )}
        {item.supersededAt && (
          <Text size="xs" c="dimmed">
            {t('files:versions.superseded', { date: formatDate(item.supersededAt, true) })}
          </Text>
        )}
        {!isAttachmentOk(item.status) && item.justification && (
          <Text size="xs" c="orange.8">
            {t('files:requestChange.requested', { text: item.justification })}
          </Text>
        )}
        {item.bucketName === 'planning' && isPublished(item.status) && item.freeze && (
          <Text size="xs" c="dimmed">
            {t('files:card.frozen')}
          </Text>
        )}
        <AttachmentActions
          attachmentId={item.id}
          actions={item.actions}
          readOnly={props.readOnly}
          onDone={props.onChanged}
        />
      </Stack>
    </Card>
  );
}
