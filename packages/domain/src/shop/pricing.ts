/**
 * Pricing engine. Integer minor units only; one rounding rule
 * (docs/decisions/006-money-rounding.md): a percent of an amount is
 * `percentOf(base, percent) = Math.round(base * percent / 100)` — half-up, once per cart line —
 * and every discount is capped at the amount it discounts, so nothing is ever negative.
 *
 * Order total = planning price + manufacture price + sleeves (count × sleeve price)
 *             − combo discounts − coupon discount (or, with no coupon, the instructor discount)
 *             + shipping fee.
 */
import { COUPON_TYPES, remainingCouponUnits, type Coupon } from './coupon';
import { isPerElement } from './product';

export function assertMinorUnits(amount: number, what = 'amount'): void {
  if (!Number.isSafeInteger(amount) || amount < 0) {
    throw new RangeError(`${what} must be a non-negative integer of minor units, got ${amount}`);
  }
}

const clampPercent = (percent: number) =>
  Number.isFinite(percent) ? Math.min(100, Math.max(0, percent)) : 0;

/** The rounding rule: a percent (0-100) of an integer amount, half-up, never above the amount. */
export function percentOf(base: number, percent: number): number {
  assertMinorUnits(base, 'base');
  return Math.min(base, Math.round((base * clampPercent(percent)) / 100));
}

/** Per-element products multiply the unit price by the quantity; the others use the single price. */
export function linePrice(unitPrice: number, qtdOption: number, quantity: number): number {
  assertMinorUnits(unitPrice, 'unit price');
  const units = isPerElement(qtdOption) ? Math.max(0, Math.floor(quantity)) : 1;
  return unitPrice * units;
}

/** One priced part of a cart line: its planning or its manufacturing product. */
export interface PricedComponent {
  productId: number;
  categoryId: number;
  /** Minor units, in the order currency. */
  unitPrice: number;
}

/** A cart line with the prices the pricing engine needs (see cart.ts for building it). */
export interface PricingLine {
  cartProductId: number;
  cartCategoryId: number;
  /** The cart item's quantity option (1 per case, 2 per arch, 3 per element). */
  qtdOption: number;
  quantity: number;
  planning: PricedComponent | null;
  manufacture: PricedComponent | null;
  /** Combo discount percent of the planning price (0 for single products). */
  comboDiscountPercent: number;
  sleeves: { count: number; unitPrice: number } | null;
}

export type PricingCoupon = Pick<
  Coupon,
  'coupomType' | 'value' | 'used' | 'bind2Product' | 'bind2Category' | 'applyOnManufactureService'
>;

export interface PricingInput {
  lines: readonly PricingLine[];
  /** An applicable coupon (check couponRejection first), or null. */
  coupon: PricingCoupon | null;
  /** The instructor's discount percent; applies only when there is no coupon. */
  instructorDiscountPercent?: number;
  /** The chosen shipping option's fee, 0 when nothing ships. */
  shippingFee?: number;
}

export interface LinePrice {
  cartProductId: number;
  planningPrice: number;
  manufacturePrice: number;
  sleevesPrice: number;
  comboDiscount: number;
  /** Percent coupon or instructor discount of this line; fixed and unit coupons are order-level. */
  lineDiscount: number;
}

export interface PriceBreakdown {
  lines: LinePrice[];
  planningPrice: number;
  manufacturePrice: number;
  sleevesPrice: number;
  /** Before any discount or shipping. */
  subtotal: number;
  comboDiscount: number;
  couponDiscount: number;
  instructorDiscount: number;
  shippingFee: number;
  total: number;
  /**
   * How much of the coupon's `used` this order takes: 1 for a percent or fixed coupon; for a unit
   * coupon the units it gives (the discount over the bound unit price, rounded up, at most the
   * remaining units); 0 without a coupon.
   */
  couponUsesTaken: number;
}

/** Does a coupon's product/category binding cover the line (either of its products)? */
export function couponCoversLine(
  coupon: Pick<PricingCoupon, 'bind2Product' | 'bind2Category'>,
  line: PricingLine,
): boolean {
  const productIds = [line.cartProductId, line.planning?.productId, line.manufacture?.productId];
  const categoryIds = [
    line.cartCategoryId,
    line.planning?.categoryId,
    line.manufacture?.categoryId,
  ];
  const productOk = coupon.bind2Product === null || productIds.includes(coupon.bind2Product);
  const categoryOk = coupon.bind2Category === null || categoryIds.includes(coupon.bind2Category);
  return productOk && categoryOk;
}

interface BaseLine {
  line: PricingLine;
  planningPrice: number;
  manufacturePrice: number;
  sleevesPrice: number;
  comboDiscount: number;
}

