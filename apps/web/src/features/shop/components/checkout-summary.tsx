import { Alert, Button, Divider, Group, Skeleton, Stack, Text, Title } from '@mantine/core';
import type { TFunction } from 'i18next';
import { useTranslation } from 'react-i18next';
import {
  COUPON_TYPES,
  discountChoice,
  formatMoney,
  orderLinePrice,
  type CheckoutBreakdown,
  type CouponTerms,
} from '@dentflow/domain';
import { errorMessage } from '../../../lib/notify';
import { PriceTag } from './price-tag';

interface SummaryRow {
  kind: string;
  label: string;
  amount: number;
  /** Shown even when 0 (e.g. free shipping). */
  always?: boolean;
}

function rows(breakdown: CheckoutBreakdown, ships: boolean, t: TFunction) {
  const list: SummaryRow[] = [
    {
      kind: 'planning',
      label: t('shop:summary.planning'),
      amount: breakdown.planningPrice,
      always: true,
    },
    {
      kind: 'manufacture',
      label: t('shop:summary.manufacture'),
      amount: breakdown.manufacturePrice,
    },
    { kind: 'sleeves', label: t('shop:summary.sleeves'), amount: breakdown.sleevesPrice },
    {
      kind: 'comboDiscount',
      label: t('shop:summary.comboDiscount'),
      amount: -breakdown.comboDiscount,
    },
    {
      kind: 'couponDiscount',
      label: breakdown.coupon
        ? t('shop:summary.couponNamed', { code: breakdown.coupon })
        : t('shop:summary.coupon'),
      amount: -breakdown.couponDiscount,
      always: breakdown.coupon !== null,
    },
    {
      kind: 'instructorDiscount',
      label: t('shop:summary.instructorDiscount'),
      amount: -breakdown.instructorDiscount,
    },
    {
      kind: 'shipping',
      label: t('shop:summary.shipping'),
      amount: breakdown.shippingFee,
      always: ships,
    },
  ];
  return list.filter((row) => row.always || row.amount !== 0);
}

function couponTermsLabel(terms: CouponTerms | null, money: (n: number) => string, t: TFunction) {
  if (!terms) return '';
  if (terms.coupomType === COUPON_TYPES.percent) {
    return t('shop:summary.choice.termsPercent', { value: terms.value });
  }
  if (terms.coupomType === COUPON_TYPES.fixed) return money(terms.value);
  return t('shop:summary.choice.termsUnit', { count: terms.value });
}

/**
 * Which of the coupon and the instructor discount applies, and why (the server's rule: a valid
 * coupon always replaces the instructor's discount, even a smaller one).
 */
function DiscountChoiceNote({
  breakdown,
  money,
}: {
  breakdown: CheckoutBreakdown;
  money: (amount: number) => string;
}) {
  const { t } = useTranslation();
  const choice = discountChoice(breakdown);
  let text = '';
  if (choice.kind === 'instructor' && choice.percent > 0) {
    text = t('shop:summary.choice.instructor', { percent: choice.percent });
  } else if (choice.kind === 'coupon') {
    const terms = couponTermsLabel(choice.terms, money, t);
    text = terms
      ? t('shop:summary.choice.coupon', { code: choice.code, terms })
      : t('shop:summary.couponNamed', { code: choice.code });
  } else if (choice.kind === 'couponReplacesInstructor') {
    const values = {
      code: choice.code,
      terms: couponTermsLabel(choice.terms, money, t),
      percent: choice.instructorPercent,
      coupon: money(breakdown.couponDiscount),
      instructor: money(breakdown.instructorDiscountForgone ?? 0),
    };
    text = choice.smaller
      ? t('shop:summary.choice.couponSmallerThanInstructor', values)
      : t('shop:summary.choice.couponOverInstructor', values);
  }
  if (!text) return null;
  return (
    <Text size="xs" c="dimmed" data-testid="discount-choice">
      {text}
    </Text>
  );
}

/**
 * The order as the server priced it (`POST /shop/quote`): the items, then planning, manufacture,
 * sleeves, discounts, shipping and the total, in the breakdown's (the case's) currency.
 */
export function CheckoutSummary({
  breakdown,
  loading,
  updating,
  error,
  onRetry,
  ships,
  shippingChosen,
}: {
  breakdown: CheckoutBreakdown | undefined;
  loading: boolean;
  updating: boolean;
  error: unknown;
  onRetry: () => void;
  ships: boolean;
  /** Whether a delivery option is chosen yet (until then the fee is unknown, not free). */
  shippingChosen: boolean;
}) {
  const { t } = useTranslation();
  if (error && !breakdown) {
    return (
      <Alert color="red" title={t('shop:summary.failed')}>
        <Text size="sm">{errorMessage(error)}</Text>
        <Button size="xs" mt="sm" variant="light" color="red" onClick={onRetry}>
          {t('shop:list.retry')}
        </Button>
      </Alert>
    );
  }
  if (loading || !breakdown) {
    return (
      <Stack gap="xs" aria-busy="true" aria-label={t('shop:summary.loading')}>
        <Skeleton h={16} />
        <Skeleton h={16} w="70%" />
        <Skeleton h={24} mt="sm" />
      </Stack>
    );
  }
  const money = (amount: number) => formatMoney(amount, breakdown.currency);
  return (
    <Stack gap={6} aria-busy={updating} style={{ opacity: updating ? 0.6 : 1 }}>
      <Title order={2} size="h4">
        {t('shop:summary.title')}
      </Title>
      <Stack gap={4} component="ul" style={{ listStyle: 'none', margin: 0, padding: 0 }}>
        {breakdown.lines.map((line) => (
          <Group
            key={line.cartProductId}
            component="li"
            justify="space-between"
            wrap="nowrap"
            gap="xs"
            align="flex-start"
            data-testid={`breakdown-item-${line.cartProductId}`}
          >
            <Text size="sm" style={{ overflowWrap: 'anywhere' }}>
              {line.quantity > 1
                ? t('shop:summary.lineQuantity', { name: line.name, n: line.quantity })
                : line.name}
            </Text>
            <PriceTag price={orderLinePrice(line)} currency={breakdown.currency} size="sm" />
          </Group>
        ))}
      </Stack>
      <Divider my={4} />
      {rows(breakdown, ships, t).map((row) => (
        <Group
          key={row.kind}
          justify="space-between"
          wrap="nowrap"
          gap="xs"
          data-testid={`breakdown-${row.kind}`}
        >
          <Text size="sm" c={row.amount < 0 ? 'green.8' : undefined}>
            {row.label}
          </Text>
          <Text
            size="sm"
            c={row.amount < 0 ? 'green.8' : undefined}
            style={{ whiteSpace: 'nowrap' }}
          >
            {row.kind === 'shipping' && !shippingChosen
              ? t('shop:summary.shippingPending')
              : row.kind === 'shipping' && row.amount === 0
                ? t('shop:summary.free')
                : money(row.amount)}
          </Text>
        </Group>
      ))}
      <DiscountChoiceNote breakdown={breakdown} money={money} />
      <Divider my={4} />
      <Group justify="space-between" wrap="nowrap" gap="xs">
        <Text fw={700}>{t('shop:summary.total')}</Text>
        <Text fw={700} size="lg" data-testid="checkout-total" style={{ whiteSpace: 'nowrap' }}>
          {money(breakdown.total)}
        </Text>
      </Group>
    </Stack>
  );
}
