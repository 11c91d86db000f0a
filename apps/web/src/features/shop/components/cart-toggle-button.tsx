import { Button, type ButtonProps } from '@mantine/core';
import { IconShoppingCartMinus, IconShoppingCartPlus } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import { isInCart, type ShopProduct } from '@dentflow/domain';
import { useCart } from '../cart/use-cart';
import { toggleProduct } from '../cart/cart-products';

/** Adds a product (with its inner checkout items) to the cart, or removes it. */
export function CartToggleButton({
  product,
  ...props
}: { product: ShopProduct } & Omit<ButtonProps, 'children'>) {
  const { t } = useTranslation();
  const { cart, dispatch, ready } = useCart();
  const inCart = isInCart(cart, product.id);
  return (
    <Button
      variant={inCart ? 'light' : 'filled'}
      color={inCart ? 'red' : undefined}
      leftSection={
        inCart ? <IconShoppingCartMinus size={16} /> : <IconShoppingCartPlus size={16} />
      }
      disabled={!ready}
      aria-label={t(inCart ? 'shop:card.removeNamed' : 'shop:card.addNamed', {
        name: product.name,
      })}
      onClick={() => dispatch(toggleProduct(product))}
      {...props}
    >
      {inCart ? t('shop:card.remove') : t('shop:card.add')}
    </Button>
  );
}
