import { Button, Group, Stack } from '@mantine/core';
import { useForm } from '@mantine/form';
import { useTranslation } from 'react-i18next';
import { MESSAGE, passwordSchema } from '@dentflow/domain';
import { ApiError } from '../../../lib/api-client';
import { fieldRule } from '../../../lib/form';
import { translateErrorKey } from '../../../lib/i18n';
import { showError, showSuccess } from '../../../lib/notify';
import { useUpdatePassword } from '../api/update-password';
import { PasswordField } from '../../../lib/ui/password-field';

export function PasswordTab() {
  const { t } = useTranslation();
  const update = useUpdatePassword();
  const form = useForm({
    initialValues: { currentPassword: '', newPassword: '', confirmPassword: '' },
    validate: {
      currentPassword: (value) => (value ? null : translateErrorKey(MESSAGE.required)),
      newPassword: fieldRule(passwordSchema),
      confirmPassword: (value, values) =>
        value === values.newPassword ? null : translateErrorKey(MESSAGE.confirmed),
    },
  });

  const submit = form.onSubmit((values) =>
    update.mutate(values, {
      onSuccess: () => {
        form.reset();
        showSuccess(t('profile.password.updated'));
      },
      onError: (error) => {
        if (error instanceof ApiError && error.code === 'WRONG_PASSWORD') {
          form.setFieldError('currentPassword', error.message);
        } else if (error instanceof ApiError) {
          form.setErrors(error.fields);
        }
        showError(error);
      },
    }),
  );

  return (
    <form onSubmit={submit} noValidate>
      <Stack maw={480}>
        <PasswordField
          label={t('profile.password.current')}
          autoComplete="current-password"
          required
          {...form.getInputProps('currentPassword')}
        />
        <PasswordField
          label={t('profile.password.new')}
          description={t('auth.passwordPolicy')}
          autoComplete="new-password"
          required
          {...form.getInputProps('newPassword')}
        />
        <PasswordField
          label={t('profile.password.confirm')}
          autoComplete="new-password"
          required
          {...form.getInputProps('confirmPassword')}
        />
        <Group justify="flex-end">
          <Button type="submit" loading={update.isPending}>
            {t('profile.password.submit')}
          </Button>
        </Group>
      </Stack>
    </form>
  );
}
