import { Link } from 'react-router';
import { Button, EmptyState, Stack, Title } from '@mantine/core';
import { IconShoppingCart } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';

/** The checkout of an empty cart: the way back to the shop. */
export function EmptyCheckout() {
  const { t } = useTranslation();
  return (
    <Stack gap="md">
      <Title order={1} size="h2">
        {t('shop:checkout.title')}
      </Title>
      <EmptyState
        icon={<IconShoppingCart size={28} />}
        title={t('shop:cart.empty')}
        description={t('shop:checkout.emptyBody')}
        py="xl"
      >
        <Button component={Link} to="/shop">
          {t('shop:cart.goToShop')}
        </Button>
      </EmptyState>
    </Stack>
  );
}
