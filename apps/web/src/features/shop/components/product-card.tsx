import { Link } from 'react-router';
import { Anchor, Badge, Card, Group, Stack, Text } from '@mantine/core';
import { IconStarFilled } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import { formatMoney, isCombo, type ShopProduct } from '@dentflow/domain';
import { ProductImage } from './product-image';
import { CartToggleButton } from './cart-toggle-button';

/** One product of the shop grid: picture, name, price, combo discount, favourite, cart toggle. */
export function ProductCard({ product }: { product: ShopProduct }) {
  const { t } = useTranslation();
  const href = `/shop/item/${product.id}`;
  return (
    <Card withBorder radius="md" padding="sm" data-testid={`shop-card-${product.code}`}>
      <Card.Section>
        <Link to={href} tabIndex={-1} aria-hidden="true">
          <ProductImage url={product.imageUrl} name={product.name} />
        </Link>
      </Card.Section>
      <Stack gap={6} mt="sm" style={{ flex: 1 }}>
        <Group justify="space-between" align="flex-start" wrap="nowrap" gap="xs">
          <Anchor component={Link} to={href} fw={600} c="inherit" lineClamp={2}>
            {product.name}
          </Anchor>
          {product.favorite && (
            <IconStarFilled
              size={18}
              color="var(--mantine-color-yellow-6)"
              role="img"
              aria-label={t('shop:card.favorite')}
              style={{ flexShrink: 0 }}
            />
          )}
        </Group>
        {product.categoryName && (
          <Text size="xs" c="dimmed">
            {product.categoryName}
          </Text>
        )}
        <Group justify="space-between" gap="xs" mt="auto">
          <Text fw={700}>{formatMoney(product.price, product.currency)}</Text>
          {isCombo(product) && product.discount > 0 && (
            <Badge color="green" variant="light">
              {t('shop:card.comboDiscount', { percent: product.discount })}
            </Badge>
          )}
        </Group>
        <CartToggleButton product={product} fullWidth mt={4} />
      </Stack>
    </Card>
  );
}
