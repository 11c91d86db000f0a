import { z } from 'zod';
import { boundedIntSchema, idSchema } from '../common/bounds';
import {
  clampQuantity,
  comboDiscountPercent,
  isPlanningKind,
  productPrice,
  type Product,
} from './product';
import { emptyShipment, type Shipment } from './shipment';
import type { PricingLine } from './pricing';
import type { Language } from '../i18n/locale';
import type { Sleeve } from './product';

/** Cart item. */
export const cartItemSchema = z.object({
  cartProductId: idSchema,
  productPlanningId: idSchema.nullable(),
  productManufactureId: idSchema.nullable(),
  qtdOpt: z.union([z.literal(1), z.literal(2), z.literal(3)]),
  quantity: boundedIntSchema(1),
  planningExtraData: z.record(z.string(), z.unknown()).nullable(),
  manufactureData: z
    .object({
      sleevesManufacture: idSchema.nullable(),
      sleevesQtd: boundedIntSchema(0),
    })
    .nullable(),
});
export type CartItem = z.infer<typeof cartItemSchema>;

export interface CartState {
  items: CartItem[];
  shipment: Shipment;
}

export const emptyCart = (): CartState => ({ items: [], shipment: emptyShipment() });

type CartProduct = Pick<
  Product,
  'id' | 'productType' | 'productKind' | 'qtdOption' | 'innerProducts'
>;

/**
 * The cart item for a product: a combo carries its inner planning and manufacturing products (the
 * "inner checkout items"); a single product fills the slot of its kind.
 */
export function cartItemFor(
  product: CartProduct,
  innerProducts: readonly CartProduct[] = [],
): CartItem {
  const inner = innerProducts.filter((p) => product.innerProducts.includes(p.id));
  const parts = inner.length > 0 ? inner : [product];
  const planning = parts.find((p) => isPlanningKind(p.productKind));
  const manufacture = parts.find((p) => !isPlanningKind(p.productKind));
  return {
    cartProductId: product.id,
    productPlanningId: planning?.id ?? null,
    productManufactureId: manufacture?.id ?? null,
    qtdOpt: product.qtdOption,
    quantity: 1,
    planningExtraData: null,
    manufactureData: manufacture ? { sleevesManufacture: null, sleevesQtd: 0 } : null,
  };
}

export type CartAction =
  | { type: 'toggle'; product: CartProduct; innerProducts?: readonly CartProduct[] }
  | { type: 'remove'; cartProductId: number }
  | { type: 'setQuantity'; cartProductId: number; quantity: number; qtdMax?: number }
  | { type: 'setPlanningExtraData'; cartProductId: number; data: Record<string, unknown> | null }
  | {
      type: 'setSleeves';
      cartProductId: number;
      sleevesManufacture: number | null;
      sleevesQtd: number;
    }
  | { type: 'setShipment'; shipment: Shipment }
  | { type: 'clear' };

const updateItem = (
  state: CartState,
  cartProductId: number,
  update: (item: CartItem) => CartItem,
): CartState => ({
  ...state,
  items: state.items.map((item) => (item.cartProductId === cartProductId ? update(item) : item)),
});

/**
 * Cart: toggling a product adds it (with its inner items) or removes it; any add or remove
 * resets the shipment (the fee and options depend on what ships).
 */
export function cartReducer(state: CartState, action: CartAction): CartState {
  switch (action.type) {
    case 'toggle': {
      const present = state.items.some((item) => item.cartProductId === action.product.id);
      const items = present
        ? state.items.filter((item) => item.cartProductId !== action.product.id)
        : [...state.items, cartItemFor(action.product, action.innerProducts)];
      return { items, shipment: emptyShipment() };
    }
    case 'remove': {
      if (!state.items.some((item) => item.cartProductId === action.cartProductId)) return state;
      return {
        items: state.items.filter((item) => item.cartProductId !== action.cartProductId),
        shipment: emptyShipment(),
      };
    }
    case 'setQuantity':
      return updateItem(state, action.cartProductId, (item) => ({
        ...item,
        quantity: clampQuantity(action.quantity, action.qtdMax ?? Number.MAX_SAFE_INTEGER),
      }));
    case 'setPlanningExtraData':
      return updateItem(state, action.cartProductId, (item) => ({
        ...item,
        planningExtraData: action.data,
      }));
    case 'setSleeves':
      return updateItem(state, action.cartProductId, (item) => ({
        ...item,
        manufactureData: {
          sleevesManufacture: action.sleevesManufacture,
          sleevesQtd: Math.max(0, Math.floor(action.sleevesQtd)),
        },
      }));
    case 'setShipment':
      return { ...state, shipment: action.shipment };
    case 'clear':
      return emptyCart();
  }
}

export const isInCart = (state: CartState, productId: number) =>
  state.items.some((item) => item.cartProductId === productId);

type PricedProduct = Pick<
  Product,
  'id' | 'productType' | 'productCategory' | 'texts' | 'price' | 'discount'
>;

/**
 * Builds the pricing engine's line for a cart item from the products (prices in the language's
 * currency) and the sleeve catalogue. Throws when a product of the item is unknown.
 */
export function pricingLineFor(
  item: CartItem,
  products: ReadonlyMap<number, PricedProduct>,
  language: Language,
  sleeves: readonly Sleeve[] = [],
): PricingLine {
  const get = (id: number) => {
    const product = products.get(id);
    if (!product) throw new Error(`unknown product ${id} in cart`);
    return product;
  };
  const cartProduct = get(item.cartProductId);
  const component = (id: number | null) => {
    if (id === null) return null;
    const product = get(id);
    return {
      productId: id,
      categoryId: product.productCategory,
      unitPrice: productPrice(product, language),
    };
  };
  const sleeve = sleeves.find((s) => s.id === item.manufactureData?.sleevesManufacture);
  return {
    cartProductId: item.cartProductId,
    cartCategoryId: cartProduct.productCategory,
    qtdOption: item.qtdOpt,
    quantity: item.quantity,
    planning: component(item.productPlanningId),
    manufacture: component(item.productManufactureId),
    comboDiscountPercent: comboDiscountPercent(cartProduct, language),
    sleeves:
      sleeve && item.manufactureData
        ? { count: item.manufactureData.sleevesQtd, unitPrice: sleeve.sleeve_price }
        : null,
  };
}
