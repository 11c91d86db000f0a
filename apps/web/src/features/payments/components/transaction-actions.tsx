import { useState } from 'react';
import { Button, Group } from '@mantine/core';
import {
  IconBan,
  IconCheck,
  IconFileInvoice,
  IconHash,
  IconReceipt,
  IconRefresh,
  IconX,
} from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import type { TransactionAction, TransactionView } from '@dentflow/domain';
import { showError, showSuccess } from '../../../lib/notify';
import { ConfirmDialog } from '../../../lib/ui/confirm-dialog';
import { TextDialog } from '../../../lib/ui/text-dialog';
import { useTransactionCommand, type TransactionCommand } from '../api/transaction-commands';
import { CancelDialog } from './cancel-dialog';
import { InvoiceDialog } from './invoice-dialog';
import { ReceiptDialog } from './receipt-dialog';

/** The yes/no confirmations: what each asks and the command it sends. */
const CONFIRMATIONS = {
  approveReceipt: { command: { kind: 'authReceipt', approve: true }, danger: false },
  denyReceipt: { command: { kind: 'authReceipt', approve: false }, danger: true },
  confirmPayment: { command: { kind: 'checkPhysicalPayment' }, danger: false },
  authorizeCancel: { command: { kind: 'authCancel', authorize: true }, danger: true },
  denyCancel: { command: { kind: 'authCancel', authorize: false }, danger: false },
} as const satisfies Record<string, { command: TransactionCommand; danger: boolean }>;
type Confirmation = keyof typeof CONFIRMATIONS;

type OpenDialog =
  | { kind: 'receipt' | 'invoice' | 'invoiceNumber' | 'cancel' }
  | { kind: 'confirm'; confirmation: Confirmation }
  | null;

/** The buttons in display order, each shown only when the server lists its action. */
const BUTTON_ORDER: readonly TransactionAction[] = [
  'submitReceipt',
  'authReceipt',
  'checkPhysicalPayment',
  'authCancel',
  'setInvoiceCustomer',
  'setInvoiceNumber',
  'refresh',
  'cancel',
];

/**
 * The actions the server allows on a transaction (`transaction.actions`), with their dialogs.
 * `only` narrows them (the supervisors' queue shows the authorisations only).
 */
