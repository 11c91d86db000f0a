import { lazy, Suspense, useState } from 'react';
import { Link, useLocation, useNavigate } from 'react-router';
import {
  Alert,
  Anchor,
  Button,
  Checkbox,
  Group,
  Stack,
  Text,
  TextInput,
  Title,
} from '@mantine/core';
import { useForm } from '@mantine/form';
import { useTranslation } from 'react-i18next';
import { ApiError } from '../../../lib/api-client';
import { translateErrorKey } from '../../../lib/i18n';
import { showError, showSuccess } from '../../../lib/notify';
import { redirectAfterLogin } from '../../../lib/login-redirect';
import { isChallenge, useLogin, type TwoFactorChallenge } from '../api/login';
import { useResendVerification } from '../api/resend-verification';
import { hasSeenWelcome } from '../../../lib/session-storage';
import { PasswordField } from '../../../lib/ui/password-field';

// Only a first visit shows the welcome pop-up: its dialog code loads then, not on every login.
const WelcomeModal = lazy(() =>
  import('../components/welcome-modal').then((module) => ({ default: module.WelcomeModal })),
);

// The second-factor steps load when a login needs them (the login route's size budget).
const SecurityCodeDialog = lazy(() =>
  import('../components/security-code-dialog').then((module) => ({
    default: module.SecurityCodeDialog,
  })),
);
const LoginEnrolment = lazy(() =>
  import('../components/login-enrolment').then((module) => ({ default: module.LoginEnrolment })),
);

export function LoginPage() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const location = useLocation();
  const loginMutation = useLogin();
  const resend = useResendVerification();
  const [failure, setFailure] = useState<ApiError | null>(null);
  const [challenge, setChallenge] = useState<TwoFactorChallenge['twoFactor'] | null>(null);
  const enter = () => void navigate(redirectAfterLogin(location.state), { replace: true });
  /** Back to the password (cancelled, or the step expired: then with the reason). */
  const backToPassword = (reason?: ApiError) => {
    setChallenge(null);
    form.setFieldValue('password', '');
    if (reason) setFailure(reason);
  };

  const form = useForm({
    initialValues: { login: '', password: '', remember: false },
    validate: {
      // A plain presence check: importing the domain's form rules would pull zod into the login
      // route; the server validates the same.
      login: (value) => (value.trim() ? null : translateErrorKey('validation.required')),
      password: (value) => (value ? null : translateErrorKey('validation.required')),
    },
  });

  const submit = form.onSubmit((values) => {
    setFailure(null);
    loginMutation.mutate(
      { login: values.login.trim(), password: values.password, remember: values.remember },
      {
        onSuccess: (answer) => (isChallenge(answer) ? setChallenge(answer.twoFactor) : enter()),
        onError: (error) => {
          if (error instanceof ApiError) setFailure(error);
          else showError(error);
        },
      },
    );
  });

  const [firstVisit] = useState(() => !hasSeenWelcome());
  const notVerified = failure?.code === 'ACCOUNT_NOT_VERIFIED';

  if (challenge?.step === 'enrol') {
    return (
      <Suspense fallback={null}>
        <LoginEnrolment challenge={challenge.challenge} onDone={enter} onExpired={backToPassword} />
      </Suspense>
    );
  }

  return (
    <Stack>
      {challenge?.step === 'code' && (
        <Suspense fallback={null}>
          <SecurityCodeDialog
            challenge={challenge.challenge}
            onVerified={enter}
            onCancel={backToPassword}
          />
        </Suspense>
      )}
      {firstVisit && (
        <Suspense fallback={null}>
          <WelcomeModal />
        </Suspense>
      )}
      <div>
        <Title order={1} size="h2">
          {t('auth.login.title')}
        </Title>
        <Text c="dimmed" size="sm">
          {t('auth.login.subtitle')}
        </Text>
      </div>
      {failure && (
        <Alert color="red" title={t('feedback.error')} role="alert">
          <Stack gap="xs">
            <Text size="sm">{failure.message}</Text>
            {notVerified && (
              <Group>
                <Button
                  size="xs"
                  variant="white"
                  color="red"
                  loading={resend.isPending}
                  onClick={() =>
                    resend.mutate(form.values.login.trim(), {
                      onSuccess: () => {
                        setFailure(null);
                        showSuccess(t('auth.verify.resent'));
                      },
                      onError: showError,
                    })
                  }
                >
                  {t('auth.login.resend')}
                </Button>
              </Group>
            )}
          </Stack>
        </Alert>
      )}
      <form onSubmit={submit} noValidate>
        <Stack>
          <TextInput
            label={t('auth.login.login')}
            autoComplete="username"
            required
            {...form.getInputProps('login')}
          />
          <PasswordField
            label={t('auth.login.password')}
            autoComplete="current-password"
            required
            {...form.getInputProps('password')}
          />
          <Group justify="space-between">
            <Checkbox
              label={t('auth.login.remember')}
              {...form.getInputProps('remember', { type: 'checkbox' })}
            />
            <Anchor component={Link} to="/forgotPassword" size="sm">
              {t('auth.login.forgot')}
            </Anchor>
          </Group>
          <Button type="submit" loading={loginMutation.isPending} fullWidth>
            {t('auth.login.submit')}
          </Button>
        </Stack>
      </form>
      <Text size="sm" ta="center">
        {t('auth.login.noAccount')}{' '}
        <Anchor component={Link} to="/register">
          {t('auth.login.register')}
        </Anchor>
      </Text>
    </Stack>
  );
}
