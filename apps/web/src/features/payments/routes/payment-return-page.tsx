import { Link, useLocation, useSearchParams } from 'react-router';
import { Alert, Button, Card, Center, Group, Loader, Stack, Text, Title } from '@mantine/core';
import { IconAlertTriangle, IconCircleCheck, IconClock } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import {
  formatMoney,
  isPaidOrPrePaid,
  isPaymentProcessing,
  type PaymentReturn,
  type PaymentStatus,
} from '@dentflow/domain';
import type { LoginRedirectState } from '../../../lib/login-redirect';
import { errorMessage } from '../../../lib/notify';
import { hasRefreshToken } from '../../../lib/session-storage';
import {
  usePaymentReturn,
  usePublicPaymentReturn,
  type PaymentProvider,
} from '../api/payment-return';
import { PaymentStatusBadge } from '../components/payment-status-badge';

const PROVIDER_NAMES: Record<PaymentProvider, string> = {
  paypal: 'PayPal',
  pagseguro: 'PagSeguro',
};

const parseTransactionId = (value: string | null) => {
  const id = Number(value);
  return value && Number.isSafeInteger(id) && id > 0 ? id : 0;
};

const caseTransactionsPath = (caseId: number) => `/case/${caseId}?tab=transactions`;

/** Paid (or available), still with the provider, or something else (cancelled, refused…). */
const outcomeOf = (status: PaymentStatus) => ({
  paid: isPaidOrPrePaid(status) || status === 'available',
  processing: isPaymentProcessing(status),
});

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
  const { paid, processing } = outcomeOf(transaction.paymentStatus);
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
 * Without a session: how the payment stands (no amount, case or patient: the public answer has
 * none), and a login that comes back here for the details.
 */
function PublicOutcome({ provider }: { provider: PaymentProvider }) {
  const { t } = useTranslation();
  const [params] = useSearchParams();
  const location = useLocation();
  const reference = params.get('reference');
  const token = provider === 'paypal' ? params.get('token') : null;
  const query = usePublicPaymentReturn(reference || token ? { provider, reference, token } : null);
  const from = `${location.pathname}${location.search}`;
  const loginLink = (
    <Button
      component={Link}
      to="/login"
      state={{ from } satisfies LoginRedirectState}
      data-testid="return-login"
    >
      {t('payments:return.logInForDetails')}
    </Button>
  );

  if (!reference && !token) {
    return (
      <Stack>
        <Alert color="blue" role="status" data-testid="return-login-needed">
          {t('payments:return.loginNeeded')}
        </Alert>
        <Group>{loginLink}</Group>
      </Stack>
    );
  }
  if (query.isPending) {
    return (
      <Center py="xl">
        <Stack align="center" gap="sm" role="status" aria-busy="true">
          <Loader />
          <Text>{t('payments:return.confirming')}</Text>
        </Stack>
      </Center>
    );
  }
  if (query.isError) {
    return (
      <Stack>
        <Alert color="red" title={t('feedback.error')} role="alert" data-testid="return-error">
          {errorMessage(query.error)}
        </Alert>
        <Group>{loginLink}</Group>
      </Stack>
    );
  }
  const { paymentStatus, problem } = query.data;
  const { paid, processing } = outcomeOf(paymentStatus);
  return (
    <Card withBorder radius="md" padding="lg" maw={560} mx="auto" w="100%">
      <Stack align="center" gap="sm" ta="center" data-testid="return-outcome">
        {paid ? (
          <IconCircleCheck size={48} color="var(--mantine-color-green-6)" aria-hidden="true" />
        ) : problem ? (
          <IconAlertTriangle size={48} color="var(--mantine-color-red-6)" aria-hidden="true" />
        ) : (
          <IconClock size={48} color="var(--mantine-color-yellow-6)" aria-hidden="true" />
        )}
        <Title order={2} size="h3">
          {paid
            ? t('payments:return.paidTitle')
            : processing && !problem
              ? t('payments:return.processingTitle')
              : t('payments:return.otherTitle')}
        </Title>
        <PaymentStatusBadge status={paymentStatus} />
        <Text size="sm" c="dimmed" role="status">
          {problem === 'paidMethodError'
            ? t('errors:api.PAID_METHOD_ERROR')
            : problem
              ? t('errors:api.TRANSACTION_ERROR')
              : paid
                ? t('payments:return.paidBody')
                : processing
                  ? t('payments:return.processingBody')
                  : t('payments:return.otherBody')}
        </Text>
        <Text size="sm">{t('payments:return.detailsAfterLogin')}</Text>
        <Group justify="center" mt="sm">
          {loginLink}
        </Group>
      </Stack>
    </Card>
  );
}

/**
 * Where PayPal (`?transaction=&reference=&token=&PayerID=`) and PagSeguro
 * (`?transaction=&reference=`) send the payer back: the server confirms the payment with the
 * provider once, and this page tells the outcome (the details after login).
 */
export function PaymentReturnPage({ provider }: { provider: PaymentProvider }) {
  const { t } = useTranslation();
  const providerName = PROVIDER_NAMES[provider];
  // The payer may come back without a session (expired, another browser): the status only.
  if (!hasRefreshToken()) {
    return (
      <Stack gap="md">
        <Title order={1} size="h2">
          {t('payments:return.title', { provider: providerName })}
        </Title>
        <PublicOutcome provider={provider} />
      </Stack>
    );
  }
  return <SignedInReturn provider={provider} />;
}

/** With a session: the server confirms the payment and answers the whole transaction. */
function SignedInReturn({ provider }: { provider: PaymentProvider }) {
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
