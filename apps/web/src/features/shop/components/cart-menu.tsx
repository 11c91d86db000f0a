import { Link } from 'react-router';
import {
  ActionIcon,
  Anchor,
  Button,
  Divider,
  Group,
  Indicator,
  Popover,
  Skeleton,
  Stack,
  Text,
} from '@mantine/core';
import { useDisclosure } from '@mantine/hooks';
import { IconShoppingCart, IconTrash } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import { formatMoney } from '@dentflow/domain';
import { useCart } from '../cart/use-cart';
import { useShopProducts } from '../api/get-shop-product';

/** The navbar's cart: a count badge and a dropdown with the items, remove and checkout. */
export function CartMenu() {
  const { t } = useTranslation();
  const { cart, dispatch } = useCart();
  const [opened, { toggle, close }] = useDisclosure(false);
  const ids = cart.items.map((item) => item.cartProductId);
  const products = useShopProducts(opened ? ids : []);
  const count = cart.items.length;

  return (
    <Popover
      opened={opened}
      onChange={(next) => (next ? undefined : close())}
      position="bottom-end"
      width={320}
      shadow="md"
      withinPortal
      trapFocus
      returnFocus
      // The navbar is always on screen; (jsdom also reports every element as detached.)
      hideDetached={false}
    >
      <Popover.Target>
        <Indicator label={count} size={16} offset={4} disabled={count === 0} inline>
          <ActionIcon
            variant="subtle"
            color="gray"
            size="lg"
            aria-label={t('shop:cart.button', { count })}
            aria-expanded={opened}
            onClick={toggle}
          >
            <IconShoppingCart size={20} />
          </ActionIcon>
        </Indicator>
      </Popover.Target>
      <Popover.Dropdown>
        <Text fw={600} mb="xs">
          {t('shop:cart.title')}
        </Text>
        {count === 0 ? (
          <Stack gap="xs">
            <Text size="sm" c="dimmed">
              {t('shop:cart.empty')}
            </Text>
            <Anchor component={Link} to="/shop" size="sm" onClick={close}>
              {t('shop:cart.goToShop')}
            </Anchor>
          </Stack>
        ) : (
          <Stack gap="xs">
            <Stack gap={6} component="ul" style={{ listStyle: 'none', margin: 0, padding: 0 }}>
              {cart.items.map((item, index) => {
                const product = products[index]?.data;
                const name =
                  product?.name ?? t('shop:cart.productNumber', { id: item.cartProductId });
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
                        <Text size="xs" c="dimmed">
                          {formatMoney(product.price, product.currency)}
                        </Text>
                      )}
                    </Stack>
                    <ActionIcon
                      variant="subtle"
                      color="red"
                      aria-label={t('shop:cart.removeNamed', { name })}
                      onClick={() =>
                        dispatch({ type: 'remove', cartProductId: item.cartProductId })
                      }
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
        )}
      </Popover.Dropdown>
    </Popover>
  );
}
