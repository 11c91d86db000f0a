import { Link, useSearchParams } from 'react-router';
import { Alert, Button, Card, Center, Group, Loader, Stack, Text, Title } from '@mantine/core';
import { IconAlertTriangle, IconCircleCheck, IconClock } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import { formatMoney, isPaidOrPrePaid, type PaymentReturn } from '@dentflow/domain';
import { errorMessage } from '../../../lib/notify';
import { usePaymentReturn, type PaymentProvider } from '../api/payment-return';
import { PaymentStatusBadge } from '../components/payment-status-badge';

const PROVIDER_NAMES: Record<PaymentProvider, string> = {
  paypal: 'PayPal',
  pagseguro: 'PagSeguro',
};

/** Statuses the provider may still move on its own (the case updates with its notice). */
const PROCESSING = new Set(['requesting', 'awaiting_payment', 'under_analysis']);

const parseTransactionId = (value: string | null) => {
  const id = Number(value);
  return value && Number.isSafeInteger(id) && id > 0 ? id : 0;
};

const caseTransactionsPath = (caseId: number) => `/case/${caseId}?tab=transactions`;

function Outcome({ answer }: { answer: PaymentReturn }) {
  const { t } = useTranslation();
  const { transaction, problem } = answer;
  const caseLink = (
    <Button
      component={Link}
      to={caseTransactionsPath(transaction.caseId)}
      data-testid="return-open-case"
    >
      {t('payments:return.openTransactions')}
    </Button>
  );
  const amount = formatMoney(transaction.priceTotal, transaction.currency);

  if (problem) {
    return (
      <Stack>
        <Alert
          color="red"
          title={t('feedback.error')}
          icon={<IconAlertTriangle size={18} />}
          role="alert"
          data-testid="return-problem"
        >
          {problem === 'paidMethodError'
            ? t('errors:api.PAID_METHOD_ERROR')
            : t('errors:api.TRANSACTION_ERROR')}
        </Alert>
        <Group>{caseLink}</Group>
      </Stack>
    );
  }
  const paid =
    isPaidOrPrePaid(transaction.paymentStatus) || transaction.paymentStatus === 'available';
  const processing = PROCESSING.has(transaction.paymentStatus);
  return (
    <Card withBorder radius="md" padding="lg" maw={560} mx="auto" w="100%">
      <Stack align="center" gap="sm" ta="center" data-testid="return-outcome">
        {paid ? (
          <IconCircleCheck size={48} color="var(--mantine-color-green-6)" aria-hidden="true" />
        ) : (
          <IconClock size={48} color="var(--mantine-color-yellow-6)" aria-hidden="true" />
        )}
        <Title order={2} size="h3">
          {paid
            ? t('payments:return.paidTitle')
            : processing
              ? t('payments:return.processingTitle')
              : t('payments:return.otherTitle')}
        </Title>
        <PaymentStatusBadge status={transaction.paymentStatus} />
        <Text>
          {t('payments:return.amount')}{' '}
          <Text component="span" fw={700}>
            {amount}
          </Text>
        </Text>
        <Text size="sm" c="dimmed" role="status">
          {paid
            ? t('payments:return.paidBody')
            : processing
              ? t('payments:return.processingBody')
              : t('payments:return.otherBody')}
        </Text>
        <Group justify="center" mt="sm">
          {caseLink}
        </Group>
      </Stack>
    </Card>
  );
}

/**
 * Where PayPal (`?transaction=&token=&PayerID=`) and PagSeguro (`?transaction=`) send the payer
 * back: the server confirms the payment with the provider once, and this page tells the outcome.
 */
export function PaymentReturnPage({ provider }: { provider: PaymentProvider }) {
  const { t } = useTranslation();
  const [params] = useSearchParams();
  const transactionId = parseTransactionId(params.get('transaction'));
  const query = usePaymentReturn(
    transactionId > 0
      ? { provider, transactionId, token: params.get('token'), payerId: params.get('PayerID') }
      : null,
  );
  const providerName = PROVIDER_NAMES[provider];

  let body: React.ReactNode;
  if (transactionId === 0) {
    body = (
      <Alert color="red" title={t('feedback.error')} role="alert" data-testid="return-invalid">
        {t('payments:return.invalid')}
      </Alert>
    );
  } else if (query.isPending) {
    body = (
      <Center py="xl">
        <Stack align="center" gap="sm" role="status" aria-busy="true">
          <Loader />
          <Text>{t('payments:return.confirming')}</Text>
        </Stack>
      </Center>
    );
  } else if (query.isError) {
    body = (
      <Stack>
        <Alert color="red" title={t('feedback.error')} role="alert" data-testid="return-error">
          {errorMessage(query.error)}
        </Alert>
        <Group>
          <Button component={Link} to="/cases/new" variant="default">
            {t('payments:return.toCases')}
          </Button>
        </Group>
      </Stack>
    );
  } else {
    body = <Outcome answer={query.data} />;
  }

  return (
    <Stack gap="md">
      <Title order={1} size="h2">
        {t('payments:return.title', { provider: providerName })}
      </Title>
      {body}
    </Stack>
  );
}
