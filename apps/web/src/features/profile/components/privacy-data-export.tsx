import { useMutation } from '@tanstack/react-query';
import { Button, Stack, Text, Title } from '@mantine/core';
import { IconDownload } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import { downloadApiFile } from '../../../lib/download-file';
import { showError, showSuccess } from '../../../lib/notify';

/** The caller's data as a JSON file (the server names it). */
export const downloadPersonalData = (): Promise<string> =>
  downloadApiFile('/profile/export', 'dentflow-data.json');

/** Profile → Privacy: "Download my data". */
export function PrivacyDataExport() {
  const { t } = useTranslation();
  const download = useMutation({ mutationFn: downloadPersonalData });
  return (
    <Stack gap="xs" align="flex-start">
      <Title order={2} size="h4">
        {t('privacy.export.title')}
      </Title>
      <Text size="sm" c="dimmed">
        {t('privacy.export.body')}
      </Text>
      <Button
        leftSection={<IconDownload size={16} />}
        loading={download.isPending}
        onClick={() =>
          download.mutate(undefined, {
            onSuccess: () => showSuccess(t('privacy.export.done')),
            onError: showError,
          })
        }
      >
        {t('privacy.export.button')}
      </Button>
    </Stack>
  );
}
