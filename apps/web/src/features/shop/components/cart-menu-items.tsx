import { Link } from 'react-router';
import { ActionIcon, Anchor, Button, Divider, Group, Skeleton, Stack, Text } from '@mantine/core';
import { IconTrash } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import { shopProductPrice } from '@dentflow/domain';
import { useCart } from '../cart/use-cart';
import { useShopProducts } from '../api/get-shop-product';
import { PriceTag } from './price-tag';

/** The cart menu's dropdown: the items with their names and prices, remove and checkout. */
export function CartMenuItems({ close }: { close: () => void }) {
  const { t } = useTranslation();
  const { cart, dispatch } = useCart();
  const products = useShopProducts(cart.items.map((item) => item.cartProductId));
  const count = cart.items.length;

  if (count === 0) {
    return (
      <Stack gap="xs">
        <Text size="sm" c="dimmed">
          {t('shop:cart.empty')}
        </Text>
        <Anchor component={Link} to="/shop" size="sm" onClick={close}>
          {t('shop:cart.goToShop')}
        </Anchor>
      </Stack>
    );
  }
  return (
    <Stack gap="xs">
      <Stack gap={6} component="ul" style={{ listStyle: 'none', margin: 0, padding: 0 }}>
        {cart.items.map((item, index) => {
          const product = products[index]?.data;
          const name = product?.name ?? t('shop:cart.productNumber', { id: item.cartProductId });
          return (
            <Group key={item.cartProductId} component="li" wrap="nowrap" gap="xs">
              <Stack gap={0} style={{ flex: 1, minWidth: 0 }}>
                {products[index]?.isLoading ? (
                  <Skeleton h={14} w="70%" />
                ) : (
                  <Text size="sm" truncate>
                    {name}
                  </Text>
                )}
                {product && (
                  <PriceTag
                    price={shopProductPrice(product)}
                    currency={product.currency}
                    size="xs"
                    testId={`cart-price-${item.cartProductId}`}
                  />
                )}
              </Stack>
              <ActionIcon
                variant="subtle"
                color="red"
                aria-label={t('shop:cart.removeNamed', { name })}
                onClick={() => dispatch({ type: 'remove', cartProductId: item.cartProductId })}
              >
                <IconTrash size={16} />
              </ActionIcon>
            </Group>
          );
        })}
      </Stack>
      <Divider />
      <Button component={Link} to="/shop/checkout" onClick={close} fullWidth>
        {t('shop:cart.checkout')}
      </Button>
    </Stack>
  );
}
