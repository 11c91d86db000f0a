import { Link, useParams } from 'react-router';
import { Alert, Anchor, Button, Stack, Text, Title } from '@mantine/core';
import { useForm } from '@mantine/form';
import { useTranslation } from 'react-i18next';
import { MESSAGE, passwordSchema } from '@dentflow/domain';
import { ApiError } from '../../../lib/api-client';
import { fieldRule } from '../../../lib/form';
import { translateErrorKey } from '../../../lib/i18n';
import { showError } from '../../../lib/notify';
import { useResetPassword } from '../api/reset-password';
import { PasswordField } from '../../../lib/ui/password-field';

export function ResetPasswordPage() {
  const { t } = useTranslation();
  const { token = '' } = useParams();
  const reset = useResetPassword();
  const form = useForm({
    initialValues: { password: '', confirmPassword: '' },
    validate: {
      password: fieldRule(passwordSchema),
      confirmPassword: (value, values) =>
        value === values.password ? null : translateErrorKey(MESSAGE.confirmed),
    },
  });

  if (reset.isSuccess) {
    return (
      <Stack>
        <Title order={1} size="h2">
          {t('auth.reset.title')}
        </Title>
        <Alert color="green" title={t('feedback.success')} role="status">
          {t('auth.reset.done')}
        </Alert>
        <Button component={Link} to="/login">
          {t('auth.goToLogin')}
        </Button>
      </Stack>
    );
  }

  return (
    <Stack>
      <div>
        <Title order={1} size="h2">
          {t('auth.reset.title')}
        </Title>
        <Text c="dimmed" size="sm">
          {t('auth.reset.description')}
        </Text>
      </div>
      {reset.error instanceof ApiError && reset.error.code === 'INVALID_TOKEN' && (
        <Alert color="red" title={t('feedback.error')} role="alert">
          <Text size="sm">{reset.error.message}</Text>
          <Anchor component={Link} to="/forgotPassword" size="sm">
            {t('auth.reset.requestNew')}
          </Anchor>
        </Alert>
      )}
      <form
        noValidate
        onSubmit={form.onSubmit((values) =>
          reset.mutate(
            { token, ...values },
            {
              onError: (error) => {
                if (error instanceof ApiError && error.code === 'INVALID_TOKEN') return;
                if (error instanceof ApiError) form.setErrors(error.fields);
                showError(error);
              },
            },
          ),
        )}
      >
        <Stack>
          <PasswordField
            label={t('auth.reset.password')}
            description={t('auth.passwordPolicy')}
            autoComplete="new-password"
            required
            {...form.getInputProps('password')}
          />
          <PasswordField
            label={t('auth.reset.confirmPassword')}
            autoComplete="new-password"
            required
            {...form.getInputProps('confirmPassword')}
          />
          <Button type="submit" loading={reset.isPending} fullWidth>
            {t('auth.reset.submit')}
          </Button>
        </Stack>
      </form>
      <Anchor component={Link} to="/login" size="sm" ta="center">
        {t('auth.backToLogin')}
      </Anchor>
    </Stack>
  );
}
