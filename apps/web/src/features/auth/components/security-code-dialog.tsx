import { useState } from 'react';
import { Alert, Button, Checkbox, Group, Modal, Stack, Text } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { isRecoveryCode, isTotpCode } from '@dentflow/domain';
import { ApiError } from '../../../lib/api-client';
import { translateErrorKey } from '../../../lib/i18n';
import { errorMessage } from '../../../lib/notify';
import { useVerifyLoginCode } from '../api/two-factor-login';
import { SecurityCodeField } from './security-code-field';

/**
 * The security code prompt of a login: the authenticator code (or a recovery code) after a
 * right password. An expired step sends the user back to the password with the reason.
 */
export function SecurityCodeDialog(props: {
  challenge: string;
  onVerified: () => void;
  onCancel: (reason?: ApiError) => void;
}) {
  const { t } = useTranslation();
  const verify = useVerifyLoginCode();
  const [code, setCode] = useState('');
  const [rememberDevice, setRememberDevice] = useState(false);
  const [error, setError] = useState<string | null>(null);

  const submit = (event: React.FormEvent) => {
    event.preventDefault();
    if (!isTotpCode(code) && !isRecoveryCode(code)) {
      setError(translateErrorKey('validation.twoFactorCode'));
      return;
    }
    setError(null);
    verify.mutate(
      { challenge: props.challenge, code: code.trim(), rememberDevice },
      {
        onSuccess: props.onVerified,
        onError: (failure) => {
          if (failure instanceof ApiError && failure.code === 'TWO_FACTOR_CHALLENGE_EXPIRED') {
            props.onCancel(failure);
          } else {
            setError(errorMessage(failure));
            setCode('');
          }
        },
      },
    );
  };

  return (
    <Modal opened onClose={() => props.onCancel()} title={t('auth.twoFactor.codeTitle')} centered>
      <form onSubmit={submit} noValidate>
        <Stack>
          <Text size="sm">{t('auth.twoFactor.codeIntro')}</Text>
          {error && (
            <Alert color="red" role="alert">
              {error}
            </Alert>
          )}
          <SecurityCodeField value={code} onChange={setCode} recovery />
          <Text size="xs" c="dimmed">
            {t('auth.twoFactor.recoveryHint')}
          </Text>
          <Checkbox
            label={t('auth.twoFactor.rememberDevice')}
            checked={rememberDevice}
            onChange={(event) => setRememberDevice(event.currentTarget.checked)}
          />
          <Group justify="flex-end">
            <Button variant="default" onClick={() => props.onCancel()} disabled={verify.isPending}>
              {t('auth.twoFactor.cancel')}
            </Button>
            <Button type="submit" loading={verify.isPending}>
              {t('auth.twoFactor.verify')}
            </Button>
          </Group>
        </Stack>
      </form>
    </Modal>
  );
}
