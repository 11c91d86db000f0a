import { Link } from 'react-router';
import {
  Alert,
  Anchor,
  Badge,
  Button,
  Card,
  EmptyState,
  Group,
  Skeleton,
  Stack,
  Text,
  Title,
} from '@mantine/core';
import {
  IconAlertTriangle,
  IconChecklist,
  IconDownload,
  IconReceiptOff,
} from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import {
  formatMoney,
  type DeferredCasePayment,
  type PendingTransaction,
  type PendingWork,
} from '@dentflow/domain';
import { SupervisorOnly } from '../../../app/guards/role-only';
import { formatDate } from '../../../lib/format-date';
import { errorMessage } from '../../../lib/notify';
import { ListStates } from '../../../lib/ui/list-states';
import { StatusBadge } from '../../cases/components/status-badge';
import { useDeferredPayments } from '../api/list-deferred-payments';
import { usePendingTransactions } from '../api/list-pending-transactions';
import { PaymentStatusBadge } from '../components/payment-status-badge';
import { TransactionActions } from '../components/transaction-actions';

const WORK_COLORS: Record<PendingWork, string> = {
  receipt: 'blue',
  physical: 'grape',
  dentalPrev: 'indigo',
  cancel: 'red',
  paymentIssue: 'orange',
};

/** Since when the item waits: the receipt or the cancel request, else the last change. */
function waitingSince({ transaction, waitingFor }: PendingTransaction): string {
  if (waitingFor === 'receipt' && transaction.receipt) return transaction.receipt.submittedAt;
  if (waitingFor === 'cancel' && transaction.cancel) return transaction.cancel.requestAt;
  if (waitingFor === 'paymentIssue') return transaction.modifiedAt;
  return transaction.createdAt;
}

function PendingRow({ item }: { item: PendingTransaction }) {
  const { t } = useTranslation();
  const { transaction } = item;
  const patient = `${item.patient.fname} ${item.patient.lname}`.trim();
  const receipt = transaction.receipt;
  return (
    <Card
      withBorder
      radius="md"
      padding="md"
      component="li"
      data-testid={`pending-${transaction.id}`}
      aria-label={t('payments:queue.rowLabel', { patient, id: transaction.caseId })}
    >
      <Stack gap="xs">
        <Group justify="space-between" align="flex-start" gap="xs">
          <Stack gap={0} style={{ minWidth: 0 }}>
            <Text fw={600} style={{ overflowWrap: 'anywhere' }}>
              {patient}
            </Text>
            <Anchor component={Link} to={`/case/${transaction.caseId}?tab=transactions`} size="sm">
              {t('payments:queue.case', { id: transaction.caseId })}
            </Anchor>
          </Stack>
          <Group gap={6}>
            <Badge color={WORK_COLORS[item.waitingFor]} variant="light" radius="sm">
              {t(`payments:queue.waitingFor.${item.waitingFor}`)}
            </Badge>
            <PaymentStatusBadge status={transaction.paymentStatus} />
          </Group>
        </Group>
        <Group gap="lg">
          <Text size="sm">{t(`domain:paymentMethods.${transaction.paymentMethod}`)}</Text>
          <Text size="sm" fw={700}>
            {formatMoney(transaction.priceTotal, transaction.currency)}
          </Text>
          <Text size="xs" c="dimmed">
            {t('payments:queue.since', { date: formatDate(waitingSince(item), true) })}
          </Text>
        </Group>
        {transaction.pixTxid && (
          <Text size="sm" data-testid="pix-txid">
            {t('payments:queue.pixTxid', { txid: transaction.pixTxid })}
          </Text>
        )}
        {item.sameServicesAs.length > 0 && (
          <Alert
            color="orange"
            variant="light"
            icon={<IconAlertTriangle size={18} />}
            title={t('payments:queue.sameServicesTitle')}
            data-testid="same-services"
          >
            <Text size="sm">
              {t('payments:queue.sameServices', {
                count: item.sameServicesAs.length,
                ids: item.sameServicesAs.join(', #'),
              })}
            </Text>
          </Alert>
        )}
        {item.waitingFor === 'receipt' && receipt && (
          <Group gap="sm">
            {receipt.justification && (
              <Text size="sm" style={{ overflowWrap: 'anywhere' }}>
                “{receipt.justification}”
              </Text>
            )}
            {receipt.fileUrl && (
              <Anchor href={receipt.fileUrl} target="_blank" rel="noopener noreferrer" size="sm">
                <Group gap={4} component="span" wrap="nowrap">
                  <IconDownload size={14} />
                  {receipt.fileName ?? t('payments:card.receiptFile')}
                </Group>
              </Anchor>
            )}
          </Group>
        )}
        {item.waitingFor === 'cancel' && transaction.cancel && (
          <Text size="sm" style={{ overflowWrap: 'anywhere' }}>
            {transaction.cancel.description}
          </Text>
        )}
        <TransactionActions
          transaction={transaction}
          only={['authReceipt', 'checkPhysicalPayment', 'authCancel']}
        />
      </Stack>
    </Card>
  );
}

