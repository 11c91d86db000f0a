import { useMutation } from '@tanstack/react-query';
import { Button, Stack, Text, Title } from '@mantine/core';
import { IconDownload } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import { API_BASE, getAccessToken, readEnvelope, refreshSession } from '../../../lib/api-client';
import { showError, showSuccess } from '../../../lib/notify';

const EXPORT_PATH = '/profile/export';

/** The filename the server names, else a generic one. */
const filenameOf = (response: Response) =>
  /filename="([^"]+)"/.exec(response.headers.get('content-disposition') ?? '')?.[1] ??
  'dentflow-data.json';

/**
 * The export is a file, not the API's envelope: fetched with the bearer token (one refresh on a
 * 401, like every API call), errors read from the envelope.
 */
export async function downloadPersonalData(): Promise<string> {
  const get = (token: string | null) =>
    fetch(`${API_BASE}${EXPORT_PATH}`, {
      headers: token ? { authorization: `Bearer ${token}` } : {},
    });
  let response = await get(getAccessToken());
  if (response.status === 401) response = await get((await refreshSession()).accessToken);
  if (!response.ok) {
    const payload: unknown = await response.json().catch(() => undefined);
    readEnvelope(response.status, payload);
  }
  const filename = filenameOf(response);
  const url = URL.createObjectURL(await response.blob());
  try {
    const link = document.createElement('a');
    link.href = url;
    link.download = filename;
    document.body.append(link);
    link.click();
    link.remove();
  } finally {
    // After the click the browser holds the file; the next tick frees the blob.
    setTimeout(() => URL.revokeObjectURL(url), 0);
  }
  return filename;
}

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
