import { useState } from 'react';
import { useNavigate } from 'react-router';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { Alert, Button, Group, Modal, Stack, Text, Title } from '@mantine/core';
import { IconAlertTriangle, IconTrash } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import { ApiError, api, clearSession } from '../../../lib/api-client';
import { showError, showSuccess } from '../../../lib/notify';
import { PasswordField } from '../../../lib/ui/password-field';

export const deleteOwnAccount = (password: string) =>
  api.post<{ deleted: true }>('/profile/delete', { password });

/**
 * Profile → Privacy: "Delete my account". The server anonymizes the account and ends every
 * session, so afterwards this browser forgets its session and goes to the login page.
 */
export function PrivacyDeleteAccount() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const [opened, setOpened] = useState(false);
  const [password, setPassword] = useState('');
  const [passwordError, setPasswordError] = useState<string | null>(null);
  const remove = useMutation({ mutationFn: deleteOwnAccount });

  const close = () => {
    setOpened(false);
    setPassword('');
    setPasswordError(null);
  };

  const confirm = () => {
    if (!password) {
      setPasswordError(t('privacy.delete.passwordRequired'));
      return;
    }
    remove.mutate(password, {
      onSuccess: () => {
        clearSession();
        showSuccess(t('privacy.delete.done'));
        // Leave the main layout before clearing the cache (its queries would refetch). The
        // cache is cleared even if the navigation fails: the account is gone either way.
        void Promise.resolve(navigate('/login', { replace: true })).finally(() =>
          queryClient.clear(),
        );
      },
      onError: (error) => {
        if (error instanceof ApiError && error.code === 'WRONG_PASSWORD') {
          setPasswordError(error.message);
        } else {
          showError(error);
        }
      },
    });
  };

  return (
    <Stack gap="xs" align="flex-start">
      <Title order={2} size="h4">
        {t('privacy.delete.title')}
      </Title>
      <Text size="sm" c="dimmed">
        {t('privacy.delete.body')}
      </Text>
      <Button
        color="red"
        variant="light"
        leftSection={<IconTrash size={16} />}
        onClick={() => setOpened(true)}
      >
        {t('privacy.delete.button')}
      </Button>
      <Modal opened={opened} onClose={close} title={t('privacy.delete.dialogTitle')} centered>
        <form
          noValidate
          onSubmit={(event) => {
            event.preventDefault();
            confirm();
          }}
        >
          <Stack>
            <Alert color="red" icon={<IconAlertTriangle size={18} />}>
              {t('privacy.delete.warning')}
            </Alert>
            <PasswordField
              label={t('privacy.delete.password')}
              autoComplete="current-password"
              required
              data-autofocus
              value={password}
              error={passwordError}
              onChange={(event) => {
                setPassword(event.currentTarget.value);
                setPasswordError(null);
              }}
            />
            <Group justify="flex-end">
              <Button variant="default" onClick={close} disabled={remove.isPending}>
                {t('privacy.delete.cancel')}
              </Button>
              <Button type="submit" color="red" loading={remove.isPending}>
                {t('privacy.delete.confirm')}
              </Button>
            </Group>
          </Stack>
        </form>
      </Modal>
    </Stack>
  );
}
