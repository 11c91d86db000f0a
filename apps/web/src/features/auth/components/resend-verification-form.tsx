import { useState } from 'react';
import { Alert, Button, Group, TextInput } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { showError } from '../../../lib/notify';
import { useResendVerification } from '../api/resend-verification';

/** Asks for a new verification email; the answer never reveals whether the account exists. */
export function ResendVerificationForm({ initialLogin = '' }: { initialLogin?: string }) {
  const { t } = useTranslation();
  const [login, setLogin] = useState(initialLogin);
  const resend = useResendVerification();

  if (resend.isSuccess) {
    return (
      <Alert color="green" title={t('feedback.success')}>
        {t('auth.verify.resent')}
      </Alert>
    );
  }
  return (
    <form
      onSubmit={(event) => {
        event.preventDefault();
        if (login.trim()) resend.mutate(login.trim(), { onError: showError });
      }}
    >
      <Group align="flex-end" wrap="nowrap">
        <TextInput
          style={{ flex: 1 }}
          label={t('auth.verify.resendLabel')}
          value={login}
          onChange={(event) => setLogin(event.currentTarget.value)}
          required
          autoComplete="username"
        />
        <Button type="submit" loading={resend.isPending} disabled={!login.trim()}>
          {t('auth.verify.resendSubmit')}
        </Button>
      </Group>
    </form>
  );
}
