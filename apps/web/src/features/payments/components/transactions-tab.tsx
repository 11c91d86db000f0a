import { useState } from 'react';
import { Link } from 'react-router';
import {
  Alert,
  Button,
  Card,
  Divider,
  EmptyState,
  Group,
  Select,
  Skeleton,
  Stack,
  Text,
  Title,
} from '@mantine/core';
import { IconCreditCard } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import {
  formatMoney,
  isBroadNew,
  type CaseDetail,
  type CheckoutBreakdown,
  type PaymentMethod,
} from '@dentflow/domain';
import { errorMessage, showError, showSuccess } from '../../../lib/notify';
import { useCreateTransaction } from '../api/create-transaction';
import { useCaseTransactions } from '../api/list-case-transactions';
import { BreakdownLines, Row, TransactionCard } from './transaction-card';

/** What the new transaction will charge, as the server priced it, in its currency. */
function RemainingBreakdown({ breakdown }: { breakdown: CheckoutBreakdown }) {
  const { t } = useTranslation();
  const money = (amount: number) => formatMoney(amount, breakdown.currency);
  return (
    <Stack gap={4} data-testid="remaining-breakdown">
      <BreakdownLines breakdown={breakdown} />
      {breakdown.shippingFee !== 0 && (
        <Stack gap={0} component="ul" style={{ listStyle: 'none', margin: 0, padding: 0 }}>
          <Row label={t('payments:remaining.shipping')} value={money(breakdown.shippingFee)} />
        </Stack>
      )}
      <Divider my={4} />
      <Group justify="space-between" wrap="nowrap" gap="xs">
        <Text fw={700}>{t('payments:remaining.total')}</Text>
        <Text fw={700} data-testid="remaining-total" style={{ whiteSpace: 'nowrap' }}>
          {money(breakdown.total)}
        </Text>
      </Group>
    </Stack>
  );
}

/**
 * Services no live transaction pays: first what a new transaction will charge for them, then the
 * method and the button that creates it.
 */
function PayRemaining(props: {
  caseId: number;
  count: number;
  remaining: CheckoutBreakdown;
  paymentMethods: readonly PaymentMethod[];
}) {
  const { t } = useTranslation();
  const create = useCreateTransaction(props.caseId);
  const [method, setMethod] = useState<string | null>(
    props.paymentMethods.length === 1 ? (props.paymentMethods[0] ?? null) : null,
  );
  const chosen = props.paymentMethods.find((item) => item === method) ?? null;
  return (
    <Card withBorder radius="md" padding="md" data-testid="pay-remaining">
      <Stack gap="sm">
        <Title order={3} size="h5">
          {t('payments:remaining.title')}
        </Title>
        <Text size="sm">{t('payments:remaining.body', { n: props.count })}</Text>
        <RemainingBreakdown breakdown={props.remaining} />
        <Text size="sm" c="dimmed">
          {t('payments:remaining.then')}
        </Text>
        <Group align="flex-end" gap="sm">
          <Select
            label={t('payments:remaining.method')}
            placeholder={t('payments:remaining.methodPlaceholder')}
            data={props.paymentMethods.map((item) => ({
              value: item,
              label: t(`domain:paymentMethods.${item}`),
            }))}
            value={method}
            onChange={setMethod}
            allowDeselect={false}
            style={{ flex: '1 1 240px' }}
          />
          <Button
            disabled={!chosen}
            loading={create.isPending}
            onClick={() => {
              if (!chosen) return;
              create.mutate(chosen, {
                onSuccess: () => showSuccess(t('payments:remaining.created')),
                onError: showError,
              });
            }}
            data-testid="new-transaction"
          >
            {t('payments:remaining.create')}
          </Button>
        </Group>
      </Stack>
    </Card>
  );
}

/** The case view's Transactions tab: the case's payments, newest first, and what to pay. */
export function CaseTransactionsTab({ caseDetail }: { caseDetail: CaseDetail }) {
  const { t } = useTranslation();
  const query = useCaseTransactions(caseDetail.id);

  if (query.isLoading) {
    return (
      <Stack aria-busy="true" aria-label={t('payments:tab.loading')}>
        <Skeleton h={140} radius="md" />
        <Skeleton h={140} radius="md" />
      </Stack>
    );
  }
  if (query.isError || !query.data) {
    return (
      <Alert color="red" title={t('feedback.error')}>
        <Text size="sm">{errorMessage(query.error)}</Text>
        <Button size="xs" mt="sm" variant="light" color="red" onClick={() => void query.refetch()}>
          {t('payments:retry')}
        </Button>
      </Alert>
    );
  }
  const { items, unpaidServiceIds, paymentMethods, remaining } = query.data;
  // Nothing is offered that the server could not price first.
  const canPayRemaining =
    unpaidServiceIds.length > 0 && paymentMethods.length > 0 && remaining !== null;

  return (
    <Stack gap="md">
      {canPayRemaining && (
        <PayRemaining
          caseId={caseDetail.id}
          count={unpaidServiceIds.length}
          remaining={remaining}
          paymentMethods={paymentMethods}
        />
      )}
      {items.length === 0 && !canPayRemaining && (
        <EmptyState
          icon={<IconCreditCard size={28} />}
          title={t('payments:tab.emptyTitle')}
          description={
            isBroadNew(caseDetail.caseStatus) ? t('payments:tab.emptyNew') : t('payments:tab.empty')
          }
          py="xl"
        >
          {isBroadNew(caseDetail.caseStatus) && !caseDetail.readOnly && (
            <Button
              component={Link}
              // The owner orders for this very case; anyone else goes to the shop as such.
              to={caseDetail.can.includes('order') ? `/shop?caseId=${caseDetail.id}` : '/shop'}
              mt="md"
            >
              {t('payments:tab.goToShop')}
            </Button>
          )}
        </EmptyState>
      )}
      {items.map((transaction) => (
        <TransactionCard key={transaction.id} transaction={transaction} />
      ))}
    </Stack>
  );
}
