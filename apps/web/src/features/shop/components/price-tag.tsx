import { Badge, Group, Text, type MantineSize } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { formatMoney, type Currency, type PriceWithSaving } from '@dentflow/domain';

// Read by screen readers only (a struck-through amount is not announced as such). Mantine's
// VisuallyHidden would become a chunk of its own that the case page loads too.
const HIDDEN: React.CSSProperties = {
  position: 'absolute',
  width: 1,
  height: 1,
  overflow: 'hidden',
  clip: 'rect(0 0 0 0)',
  whiteSpace: 'nowrap',
};

/**
 * A price that tells the truth at a glance: what is charged, then (when something is saved) what
 * the parts cost separately, struck through, and the saving in money and percent. The numbers
 * are the domain's (`shopProductPrice`, `orderLinePrice`); this only formats them.
 */
export function PriceTag({
  price,
  currency,
  size = 'md',
  testId,
}: {
  price: PriceWithSaving;
  currency: Currency;
  size?: MantineSize;
  testId?: string;
}) {
  const { t } = useTranslation();
  const money = (amount: number) => formatMoney(amount, currency);
  const small = size === 'xs' || size === 'sm';
  return (
    <Group gap={6} align="baseline" wrap="wrap" data-testid={testId}>
      <Text fw={700} size={size} style={{ whiteSpace: 'nowrap' }} data-testid="price-charged">
        {money(price.price)}
      </Text>
      {price.saving > 0 && (
        <>
          <Text
            component="s"
            size={small ? 'xs' : 'sm'}
            c="dimmed"
            style={{ whiteSpace: 'nowrap' }}
            data-testid="price-separately"
          >
            <span style={HIDDEN}>{t('shop:price.separately')} </span>
            {money(price.separately)}
          </Text>
          <Badge
            color="green"
            variant="light"
            size={small ? 'sm' : 'md'}
            data-testid="price-saving"
          >
            {t('shop:price.saving', { amount: money(price.saving), percent: price.savingPercent })}
          </Badge>
        </>
      )}
    </Group>
  );
}
