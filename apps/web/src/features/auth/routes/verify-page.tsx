import { Link, useLocation, useParams } from 'react-router';
import { Alert, Anchor, Button, Center, Loader, Stack, Text, Title } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { errorMessage } from '../../../lib/notify';
import { useVerifyAccount } from '../api/verify-account';
import { ResendVerificationForm } from '../components/resend-verification-form';

/** /verify/:token verifies the account; /verify alone explains to check the email, with a resend form. */
export function VerifyPage() {
  const { t } = useTranslation();
  const { token } = useParams();
  const location = useLocation();
  const verification = useVerifyAccount(token);
  const registeredEmail = (location.state as { registeredEmail?: string } | null)?.registeredEmail;

  if (!token) {
    return (
      <Stack>
        <Title order={1} size="h2">
          {t('auth.verify.checkEmailTitle')}
        </Title>
        <Text>
          {registeredEmail
            ? t('auth.verify.checkEmailSent', { email: registeredEmail })
            : t('auth.verify.checkEmailBody')}
        </Text>
        <Text size="sm" c="dimmed">
          {t('auth.verify.resendHint')}
        </Text>
        <ResendVerificationForm initialLogin={registeredEmail} />
        <Anchor component={Link} to="/login" size="sm" ta="center">
          {t('auth.backToLogin')}
        </Anchor>
      </Stack>
    );
  }

  return (
    <Stack>
      <Title order={1} size="h2">
        {t('auth.verify.title')}
      </Title>
      {verification.isPending && (
        <Center py="md" role="status">
          <Stack align="center" gap="xs">
            <Loader />
            <Text c="dimmed">{t('auth.verify.verifying')}</Text>
          </Stack>
        </Center>
      )}
      {verification.isSuccess && (
        <>
          <Alert color="green" title={t('feedback.success')} role="status">
            {t('auth.verify.success')}
          </Alert>
          <Button component={Link} to="/login">
            {t('auth.goToLogin')}
          </Button>
        </>
      )}
      {verification.isError && (
        <>
          <Alert color="red" title={t('feedback.error')} role="alert">
            {errorMessage(verification.error)}
          </Alert>
          <Text size="sm" c="dimmed">
            {t('auth.verify.resendHint')}
          </Text>
          <ResendVerificationForm />
          <Anchor component={Link} to="/login" size="sm" ta="center">
            {t('auth.backToLogin')}
          </Anchor>
        </>
      )}
    </Stack>
  );
}
