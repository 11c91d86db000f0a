import { Button, Group, Paper, Select, TextInput, Title } from '@mantine/core';
import { useForm } from '@mantine/form';
import { useTranslation } from 'react-i18next';
import { LANGUAGES, emailSchema } from '@dentflow/domain';
import { ApiError } from '../../../lib/api-client';
import { fieldRule } from '../../../lib/form';
import { currentLanguage } from '../../../lib/i18n';
import { showError, showSuccess } from '../../../lib/notify';
import { useInviteDoctor } from '../api/students-api';

/** An instructor invites a doctor by email; the mail goes in the chosen language. */
export function InviteForm() {
  const { t } = useTranslation();
  const invite = useInviteDoctor();
  const form = useForm({
    initialValues: { email: '', language: currentLanguage() },
    validate: { email: fieldRule(emailSchema) },
  });

  const submit = form.onSubmit((values) => {
    const email = values.email.trim();
    invite.mutate(
      { email, language: values.language },
      {
        onSuccess: () => {
          showSuccess(t('admin:students.invite.sent', { email }));
          form.reset();
        },
        onError: (error) => {
          if (error instanceof ApiError && error.status === 409) {
            form.setFieldError('email', t('admin:students.invite.alreadyStudent'));
            return;
          }
          if (error instanceof ApiError) form.setErrors(error.fields);
          showError(error);
        },
      },
    );
  });

  return (
    <Paper withBorder p="md" radius="md">
      <Title order={2} size="h4" mb="sm">
        {t('admin:students.invite.title')}
      </Title>
      <form onSubmit={submit} noValidate aria-label={t('admin:students.invite.title')}>
        <Group align="flex-start" wrap="wrap">
          <TextInput
            label={t('admin:students.invite.email')}
            type="email"
            autoComplete="off"
            required
            style={{ flex: '1 1 16rem' }}
            {...form.getInputProps('email')}
          />
          <Select
            label={t('admin:students.invite.language')}
            data={LANGUAGES.map((language) => ({
              value: language,
              label: t(`language.names.${language}`),
            }))}
            allowDeselect={false}
            style={{ flex: '0 1 14rem' }}
            {...form.getInputProps('language')}
          />
          <Button type="submit" loading={invite.isPending} mt={{ base: 0, sm: 25 }}>
            {t('admin:students.invite.submit')}
          </Button>
        </Group>
      </form>
    </Paper>
  );
}
