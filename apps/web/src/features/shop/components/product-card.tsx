import { Link } from 'react-router';
import { Anchor, Card, Group, Stack, Text } from '@mantine/core';
import { IconStarFilled } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import { shopProductPrice, type ShopProduct } from '@dentflow/domain';
import { ProductImage } from './product-image';
import { CartToggleButton } from './cart-toggle-button';
import { PriceTag } from './price-tag';

/** One product of the shop grid: picture, name, price with any saving, favourite, cart toggle. */
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
        <Stack mt="auto" gap={0}>
          <PriceTag
            price={shopProductPrice(product)}
            currency={product.currency}
            testId={`shop-price-${product.code}`}
          />
        </Stack>
        <CartToggleButton product={product} fullWidth mt={4} />
      </Stack>
    </Card>
  );
}
