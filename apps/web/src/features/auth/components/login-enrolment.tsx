import { useState } from 'react';
import { Alert, Checkbox, Stack, Text, Title } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { ApiError } from '../../../lib/api-client';
import { errorMessage } from '../../../lib/notify';
import {
  keepEnrolledSession,
  loginEnrolmentSecret,
  useConfirmLoginEnrolment,
} from '../api/two-factor-login';
import { AuthenticatorSetup } from './authenticator-setup';
import { RecoveryCodes } from './recovery-codes';

type Enrolled = Awaited<ReturnType<typeof keepEnrolledSession>>;

/**
 * The enrolment a login asks of an admin or supervisor without a second factor: the account is
 * not usable before. The session is kept once the recovery codes were shown.
 */
export function LoginEnrolment(props: {
  challenge: string;
  onDone: () => void;
  onExpired: (reason: ApiError) => void;
}) {
  const { t } = useTranslation();
  const confirm = useConfirmLoginEnrolment();
  const [rememberDevice, setRememberDevice] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [enrolled, setEnrolled] = useState<Enrolled | null>(null);

  if (enrolled) {
    return (
      <RecoveryCodes
        codes={enrolled.recoveryCodes ?? []}
        onDone={() => {
          keepEnrolledSession(enrolled);
          props.onDone();
        }}
      />
    );
  }

  return (
    <Stack>
      <div>
        <Title order={1} size="h2">
          {t('auth.twoFactor.enrolTitle')}
        </Title>
        <Text c="dimmed" size="sm">
          {t('auth.twoFactor.enrolIntro')}
        </Text>
      </div>
      <Alert color="blue">{t('auth.twoFactor.enrolRequired')}</Alert>
      <AuthenticatorSetup
        queryKey={['twoFactor', 'loginSecret', props.challenge]}
        loadSecret={() => loginEnrolmentSecret(props.challenge)}
        confirming={confirm.isPending}
        error={error}
        confirm={(code) =>
          confirm.mutate(
            { challenge: props.challenge, code, rememberDevice },
            {
              onSuccess: setEnrolled,
              onError: (failure) => {
                if (
                  failure instanceof ApiError &&
                  failure.code === 'TWO_FACTOR_CHALLENGE_EXPIRED'
                ) {
                  props.onExpired(failure);
                } else {
                  setError(errorMessage(failure));
                }
              },
            },
          )
        }
      >
        <Checkbox
          label={t('auth.twoFactor.rememberDevice')}
          checked={rememberDevice}
          onChange={(event) => setRememberDevice(event.currentTarget.checked)}
        />
      </AuthenticatorSetup>
    </Stack>
  );
}
