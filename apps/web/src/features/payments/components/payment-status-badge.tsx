import { Badge } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import type { PaymentStatus } from '@dentflow/domain';

/** Paid green, pre-paid teal, waiting yellow, disputes orange, money going back red. */
const COLORS: Record<PaymentStatus, string> = {
  requesting: 'yellow',
  awaiting_payment: 'yellow',
  under_analysis: 'yellow',
  pre_paid: 'teal',
  paid: 'green',
  available: 'green',
  in_dispute: 'orange',
  temporary_retention: 'orange',
  returned: 'red',
  debited: 'red',
  cancelled: 'gray',
};

/** A transaction's payment status with its label from the domain catalogue. */
export function PaymentStatusBadge({ status }: { status: PaymentStatus }) {
  const { t } = useTranslation();
  return (
    <Badge color={COLORS[status]} variant="light" radius="sm" data-testid="payment-status">
      {t(`domain:paymentStatuses.${status}`)}
    </Badge>
  );
}