/** A case validated without payment: who owes what, why, and since when. */
function DeferredRow({ item }: { item: DeferredCasePayment }) {
  const { t } = useTranslation();
  const patient = `${item.patient.fname} ${item.patient.lname}`.trim();
  return (
    <Card
      withBorder
      radius="md"
      padding="md"
      component="li"
      data-testid={`deferred-${item.caseId}`}
      aria-label={t('payments:deferred.rowLabel', { patient, id: item.caseId })}
    >
      <Stack gap="xs">
        <Group justify="space-between" align="flex-start" gap="xs">
          <Stack gap={0} style={{ minWidth: 0 }}>
            <Text fw={600} style={{ overflowWrap: 'anywhere' }}>
              {patient}
            </Text>
            <Anchor component={Link} to={`/case/${item.caseId}?tab=transactions`} size="sm">
              {t('payments:queue.case', { id: item.caseId })}
            </Anchor>
          </Stack>
          <StatusBadge status={item.caseStatus} archived={false} />
        </Group>
        <Text size="sm">{t('payments:deferred.owner', { name: item.owner.displayName })}</Text>
        <Stack gap={0} component="ul" style={{ margin: 0, paddingLeft: 18 }}>
          {item.services.map((service) => (
            <Text key={service.id} component="li" size="sm">
              {service.quantity > 1
                ? t('payments:card.lineQuantity', {
                    name: service.productName,
                    n: service.quantity,
                  })
                : service.productName}
            </Text>
          ))}
        </Stack>
        <Text size="sm" style={{ overflowWrap: 'anywhere' }}>
          {t('payments:deferred.reason', { reason: item.reason })}
        </Text>
        <Text size="xs" c="dimmed">
          {t('payments:deferred.since', { date: formatDate(item.deferredAt, true) })}
        </Text>
      </Stack>
    </Card>
  );
}

/** Cases validated without payment whose services are still unpaid: the lab bills them later. */
function BilledLater() {
  const { t } = useTranslation();
  const query = useDeferredPayments();
  return (
    <Stack gap="sm" component="section" aria-labelledby="billed-later">
      <Title order={2} size="h3" id="billed-later">
        {t('payments:deferred.title')}
      </Title>
      <Text size="sm" c="dimmed">
        {t('payments:deferred.intro')}
      </Text>
      <ListStates
        query={query}
        isEmpty={(items) => items.length === 0}
        skeleton={{ rows: 2, height: 110, radius: 'md' }}
        loadingLabel={t('payments:deferred.loading')}
        retryLabel={t('payments:retry')}
        empty={
          <EmptyState
            icon={<IconReceiptOff size={28} />}
            title={t('payments:deferred.emptyTitle')}
            description={t('payments:deferred.empty')}
            py="lg"
          />
        }
      >
        {(items) => (
          <Stack
            gap="sm"
            component="ul"
            style={{ listStyle: 'none', margin: 0, padding: 0 }}
            data-testid="deferred-payments"
          >
            {items.map((item) => (
              <DeferredRow key={item.caseId} item={item} />
            ))}
          </Stack>
        )}
      </ListStates>
    </Stack>
  );
}

function PaymentQueue() {
  const { t } = useTranslation();
  const query = usePendingTransactions();
  let body: React.ReactNode;
  if (query.isLoading) {
    body = (
      <Stack aria-busy="true" aria-label={t('payments:queue.loading')}>
        <Skeleton h={110} radius="md" />
        <Skeleton h={110} radius="md" />
      </Stack>
    );
  } else if (query.isError || !query.data) {
    body = (
      <Alert color="red" title={t('feedback.error')}>
        <Text size="sm">{errorMessage(query.error)}</Text>
        <Button size="xs" mt="sm" variant="light" color="red" onClick={() => void query.refetch()}>
          {t('payments:retry')}
        </Button>
      </Alert>
    );
  } else if (query.data.length === 0) {
    body = (
      <EmptyState
        icon={<IconChecklist size={28} />}
        title={t('payments:queue.emptyTitle')}
        description={t('payments:queue.empty')}
        py="xl"
      />
    );
  } else {
    body = (
      <Stack
        gap="sm"
        component="ul"
        style={{ listStyle: 'none', margin: 0, padding: 0 }}
        data-testid="payment-queue"
      >
        {query.data.map((item) => (
          <PendingRow key={item.transaction.id} item={item} />
        ))}
      </Stack>
    );
  }
  return (
    <Stack gap="md">
      <Title order={1} size="h2">
        {t('payments:queue.title')}
      </Title>
      <Text size="sm" c="dimmed">
        {t('payments:queue.intro')}
      </Text>
      {body}
      <BilledLater />
    </Stack>
  );
}

/**
 * /payments — transactions waiting for staff (supervisors and admins), oldest first; then the
 * cases validated without payment that are still unpaid (billed later).
 */
export function PaymentQueuePage() {
  return (
    <SupervisorOnly>
      <PaymentQueue />
    </SupervisorOnly>
  );
}
