import { Button, Group, Modal, Text } from '@mantine/core';
import { useTranslation } from 'react-i18next';

/** Confirm dialog (yes/no) before an irreversible or destructive move. */
export function ConfirmDialog(props: {
  opened: boolean;
  title: string;
  message: string;
  confirmLabel: string;
  danger?: boolean;
  loading?: boolean;
  onConfirm: () => void;
  onClose: () => void;
}) {
  const { t } = useTranslation();
  return (
    <Modal opened={props.opened} onClose={props.onClose} title={props.title} centered>
      <Text mb="lg">{props.message}</Text>
      <Group justify="flex-end">
        <Button variant="default" onClick={props.onClose} disabled={props.loading}>
          {t('cases:dialogs.no')}
        </Button>
        <Button
          color={props.danger ? 'red' : undefined}
          onClick={props.onConfirm}
          loading={props.loading}
          data-autofocus
        >
          {props.confirmLabel}
        </Button>
      </Group>
    </Modal>
  );
}
