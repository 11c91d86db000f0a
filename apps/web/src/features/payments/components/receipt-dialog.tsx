import { useState } from 'react';
import { Alert, Button, FileInput, Group, Modal, Progress, Stack, Text } from '@mantine/core';
import { IconPaperclip } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import {
  RECEIPT_DESCRIPTION_MAX,
  RECEIPT_MAX_BYTES,
  canConfirmReceipt,
  isReceiptFileAllowed,
  type TransactionView,
} from '@dentflow/domain';
import { errorMessage, showSuccess } from '../../../lib/notify';
import { CountedTextarea } from '../../../lib/ui/counted-textarea';
import { formatBytes } from '../../attachments/attachment-files';
import { useSubmitReceipt } from '../api/submit-receipt';
import { usePhone } from './use-phone';

/** The file types the server accepts (it checks the bytes too). */
const RECEIPT_ACCEPT = 'application/pdf,image/png,image/jpeg,image/gif,image/webp';

function ReceiptForm(props: {
  transaction: Pick<TransactionView, 'id' | 'caseId'>;
  onClose: () => void;
}) {
  const { t, i18n } = useTranslation();
  const [file, setFile] = useState<File | null>(null);
  const [justification, setJustification] = useState('');
  const submit = useSubmitReceipt(props.transaction);
  const ready = canConfirmReceipt({ file, justification }) && !submit.isPending;

  const confirm = (event: React.FormEvent) => {
    event.preventDefault();
    if (!ready) return;
    submit.mutate(
      { file, justification },
      {
        onSuccess: () => {
          showSuccess(t('payments:receipt.sent'));
          props.onClose();
        },
      },
    );
  };

  return (
    <form onSubmit={confirm} noValidate>
      <Stack>
        <FileInput
          label={t('payments:receipt.file')}
          placeholder={t('payments:receipt.filePlaceholder')}
          description={
            // An oversized file is dropped silently; the limit is always stated here.
            <span aria-live="polite">
              {t('payments:receipt.fileHint', {
                size: formatBytes(RECEIPT_MAX_BYTES, i18n.language),
              })}
            </span>
          }
          accept={RECEIPT_ACCEPT}
          value={file}
          onChange={(chosen) => setFile(isReceiptFileAllowed(chosen) ? chosen : null)}
          leftSection={<IconPaperclip size={16} />}
          clearable
          disabled={submit.isPending}
          data-autofocus
          data-testid="receipt-file"
        />
        <CountedTextarea
          label={t('payments:receipt.justification')}
          value={justification}
          onChange={setJustification}
          limit={RECEIPT_DESCRIPTION_MAX}
        />
        <Text size="xs" c="dimmed">
          {t('payments:receipt.rule')}
        </Text>
        {submit.isPending && (
          <Progress
            value={submit.progress}
            animated={submit.progress >= 100}
            aria-label={t('payments:receipt.progress')}
            data-testid="receipt-progress"
          />
        )}
        {submit.isError && (
          <Alert color="red" title={t('feedback.error')} role="alert">
            {errorMessage(submit.error)}
          </Alert>
        )}
        <Group justify="flex-end">
          <Button variant="default" onClick={props.onClose} disabled={submit.isPending}>
            {t('cases:dialogs.cancel')}
          </Button>
          <Button
            type="submit"
            disabled={!ready}
            loading={submit.isPending}
            data-testid="receipt-confirm"
          >
            {t('payments:receipt.confirm')}
          </Button>
        </Group>
      </Stack>
    </form>
  );
}

/**
 * Receipt: a file (≤ RECEIPT_MAX_BYTES) and/or a justification (≤ 75 characters);
 * Confirm stays disabled until one of them is there. Sent as multipart with upload progress.
 */
export function ReceiptDialog(props: {
  opened: boolean;
  transaction: Pick<TransactionView, 'id' | 'caseId'>;
  onClose: () => void;
}) {
  const { t } = useTranslation();
  const phone = usePhone();
  return (
    <Modal
      opened={props.opened}
      onClose={props.onClose}
      title={t('payments:receipt.title')}
      fullScreen={phone}
      centered
    >
      {/* Mounted per opening, so each one starts empty. */}
      {props.opened && <ReceiptForm transaction={props.transaction} onClose={props.onClose} />}
    </Modal>
  );
}
