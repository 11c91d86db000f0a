import { Button, Group, Modal, Stack } from '@mantine/core';
import { useForm } from '@mantine/form';
import { useTranslation } from 'react-i18next';
import { showError, showSuccess } from '../../../lib/notify';
import { PasswordField } from '../../../lib/ui/password-field';
import { useSetUserPassword } from '../api/account-actions';

/** The domain's `adminSetPasswordBodySchema` limits. */
const PASSWORD_MIN = 8;
const PASSWORD_MAX = 200;

/** An admin sets a user's password; the user's sessions end. */
export function SetPasswordDialog(props: { userId: number; opened: boolean; onClose: () => void }) {
  const { t } = useTranslation();
  const setPassword = useSetUserPassword(props.userId);
  const form = useForm({
    initialValues: { password: '', confirm: '' },
    validate: {
      password: (value) =>
        value.length < PASSWORD_MIN
          ? t('admin:users.password.tooShort', { n: PASSWORD_MIN })
          : value.length > PASSWORD_MAX
            ? t('admin:users.password.tooLong', { n: PASSWORD_MAX })
            : null,
      confirm: (value, values) =>
        value !== values.password ? t('admin:users.password.mismatch') : null,
    },
  });

  const close = () => {
    form.reset();
    props.onClose();
  };

  const submit = form.onSubmit(({ password }) =>
    setPassword.mutate(password, {
      onSuccess: () => {
        showSuccess(t('admin:users.password.updated'));
        close();
      },
      onError: showError,
    }),
  );

  return (
    <Modal opened={props.opened} onClose={close} title={t('admin:users.password.title')} centered>
      <form onSubmit={submit} noValidate>
        <Stack>
          <PasswordField
            label={t('admin:users.password.new')}
            description={t('admin:users.password.hint')}
            autoComplete="new-password"
            required
            data-autofocus
            {...form.getInputProps('password')}
          />
          <PasswordField
            label={t('admin:users.password.confirm')}
            autoComplete="new-password"
            required
            {...form.getInputProps('confirm')}
          />
          <Group justify="flex-end">
            <Button variant="default" onClick={close} disabled={setPassword.isPending}>
              {t('admin:users.cancel')}
            </Button>
            <Button type="submit" loading={setPassword.isPending}>
              {t('admin:users.password.submit')}
            </Button>
          </Group>
        </Stack>
      </form>
    </Modal>
  );
}
