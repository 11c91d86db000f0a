import { lazy, Suspense } from 'react';
import { ActionIcon, Indicator, Popover, Skeleton, Text } from '@mantine/core';
import { useDisclosure } from '@mantine/hooks';
import { IconShoppingCart } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import { useCart } from '../cart/use-cart';

// The items (with their product names and prices) load when the menu first opens; the navbar
// is on every page and needs only the count.
const CartMenuItems = lazy(() =>
  import('./cart-menu-items').then((module) => ({ default: module.CartMenuItems })),
);

/** The navbar's cart: a count badge and a dropdown with the items, remove and checkout. */
export function CartMenu() {
  const { t } = useTranslation();
  const { cart } = useCart();
  const [opened, { toggle, close }] = useDisclosure(false);
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
        <Suspense fallback={<Skeleton h={40} />}>
          <CartMenuItems close={close} />
        </Suspense>
      </Popover.Dropdown>
    </Popover>
  );
}
