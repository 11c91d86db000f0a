import { useState } from 'react';
import { Group, Select, Stack, Text } from '@mantine/core';
import { Dropzone, type FileWithPath } from '@mantine/dropzone';
import { IconUpload } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import { ATTACHMENT_KINDS } from '@dentflow/domain';
import type { CaseTabBucket } from '../attachment-files';

/**
 * Drop or pick several files for a bucket. Photos and exams ask which kind they are (generic by
 * default); planning has one kind.
 */
export function UploadBox(props: {
  bucket: CaseTabBucket;
  onFiles: (files: File[], kind: string) => void;
  disabled?: boolean;
}) {
  const { t } = useTranslation();
  const kinds: readonly string[] = ATTACHMENT_KINDS[props.bucket];
  const [kind, setKind] = useState('generic');
  return (
    <Stack gap="xs">
      {kinds.length > 1 && (
        <Select
          label={t('files:upload.kind')}
          data={kinds.map((value) => ({
            value,
            label: t(`domain:attachments.${props.bucket}.${value}`),
          }))}
          value={kind}
          onChange={(value) => setKind(value ?? 'generic')}
          allowDeselect={false}
          maw={320}
        />
      )}
      <Dropzone
        onDrop={(files: FileWithPath[]) => props.onFiles(files, kind)}
        multiple
        disabled={props.disabled}
        aria-label={t('files:upload.dropzoneOf', {
          bucket: t(`domain:attachments.${props.bucket}.title`),
        })}
        data-testid={`dropzone-${props.bucket}`}
      >
        <Group justify="center" gap="sm" mih={72} style={{ pointerEvents: 'none' }}>
          <IconUpload size={28} stroke={1.5} />
          <div>
            <Text size="sm" fw={500}>
              {t('files:upload.drop')}
            </Text>
            <Text size="xs" c="dimmed">
              {t('files:upload.dropHint')}
            </Text>
          </div>
        </Group>
      </Dropzone>
    </Stack>
  );
}