export function TransactionActions(props: {
  transaction: TransactionView;
  only?: readonly TransactionAction[];
}) {
  const { transaction } = props;
  const { t } = useTranslation();
  const [dialog, setDialog] = useState<OpenDialog>(null);
  const command = useTransactionCommand(transaction);
  const allowed = BUTTON_ORDER.filter(
    (action) =>
      transaction.actions.includes(action) && (!props.only || props.only.includes(action)),
  );
  if (allowed.length === 0) return null;

  const close = () => {
    setDialog(null);
    command.reset();
  };
  /** Sends a command; dialogs with fields keep the error inside, the others notify it. */
  const run = (next: TransactionCommand, doneKey: string, errorInDialog = false) =>
    command.mutate(next, {
      onSuccess: () => {
        showSuccess(t(doneKey));
        setDialog(null);
      },
      onError: (error) => {
        if (!errorInDialog) {
          setDialog(null);
          showError(error);
        }
      },
    });

  /** Each dialog starts without the error of an earlier command. */
  const open = (next: NonNullable<OpenDialog>) => {
    command.reset();
    setDialog(next);
  };
  const confirmation = dialog?.kind === 'confirm' ? dialog.confirmation : null;
  const askConfirm = (name: Confirmation) => open({ kind: 'confirm', confirmation: name });
  const confirmKey = (name: Confirmation, part: string) =>
    name === 'confirmPayment'
      ? `payments:confirm.${name}.${transaction.paymentMethod === 'dentalPrev' ? 'insurance' : 'cardMachine'}.${part}`
      : `payments:confirm.${name}.${part}`;

  const buttons: Record<TransactionAction, React.ReactNode> = {
    pay: null,
    submitReceipt: (
      <Button
        key="submitReceipt"
        size="xs"
        leftSection={<IconReceipt size={14} />}
        onClick={() => open({ kind: 'receipt' })}
        data-testid="receipt-open"
      >
        {t('payments:actions.submitReceipt')}
      </Button>
    ),
    authReceipt: (
      <Group key="authReceipt" gap="xs">
        <Button
          size="xs"
          color="green"
          leftSection={<IconCheck size={14} />}
          onClick={() => askConfirm('approveReceipt')}
          data-testid="receipt-approve"
        >
          {t('payments:actions.approveReceipt')}
        </Button>
        <Button
          size="xs"
          color="red"
          variant="light"
          leftSection={<IconX size={14} />}
          onClick={() => askConfirm('denyReceipt')}
          data-testid="receipt-deny"
        >
          {t('payments:actions.denyReceipt')}
        </Button>
      </Group>
    ),
    checkPhysicalPayment: (
      <Button
        key="checkPhysicalPayment"
        size="xs"
        color="green"
        leftSection={<IconCheck size={14} />}
        onClick={() => askConfirm('confirmPayment')}
        data-testid="payment-confirm"
      >
        {t(confirmKey('confirmPayment', 'button'))}
      </Button>
    ),
    authCancel: (
      <Group key="authCancel" gap="xs">
        <Button
          size="xs"
          color="red"
          leftSection={<IconBan size={14} />}
          onClick={() => askConfirm('authorizeCancel')}
          data-testid="cancel-authorize"
        >
          {t('payments:actions.authorizeCancel')}
        </Button>
        <Button
          size="xs"
          variant="default"
          onClick={() => askConfirm('denyCancel')}
          data-testid="cancel-deny"
        >
          {t('payments:actions.denyCancel')}
        </Button>
      </Group>
    ),
    setInvoiceCustomer: (
      <Button
        key="setInvoiceCustomer"
        size="xs"
        variant="light"
        leftSection={<IconFileInvoice size={14} />}
        onClick={() => open({ kind: 'invoice' })}
        data-testid="invoice-open"
      >
        {t('payments:actions.setInvoiceCustomer')}
      </Button>
    ),
    setInvoiceNumber: (
      <Button
        key="setInvoiceNumber"
        size="xs"
        variant="light"
        leftSection={<IconHash size={14} />}
        onClick={() => open({ kind: 'invoiceNumber' })}
        data-testid="invoice-number-open"
      >
        {t('payments:actions.setInvoiceNumber')}
      </Button>
    ),
    refresh: (
      <Button
        key="refresh"
        size="xs"
        variant="default"
        leftSection={<IconRefresh size={14} />}
        loading={command.isPending && command.variables?.kind === 'refresh'}
        onClick={() => run({ kind: 'refresh' }, 'payments:done.refresh')}
        data-testid="transaction-refresh"
      >
        {t('payments:actions.refresh')}
      </Button>
    ),
    cancel: (
      <Button
        key="cancel"
        size="xs"
        variant="subtle"
        color="red"
        leftSection={<IconBan size={14} />}
        onClick={() => open({ kind: 'cancel' })}
        data-testid="cancel-open"
      >
        {t('payments:actions.cancel')}
      </Button>
    ),
  };

  return (
    <>
      <Group gap="xs" wrap="wrap" data-testid="transaction-actions">
        {allowed.map((action) => buttons[action])}
      </Group>
      <ReceiptDialog
        opened={dialog?.kind === 'receipt'}
        transaction={transaction}
        onClose={close}
      />
      <InvoiceDialog
        opened={dialog?.kind === 'invoice'}
        invoice={transaction.invoice}
        loading={command.isPending}
        error={command.error}
        onSubmit={(body) =>
          run({ kind: 'setInvoiceCustomer', body }, 'payments:done.setInvoiceCustomer', true)
        }
        onClose={close}
      />
      <TextDialog
        opened={dialog?.kind === 'invoiceNumber'}
        title={t('payments:invoiceNumber.title')}
        label={t('payments:invoiceNumber.label')}
        submitLabel={t('payments:invoiceNumber.save')}
        limit={60}
        loading={command.isPending}
        onSubmit={(invoiceNumber) =>
          run({ kind: 'setInvoiceNumber', invoiceNumber }, 'payments:done.setInvoiceNumber')
        }
        onClose={close}
      />
      <CancelDialog
        opened={dialog?.kind === 'cancel'}
        loading={command.isPending}
        error={command.error}
        onSubmit={(body) => run({ kind: 'cancel', body }, 'payments:done.cancel', true)}
        onClose={close}
      />
      <ConfirmDialog
        opened={confirmation !== null}
        title={confirmation ? t(confirmKey(confirmation, 'title')) : ''}
        message={confirmation ? t(confirmKey(confirmation, 'message')) : ''}
        confirmLabel={confirmation ? t(confirmKey(confirmation, 'button')) : ''}
        danger={confirmation ? CONFIRMATIONS[confirmation].danger : false}
        loading={command.isPending}
        onConfirm={() => {
          if (confirmation) {
            run(CONFIRMATIONS[confirmation].command, confirmKey(confirmation, 'done'));
          }
        }}
        onClose={close}
      />
    </>
  );
}
