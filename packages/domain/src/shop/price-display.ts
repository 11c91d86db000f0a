/**
 * What the shop shows next to a price so that it tells the truth at a glance: the price charged,
 * what the same parts cost separately, and the saving. The numbers come from the same rules the
 * pricing engine charges with (`percentOf`, docs/decisions/006-money-rounding.md); the web only
 * formats them.
 */
import { isPlanningKind, isCombo } from './product';
import { percentOf } from './pricing';

export interface PriceWithSaving {
  /** What is charged (minor units). */
  price: number;
  /** What the same parts cost bought separately; equals `price` when nothing is saved. */
  separately: number;
  saving: number;
  /**
   * The saving as a whole percent of `separately`, rounded down so the shop never claims more
   * than it saves (a 10 % combo discount on the planning part is less than 10 % of the whole).
   */
  savingPercent: number;
}

function withSaving(separately: number, saving: number): PriceWithSaving {
  const capped = Math.min(Math.max(0, saving), separately);
  return {
    price: separately - capped,
    separately,
    saving: capped,
    savingPercent: separately > 0 ? Math.floor((capped * 100) / separately) : 0,
  };
}

interface ShopPricedProduct {
  productType: number;
  /** A combo's is the sum of its parts. */
  price: number;
  /** The combo discount percent (of the planning part). */
  discount: number;
  innerProducts: readonly { productKind: number; price: number }[];
}

/**
 * One unit of a shop product. A combo is charged like the cart prices it (`cartItemFor`): its
 * first planning part and its first manufacturing part, less the combo discount on the planning
 * part; a single product has no saving.
 */
export function shopProductPrice(product: ShopPricedProduct): PriceWithSaving {
  if (!isCombo(product) || product.innerProducts.length === 0) {
    return withSaving(product.price, 0);
  }
  const planning = product.innerProducts.find((p) => isPlanningKind(p.productKind));
  const manufacture = product.innerProducts.find((p) => !isPlanningKind(p.productKind));
  const separately = (planning?.price ?? 0) + (manufacture?.price ?? 0);
  return withSaving(separately, percentOf(planning?.price ?? 0, product.discount));
}

/** One priced order line (the server's breakdown): its combo discount against its parts. */
export function orderLinePrice(line: {
  planningPrice: number;
  manufacturePrice: number;
  sleevesPrice: number;
  comboDiscount: number;
}): PriceWithSaving {
  return withSaving(
    line.planningPrice + line.manufacturePrice + line.sleevesPrice,
    line.comboDiscount,
  );
}

/** A coupon's terms as the order summary names them: a percent, an amount or units. */
export interface CouponTerms {
  coupomType: number;
  value: number;
}

/**
 * Which discount an order got besides the combo's, and why. The rule the server charges by
 * (`priceOrder`): a valid coupon always replaces the instructor's discount, even a smaller one;
 * without a coupon the instructor's discount applies.
 */
export type DiscountChoice =
  | { kind: 'none' }
  | { kind: 'instructor'; percent: number }
  | { kind: 'coupon'; code: string; terms: CouponTerms | null }
  | {
      kind: 'couponReplacesInstructor';
      code: string;
      terms: CouponTerms | null;
      instructorPercent: number;
      /** The coupon gives less than the instructor's discount would have. */
      smaller: boolean;
    };

export function discountChoice(breakdown: {
  coupon: string | null;
  couponDiscount: number;
  instructorDiscount: number;
  couponTerms?: CouponTerms | null | undefined;
  instructorPercent?: number | undefined;
  /** What the instructor's discount would have taken off without the coupon. */
  instructorDiscountForgone?: number | undefined;
}): DiscountChoice {
  const instructorPercent = breakdown.instructorPercent ?? 0;
  if (breakdown.coupon !== null) {
    const terms = breakdown.couponTerms ?? null;
    if (instructorPercent <= 0) return { kind: 'coupon', code: breakdown.coupon, terms };
    const forgone = breakdown.instructorDiscountForgone ?? 0;
    return {
      kind: 'couponReplacesInstructor',
      code: breakdown.coupon,
      terms,
      instructorPercent,
      smaller: breakdown.couponDiscount < forgone,
    };
  }
  if (breakdown.instructorDiscount > 0 || instructorPercent > 0) {
    return { kind: 'instructor', percent: instructorPercent };
  }
  return { kind: 'none' };
}
