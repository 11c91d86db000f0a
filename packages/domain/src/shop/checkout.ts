import { z } from 'zod';
import { idSchema } from '../common/bounds';
import { MESSAGE } from '../forms/rules';
import { PAYMENT_METHODS } from '../payments/payment';
import { CURRENCIES } from '../i18n/locale';
import { cartItemSchema, type CartItem } from './cart';
import { isShipmentComplete, shipmentSchema, type Shipment } from './shipment';
import type { Product } from './product';

export type CheckoutProblem =
  | { kind: 'sleeveManufacturer'; cartProductId: number }
  | { kind: 'sleeveQuantity'; cartProductId: number }
  | { kind: 'shipment' };

type CheckoutProduct = Pick<Product, 'id' | 'enableKit' | 'enableSleeve' | 'shipping'>;

/**
 * Checkout: for each manufacturing item with the kit option a sleeve manufacturer must be
 * chosen; with the sleeve option the sleeve quantity must be above 0; the shipment (option and
 * address) must be complete — when something ships (decision: only manufacturing products with the
 * shipping flag ship; a planning-only order needs no shipment).
 */
export function checkoutProblems(
  items: readonly CartItem[],
  shipment: Shipment | null | undefined,
  products: ReadonlyMap<number, CheckoutProduct>,
): CheckoutProblem[] {
  const problems: CheckoutProblem[] = [];
  let ships = false;
  for (const item of items) {
    const manufacture =
      item.productManufactureId === null ? undefined : products.get(item.productManufactureId);
    if (!manufacture) continue;
    if (manufacture.shipping) ships = true;
    if (manufacture.enableKit && item.manufactureData?.sleevesManufacture == null) {
      problems.push({ kind: 'sleeveManufacturer', cartProductId: item.cartProductId });
    }
    if (manufacture.enableSleeve && !((item.manufactureData?.sleevesQtd ?? 0) > 0)) {
      problems.push({ kind: 'sleeveQuantity', cartProductId: item.cartProductId });
    }
  }
  if (ships && !isShipmentComplete(shipment)) problems.push({ kind: 'shipment' });
  return problems;
}

export const isCheckoutValid = (...args: Parameters<typeof checkoutProblems>) =>
  args[0].length > 0 && checkoutProblems(...args).length === 0;

/** More lines than any real order has; keeps one request from adding thousands of services. */
export const CART_ITEMS_MAX = 30;

/** The checkout steps of `/shop/checkout`. */
export const CHECKOUT_STEPS = ['cart', 'address', 'payment'] as const;
export type CheckoutStep = (typeof CHECKOUT_STEPS)[number];

/** `POST /shop/checkout` body (the order). Prices are computed by the server, never sent. */
export const checkoutRequestSchema = z.object({
  caseId: idSchema.nullable(),
  items: z.array(cartItemSchema).min(1).max(CART_ITEMS_MAX, MESSAGE.max),
  shipment: shipmentSchema.nullable(),
  coupon: z.string().trim().max(60).nullable(),
  paymentMethod: z.enum(PAYMENT_METHODS),
  currency: z.enum(CURRENCIES),
});
export type CheckoutRequest = z.infer<typeof checkoutRequestSchema>;
