import { useState } from 'react';
import { Alert, Button, Center, Code, Skeleton, Stack, Text } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { QRCodeSVG } from 'qrcode.react';
import { useTranslation } from 'react-i18next';
import { groupSecret, isTotpCode } from '@dentflow/domain';
import { translateErrorKey } from '../../../lib/i18n';
import { errorMessage } from '../../../lib/notify';
import type { AuthenticatorSecret } from '../api/two-factor-login';
import { SecurityCodeField } from './security-code-field';

/**
 * Enrolment in an authenticator app: a new secret as QR code (the `otpauth://` URI) and as text,
 * confirmed with the first code the app shows. `children` go above the confirm button.
 */
export function AuthenticatorSetup(props: {
  /** Identifies this enrolment's secret (a new one is asked for each). */
  queryKey: readonly unknown[];
  loadSecret: () => Promise<AuthenticatorSecret>;
  confirm: (code: string) => void;
  confirming: boolean;
  error: string | null;
  children?: React.ReactNode;
}) {
  const { t } = useTranslation();
  const secret = useQuery({
    queryKey: props.queryKey,
    queryFn: props.loadSecret,
    staleTime: Infinity,
    gcTime: 0,
    retry: false,
  });
  const [code, setCode] = useState('');
  const [invalid, setInvalid] = useState<string | null>(null);

  if (secret.isPending) {
    return (
      <Stack aria-busy="true">
        <Text size="sm">{t('auth.twoFactor.loadingSecret')}</Text>
        <Skeleton h={200} w={200} />
      </Stack>
    );
  }
  if (secret.isError) {
    return (
      <Alert color="red" role="alert">
        {errorMessage(secret.error)}
      </Alert>
    );
  }

  const submit = (event: React.FormEvent) => {
    event.preventDefault();
    if (!isTotpCode(code)) {
      setInvalid(translateErrorKey('validation.twoFactorCode'));
      return;
    }
    setInvalid(null);
    props.confirm(code.trim());
  };

  return (
    <form onSubmit={submit} noValidate>
      <Stack>
        <Text size="sm">{t('auth.twoFactor.scan')}</Text>
        <Center>
          <QRCodeSVG
            value={secret.data.otpauthUri}
            size={184}
            marginSize={2}
            role="img"
            aria-label={t('auth.twoFactor.qrLabel')}
            title={t('auth.twoFactor.qrLabel')}
          />
        </Center>
        <Text size="sm">{t('auth.twoFactor.manual')}</Text>
        <Code
          block
          aria-label={t('auth.twoFactor.secretLabel')}
          data-testid="authenticator-secret"
          style={{ wordBreak: 'break-all', fontSize: 16 }}
        >
          {groupSecret(secret.data.secret)}
        </Code>
        <Text size="sm">{t('auth.twoFactor.firstCode')}</Text>
        {props.error && (
          <Alert color="red" role="alert">
            {props.error}
          </Alert>
        )}
        <SecurityCodeField value={code} onChange={setCode} error={invalid} />
        {props.children}
        <Button type="submit" loading={props.confirming}>
          {t('auth.twoFactor.confirm')}
        </Button>
      </Stack>
    </form>
  );
}
