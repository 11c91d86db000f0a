import { useState, type FormEvent } from 'react';
import { useNavigate, useParams } from 'react-router';
import { Alert, Button, Code, Group, Loader, Stack, Text, TextInput, Title } from '@mantine/core';
import { IconAlertTriangle, IconCircleCheck } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import { normalizeCertificateCode } from '@dentflow/domain';
import { formatDate } from '../../../lib/format-date';
import { errorMessage } from '../../../lib/notify';
import { useCertificateCheck } from '../api/check-certificate';

/**
 * `/certificate/:code`: anyone, signed in or not, checks whether a code matches a stored
 * approval. It shows the match, its date and the files' SHA-256 — nothing else
 * (docs/decisions/028-plan-versions-and-approval-record.md).
 */
export function CertificatePage() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const { code: routeCode } = useParams();
  const code = routeCode ? normalizeCertificateCode(routeCode) : null;
  const [typed, setTyped] = useState(routeCode ?? '');
  const [invalid, setInvalid] = useState(false);
  const check = useCertificateCheck(code);

  const submit = (event: FormEvent) => {
    event.preventDefault();
    const normalized = normalizeCertificateCode(typed);
    setInvalid(normalized === null);
    if (normalized) void navigate(`/certificate/${normalized}`);
  };

  return (
    <Stack>
      <Title order={1} size="h3">
        {t('cases:certificate.page.title')}
      </Title>
      <Text size="sm" c="dimmed">
        {t('cases:certificate.page.intro')}
      </Text>
      <form onSubmit={submit} noValidate>
        <Group align="flex-end" wrap="nowrap">
          <TextInput
            label={t('cases:certificate.page.codeLabel')}
            value={typed}
            onChange={(event) => setTyped(event.currentTarget.value)}
            error={invalid ? t('cases:certificate.page.invalidCode') : undefined}
            autoCapitalize="characters"
            spellCheck={false}
            style={{ flex: 1 }}
          />
          <Button type="submit">{t('cases:certificate.page.check')}</Button>
        </Group>
      </form>
      {routeCode && code === null && (
        <Alert color="red" icon={<IconAlertTriangle size={18} />} data-testid="certificate-none">
          {t('cases:certificate.page.notFound')}
        </Alert>
      )}
      {check.isFetching && (
        <Group gap="xs">
          <Loader size="sm" />
          <Text size="sm">{t('cases:certificate.page.checking')}</Text>
        </Group>
      )}
      {check.isError && <Alert color="red">{errorMessage(check.error)}</Alert>}
      {check.data === null && (
        <Alert color="red" icon={<IconAlertTriangle size={18} />} data-testid="certificate-none">
          {t('cases:certificate.page.notFound')}
        </Alert>
      )}
      {check.data && (
        <Alert
          color="green"
          icon={<IconCircleCheck size={18} />}
          title={t('cases:certificate.page.valid', {
            date: formatDate(check.data.approvedAt, true),
          })}
          data-testid="certificate-match"
        >
          <Stack gap={6}>
            <Text size="sm">
              {t('cases:certificate.page.filesCount', { count: check.data.files.length })}
            </Text>
            {check.data.files.map((file) => (
              <Stack key={file.sha256 + file.version} gap={0}>
                <Text size="xs" fw={600}>
                  {t('cases:certificate.page.fileVersion', { version: file.version })}
                </Text>
                <Code style={{ overflowWrap: 'anywhere' }} data-testid="certificate-sha256">
                  {file.sha256}
                </Code>
              </Stack>
            ))}
          </Stack>
        </Alert>
      )}
      <Text size="xs" c="dimmed">
        {t('cases:certificate.page.privacy')}
      </Text>
    </Stack>
  );
}
