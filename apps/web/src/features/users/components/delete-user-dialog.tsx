import { useState } from 'react';
import { Button, Group, Modal, Stack, Text, TextInput } from '@mantine/core';
import { useTranslation } from 'react-i18next';

/**
 * Deleting anonymizes the account for good: the admin types the user's email to confirm (a
 * misclicked button cannot delete).
 */
export function DeleteUserDialog(props: {
  email: string;
  opened: boolean;
  loading: boolean;
  onConfirm: () => void;
  onClose: () => void;
}) {
  const { t } = useTranslation();
  const [typed, setTyped] = useState('');
  const matches = typed.trim().toLowerCase() === props.email.trim().toLowerCase();
  const close = () => {
    setTyped('');
    props.onClose();
  };
  return (
    <Modal opened={props.opened} onClose={close} title={t('admin:users.delete.title')} centered>
      <form
        onSubmit={(event) => {
          event.preventDefault();
          if (matches) props.onConfirm();
        }}
      >
        <Stack>
          <Text size="sm">{t('admin:users.delete.message')}</Text>
          <TextInput
            label={t('admin:users.delete.typeEmail', { email: props.email })}
            value={typed}
            onChange={(event) => setTyped(event.currentTarget.value)}
            autoComplete="off"
            data-autofocus
            data-testid="user-delete-confirm-email"
          />
          <Group justify="flex-end">
            <Button variant="default" onClick={close} disabled={props.loading}>
              {t('admin:users.cancel')}
            </Button>
            <Button
              type="submit"
              color="red"
              disabled={!matches}
              loading={props.loading}
              data-testid="user-delete-confirm"
            >
              {t('admin:users.delete.confirm')}
            </Button>
          </Group>
        </Stack>
      </form>
    </Modal>
  );
}