/** What a coupon discounts on a line: planning after the combo discount, plus manufacture if set. */
const couponBase = (coupon: PricingCoupon | null, base: BaseLine) =>
  base.planningPrice -
  base.comboDiscount +
  (coupon?.applyOnManufactureService ? base.manufacturePrice : 0);

/** The unit price of the coupon's bound product among the covered lines (0 when absent). */
function boundUnitPrice(coupon: PricingCoupon, covered: readonly BaseLine[]): number {
  const prices = covered.flatMap(({ line }) =>
    [
      line.cartProductId === coupon.bind2Product
        ? (line.planning?.unitPrice ?? 0) + (line.manufacture?.unitPrice ?? 0)
        : null,
      line.planning?.productId === coupon.bind2Product ? line.planning.unitPrice : null,
      line.manufacture?.productId === coupon.bind2Product ? line.manufacture.unitPrice : null,
    ].filter((price): price is number => price !== null),
  );
  return prices.length ? Math.max(...prices) : 0;
}

export function priceOrder(input: PricingInput): PriceBreakdown {
  const shippingFee = input.shippingFee ?? 0;
  assertMinorUnits(shippingFee, 'shipping fee');
  const coupon = input.coupon;

  const bases: BaseLine[] = input.lines.map((line) => {
    const planningPrice = line.planning
      ? linePrice(line.planning.unitPrice, line.qtdOption, line.quantity)
      : 0;
    const manufacturePrice = line.manufacture
      ? linePrice(line.manufacture.unitPrice, line.qtdOption, line.quantity)
      : 0;
    const sleevesCount = Math.max(0, Math.floor(line.sleeves?.count ?? 0));
    if (line.sleeves) assertMinorUnits(line.sleeves.unitPrice, 'sleeve price');
    const sleevesPrice = sleevesCount * (line.sleeves?.unitPrice ?? 0);
    const comboDiscount = percentOf(planningPrice, line.comboDiscountPercent);
    return { line, planningPrice, manufacturePrice, sleevesPrice, comboDiscount };
  });

  const covered = coupon ? bases.filter((base) => couponCoversLine(coupon, base.line)) : [];
  const coveredBase = covered.reduce((sum, base) => sum + couponBase(coupon, base), 0);

  // Per-line discounts: a percent coupon, or the instructor percent when there is no coupon.
  const lineDiscounts = bases.map((base) => {
    if (coupon?.coupomType === COUPON_TYPES.percent) {
      return covered.includes(base) ? percentOf(couponBase(coupon, base), coupon.value) : 0;
    }
    if (!coupon) return percentOf(couponBase(null, base), input.instructorDiscountPercent ?? 0);
    return 0;
  });

  let couponDiscount = 0;
  if (coupon?.coupomType === COUPON_TYPES.percent) {
    couponDiscount = lineDiscounts.reduce((sum, d) => sum + d, 0);
  } else if (coupon?.coupomType === COUPON_TYPES.fixed) {
    couponDiscount = Math.min(Math.max(0, coupon.value), coveredBase);
  } else if (coupon?.coupomType === COUPON_TYPES.unit && coupon.bind2Product !== null) {
    couponDiscount = Math.min(
      remainingCouponUnits(coupon) * boundUnitPrice(coupon, covered),
      coveredBase,
    );
  }
  const instructorDiscount = coupon ? 0 : lineDiscounts.reduce((sum, d) => sum + d, 0);
  let couponUsesTaken = coupon ? 1 : 0;
  if (coupon?.coupomType === COUPON_TYPES.unit) {
    const unitPrice = boundUnitPrice(coupon, covered);
    couponUsesTaken =
      unitPrice > 0
        ? Math.min(remainingCouponUnits(coupon), Math.max(1, Math.ceil(couponDiscount / unitPrice)))
        : 1;
  }

  const sum = (pick: (base: BaseLine) => number) =>
    bases.reduce((total, base) => total + pick(base), 0);
  const planningPrice = sum((b) => b.planningPrice);
  const manufacturePrice = sum((b) => b.manufacturePrice);
  const sleevesPrice = sum((b) => b.sleevesPrice);
  const comboDiscount = sum((b) => b.comboDiscount);
  const subtotal = planningPrice + manufacturePrice + sleevesPrice;
  const total = Math.max(
    0,
    subtotal - comboDiscount - couponDiscount - instructorDiscount + shippingFee,
  );

  return {
    lines: bases.map((base, i) => ({
      cartProductId: base.line.cartProductId,
      planningPrice: base.planningPrice,
      manufacturePrice: base.manufacturePrice,
      sleevesPrice: base.sleevesPrice,
      comboDiscount: base.comboDiscount,
      lineDiscount: lineDiscounts[i] ?? 0,
    })),
    planningPrice,
    manufacturePrice,
    sleevesPrice,
    subtotal,
    comboDiscount,
    couponDiscount,
    instructorDiscount,
    shippingFee,
    total,
    couponUsesTaken,
  };
}
