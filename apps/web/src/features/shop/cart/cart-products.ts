import {
  PRODUCT_TYPES,
  QTD_OPTION_IDS,
  isCombo,
  isPlanningKind,
  type CartAction,
  type CartItem,
  type QtdOptionId,
  type ShopInnerProduct,
  type ShopProduct,
} from '@dentflow/domain';

const qtdOption = (value: number): QtdOptionId =>
  (QTD_OPTION_IDS as number[]).includes(value) ? (value as QtdOptionId) : 1;

/** The cart action that adds a shop product with its inner checkout items, or removes it. */
export function toggleProduct(product: ShopProduct): CartAction {
  return {
    type: 'toggle',
    product: {
      id: product.id,
      productType: isCombo(product) ? PRODUCT_TYPES.combo : PRODUCT_TYPES.single,
      productKind: product.productKind,
      qtdOption: qtdOption(product.qtdOption),
      innerProducts: product.innerProducts.map((inner) => inner.id),
    },
    innerProducts: product.innerProducts.map((inner) => ({
      id: inner.id,
      productType: PRODUCT_TYPES.single,
      productKind: inner.productKind,
      qtdOption: qtdOption(inner.qtdOption),
      innerProducts: [],
    })),
  };
}

type Part = Pick<ShopInnerProduct, 'enableKit' | 'enableSleeve' | 'shipping' | 'productKind'>;

/** The manufacturing part of a cart item (the product itself, or a combo's part), if any. */
export function manufacturePart(item: CartItem, product: ShopProduct | undefined): Part | null {
  if (!product || item.productManufactureId === null) return null;
  if (item.productManufactureId === product.id && !isPlanningKind(product.productKind))
    return product;
  return product.innerProducts.find((inner) => inner.id === item.productManufactureId) ?? null;
}

/** Decision 014: only manufacturing products with the shipping flag ship. */
export const cartShips = (items: readonly CartItem[], products: ReadonlyMap<number, ShopProduct>) =>
  items.some((item) => manufacturePart(item, products.get(item.cartProductId))?.shipping);
