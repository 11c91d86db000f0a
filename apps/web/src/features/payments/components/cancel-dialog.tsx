import { useState } from 'react';
import { Alert, Button, Group, Modal, Select, Stack } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import {
  CANCEL_REASONS,
  isCancelValid,
  type CancelReasonId,
  type CancelRequest,
} from '@dentflow/domain';
import { errorMessage } from '../../../lib/notify';
import { CountedTextarea } from '../../../lib/ui/counted-textarea';
import { usePhone } from './use-phone';

/** The cancel request's description limit (the domain's cancelRequestSchema). */
const CANCEL_DESCRIPTION_MAX = 500;

function CancelForm(props: {
  loading: boolean;
  error: unknown;
  onSubmit: (request: CancelRequest) => void;
  onClose: () => void;
}) {
  const { t } = useTranslation();
  const [reason, setReason] = useState<string | null>(null);
  const [description, setDescription] = useState('');
  const reasonId = reason === null ? null : Number(reason);
  const valid = isCancelValid({ reasonId, description });
  const reasons = Object.entries(CANCEL_REASONS).map(([key, id]) => ({
    value: String(id),
    label: t(`domain:cancelReasons.${key}`),
  }));

  const submit = (event: React.FormEvent) => {
    event.preventDefault();
    if (!valid || reasonId === null) return;
    props.onSubmit({ reasonId: reasonId as CancelReasonId, description: description.trim() });
  };

  return (
    <form onSubmit={submit} noValidate>
      <Stack>
        <Select
          label={t('payments:cancel.reason')}
          placeholder={t('payments:cancel.reasonPlaceholder')}
          data={reasons}
          value={reason}
          onChange={setReason}
          allowDeselect={false}
          required
          data-autofocus
          comboboxProps={{ withinPortal: false }}
        />
        <CountedTextarea
          label={t('payments:cancel.description')}
          value={description}
          onChange={setDescription}
          limit={CANCEL_DESCRIPTION_MAX}
          required
        />
        {props.error ? (
          <Alert color="red" title={t('feedback.error')} role="alert">
            {errorMessage(props.error)}
          </Alert>
        ) : null}
        <Group justify="flex-end">
          <Button variant="default" onClick={props.onClose} disabled={props.loading}>
            {t('cases:dialogs.cancel')}
          </Button>
          <Button
            type="submit"
            color="red"
            disabled={!valid}
            loading={props.loading}
            data-testid="cancel-confirm"
          >
            {t('payments:cancel.confirm')}
          </Button>
        </Group>
      </Stack>
    </form>
  );
}

/**
 * Cancel request: a reason (1, 2, 3 or 6) and a description, both required; confirm stays
 * disabled until `isCancelValid`. A supervisor then authorises or denies it.
 */
export function CancelDialog(props: {
  opened: boolean;
  loading?: boolean;
  error?: unknown;
  onSubmit: (request: CancelRequest) => void;
  onClose: () => void;
}) {
  const { t } = useTranslation();
  const phone = usePhone();
  return (
    <Modal
      opened={props.opened}
      onClose={props.onClose}
      title={t('payments:cancel.title')}
      fullScreen={phone}
      centered
    >
      {props.opened && (
        <CancelForm
          loading={props.loading ?? false}
          error={props.error ?? null}
          onSubmit={props.onSubmit}
          onClose={props.onClose}
        />
      )}
    </Modal>
  );
}
