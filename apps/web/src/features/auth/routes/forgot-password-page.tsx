import { Link } from 'react-router';
import { Alert, Anchor, Button, Stack, Text, TextInput, Title } from '@mantine/core';
import { useForm } from '@mantine/form';
import { useTranslation } from 'react-i18next';
import { emailSchema } from '@dentflow/domain';
import { fieldRule } from '../../../lib/form';
import { showError } from '../../../lib/notify';
import { useForgotPassword } from '../api/forgot-password';

export function ForgotPasswordPage() {
  const { t } = useTranslation();
  const forgot = useForgotPassword();
  const form = useForm({
    initialValues: { email: '' },
    validate: { email: fieldRule(emailSchema) },
  });

  return (
    <Stack>
      <div>
        <Title order={1} size="h2">
          {t('auth.forgot.title')}
        </Title>
        <Text c="dimmed" size="sm">
          {t('auth.forgot.description')}
        </Text>
      </div>
      {forgot.isSuccess ? (
        <Alert color="green" title={t('feedback.success')} role="status">
          {t('auth.forgot.sent')}
        </Alert>
      ) : (
        <form
          noValidate
          onSubmit={form.onSubmit((values) =>
            forgot.mutate(values.email.trim(), { onError: showError }),
          )}
        >
          <Stack>
            <TextInput
              label={t('auth.forgot.email')}
              type="email"
              autoComplete="email"
              required
              {...form.getInputProps('email')}
            />
            <Button type="submit" loading={forgot.isPending} fullWidth>
              {t('auth.forgot.submit')}
            </Button>
          </Stack>
        </form>
      )}
      <Anchor component={Link} to="/login" size="sm" ta="center">
        {t('auth.backToLogin')}
      </Anchor>
    </Stack>
  );
}
