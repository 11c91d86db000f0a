import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { linePrice, percentOf, priceOrder, type PricingCoupon, type PricingLine } from './pricing';

const line = (patch: Partial<PricingLine> = {}): PricingLine => ({
  cartProductId: 1,
  cartCategoryId: 1,
  qtdOption: 1,
  quantity: 1,
  planning: { productId: 1, categoryId: 1, unitPrice: 30000 },
  manufacture: null,
  comboDiscountPercent: 0,
  sleeves: null,
  ...patch,
});

// A combo (id 10, category 3): planning product 11 (R$ 500,00) and guide product 12 (R$ 200,00), 10% off.
const combo = line({
  cartProductId: 10,
  cartCategoryId: 3,
  planning: { productId: 11, categoryId: 3, unitPrice: 50000 },
  manufacture: { productId: 12, categoryId: 4, unitPrice: 20000 },
  comboDiscountPercent: 10,
});

const coupon = (patch: Partial<PricingCoupon>): PricingCoupon => ({
  coupomType: 1,
  value: 10,
  used: 0,
  bind2Product: null,
  bind2Category: null,
  applyOnManufactureService: false,
  ...patch,
});

describe('rounding rule: percent of an integer, half-up, never above the base', () => {
  it.each([
    [10000, 10, 1000],
    [999, 15, 150], // 149.85
    [333, 50, 167], // 166.5 → half up
    [1, 49, 0], // 0.49
    [1, 50, 1], // 0.5
    [12345, 0, 0],
    [12345, 100, 12345],
    [12345, 150, 12345], // clamped to 100 %
    [12345, -5, 0],
    [0, 30, 0],
  ])('%i × %i%% → %i', (base, percent, result) => expect(percentOf(base, percent)).toBe(result));

  it('refuses non-integer or negative bases', () => {
    expect(() => percentOf(10.5, 10)).toThrow(RangeError);
    expect(() => percentOf(-1, 10)).toThrow(RangeError);
  });
});

describe('per-element products multiply by quantity; others use the single price', () => {
  it.each([
    [10000, 1, 3, 10000],
    [10000, 2, 2, 10000],
    [10000, 3, 3, 30000],
    [10000, 3, 1, 10000],
  ])('%i, option %i, quantity %i → %i', (unit, option, quantity, price) =>
    expect(linePrice(unit, option, quantity)).toBe(price),
  );
});

describe('order total = planning + manufacture + sleeves − combo − coupon + shipping', () => {
  it.each([
    ['single planning', { lines: [line()], coupon: null }, { subtotal: 30000, total: 30000 }],
    [
      'per-element planning × 3',
      {
        lines: [
          line({
            qtdOption: 3,
            quantity: 3,
            planning: { productId: 1, categoryId: 1, unitPrice: 10000 },
          }),
        ],
        coupon: null,
      },
      { planningPrice: 30000, total: 30000 },
    ],
    [
      'combo 10% of planning',
      { lines: [combo], coupon: null },
      { planningPrice: 50000, manufacturePrice: 20000, comboDiscount: 5000, total: 65000 },
    ],
    [
      'sleeves 4 × 15,00',
      { lines: [line({ sleeves: { count: 4, unitPrice: 1500 } })], coupon: null },
      { sleevesPrice: 6000, total: 36000 },
    ],
    [
      'shipping fee',
      { lines: [line()], coupon: null, shippingFee: 2500 },
      { shippingFee: 2500, total: 32500 },
    ],
    [
      'percent coupon after combo, planning only',
      { lines: [combo], coupon: coupon({ value: 10 }) },
      { couponDiscount: 4500, total: 60500, couponUsesTaken: 1 },
    ],
    [
      'percent coupon with manufacture',
      { lines: [combo], coupon: coupon({ value: 10, applyOnManufactureService: true }) },
      { couponDiscount: 6500, total: 58500 },
    ],
    [
      'percent coupon bound to category 3',
      { lines: [combo, line()], coupon: coupon({ value: 20, bind2Category: 3 }) },
      { couponDiscount: 9000, total: 86000 },
    ],
    [
      'percent coupon bound to product 1',
      { lines: [combo, line()], coupon: coupon({ value: 20, bind2Product: 1 }) },
      { couponDiscount: 6000, total: 89000 },
    ],
    [
      'percent coupon bound to an absent product',
      { lines: [line()], coupon: coupon({ value: 20, bind2Product: 99 }) },
      { couponDiscount: 0, total: 30000 },
    ],
    [
      'fixed coupon',
      { lines: [line()], coupon: coupon({ coupomType: 2, value: 5000 }) },
      { couponDiscount: 5000, total: 25000, couponUsesTaken: 1 },
    ],
    [
      'fixed coupon capped at its base',
      { lines: [line()], coupon: coupon({ coupomType: 2, value: 99999 }), shippingFee: 1000 },
      { couponDiscount: 30000, total: 1000 },
    ],
    [
      'unit coupon: (3 − 1) × unit price',
      {
        lines: [
          line({
            qtdOption: 3,
            quantity: 5,
            planning: { productId: 1, categoryId: 1, unitPrice: 10000 },
          }),
        ],
        coupon: coupon({ coupomType: 3, value: 3, used: 1, bind2Product: 1 }),
      },
      { couponDiscount: 20000, total: 30000, couponUsesTaken: 2 },
    ],
    [
      'unit coupon capped at the units in the cart',
      {
        lines: [line({ planning: { productId: 1, categoryId: 1, unitPrice: 10000 } })],
        coupon: coupon({ coupomType: 3, value: 5, used: 0, bind2Product: 1 }),
      },
      { couponDiscount: 10000, total: 0, couponUsesTaken: 1 },
    ],
    [
      'unit coupon fully used',
      { lines: [line()], coupon: coupon({ coupomType: 3, value: 2, used: 2, bind2Product: 1 }) },
      { couponDiscount: 0, total: 30000 },
    ],
    [
      'instructor 15% with no coupon',
      { lines: [combo], coupon: null, instructorDiscountPercent: 15 },
      { instructorDiscount: 6750, total: 58250, couponUsesTaken: 0 },
    ],
    [
      'instructor ignored with a coupon',
      { lines: [combo], coupon: coupon({ value: 10 }), instructorDiscountPercent: 15 },
      { instructorDiscount: 0, couponDiscount: 4500, total: 60500 },
    ],
    [
      'empty cart',
      { lines: [], coupon: coupon({ coupomType: 2, value: 100 }), shippingFee: 0 },
      { total: 0 },
    ],
  ] as const)('%s', (_, input, expected) => {
    expect(priceOrder(input)).toMatchObject(expected);
  });

  it('breaks the price down per line', () => {
    const result = priceOrder({
      lines: [combo, line()],
      coupon: coupon({ value: 10, bind2Category: 3 }),
    });
    expect(result.lines).toEqual([
      {
        cartProductId: 10,
        planningPrice: 50000,
        manufacturePrice: 20000,
        sleevesPrice: 0,
        comboDiscount: 5000,
        lineDiscount: 4500,
      },
      {
        cartProductId: 1,
        planningPrice: 30000,
        manufacturePrice: 0,
        sleevesPrice: 0,
        comboDiscount: 0,
        lineDiscount: 0,
      },
    ]);
  });

  it('refuses a non-integer shipping fee', () => {
    expect(() => priceOrder({ lines: [], coupon: null, shippingFee: 1.5 })).toThrow(RangeError);
  });
});

// Property tests over random carts and coupons.
const money = fc.integer({ min: 0, max: 5_000_000 });
const productId = fc.integer({ min: 1, max: 6 });
const categoryId = fc.integer({ min: 1, max: 8 });
const component = fc.record({ productId, categoryId, unitPrice: money });
const lineArb: fc.Arbitrary<PricingLine> = fc.record({
  cartProductId: fc.integer({ min: 1, max: 10 }),
  cartCategoryId: categoryId,
  qtdOption: fc.constantFrom(1, 2, 3),
  quantity: fc.integer({ min: 1, max: 32 }),
  planning: fc.option(component, { nil: null }),
  manufacture: fc.option(component, { nil: null }),
  comboDiscountPercent: fc.integer({ min: 0, max: 100 }),
  sleeves: fc.option(fc.record({ count: fc.integer({ min: 0, max: 10 }), unitPrice: money }), {
    nil: null,
  }),
});
const couponArb: fc.Arbitrary<PricingCoupon | null> = fc.option(
  fc
    .record({
      coupomType: fc.constantFrom(1 as const, 2 as const, 3 as const),
      value: fc.integer({ min: 0, max: 10_000_000 }),
      used: fc.integer({ min: 0, max: 10 }),
      bind2Product: fc.option(productId, { nil: null }),
      bind2Category: fc.option(categoryId, { nil: null }),
      applyOnManufactureService: fc.boolean(),
    })
    .map((c) => (c.coupomType === 1 ? { ...c, value: c.value % 101 } : c)),
  { nil: null },
);
const inputArb = fc.record({
  lines: fc.array(lineArb, { maxLength: 8 }),
  coupon: couponArb,
  instructorDiscountPercent: fc.integer({ min: 0, max: 100 }),
  shippingFee: money,
});

describe('pricing invariants (property tests)', () => {
  it('the total is never negative and matches the formula', () => {
    fc.assert(
      fc.property(inputArb, (input) => {
        const r = priceOrder(input);
        expect(r.total).toBeGreaterThanOrEqual(0);
        expect(Number.isSafeInteger(r.total)).toBe(true);
        expect(r.total).toBe(
          r.subtotal - r.comboDiscount - r.couponDiscount - r.instructorDiscount + r.shippingFee,
        );
      }),
    );
  });

  it('a discount never exceeds its base', () => {
    fc.assert(
      fc.property(inputArb, (input) => {
        const r = priceOrder(input);
        for (const l of r.lines) {
          expect(l.comboDiscount).toBeLessThanOrEqual(l.planningPrice);
          expect(l.lineDiscount).toBeLessThanOrEqual(
            l.planningPrice - l.comboDiscount + l.manufacturePrice,
          );
          expect(l.comboDiscount).toBeGreaterThanOrEqual(0);
          expect(l.lineDiscount).toBeGreaterThanOrEqual(0);
        }
        // Coupons and the instructor discount never touch sleeves or shipping.
        expect(r.couponDiscount + r.instructorDiscount).toBeLessThanOrEqual(
          r.planningPrice - r.comboDiscount + r.manufacturePrice,
        );
        expect(r.couponDiscount === 0 || r.instructorDiscount === 0).toBe(true);
      }),
    );
  });

  it('item order does not change the total', () => {
    fc.assert(
      fc.property(inputArb, fc.infiniteStream(fc.nat()), (input, seeds) => {
        const shuffled = [...input.lines];
        for (let i = shuffled.length - 1; i > 0; i--) {
          const j = (seeds.next().value as number) % (i + 1);
          [shuffled[i], shuffled[j]] = [shuffled[j] as PricingLine, shuffled[i] as PricingLine];
        }
        const a = priceOrder(input);
        const b = priceOrder({ ...input, lines: shuffled });
        expect(b.total).toBe(a.total);
        expect(b.couponDiscount).toBe(a.couponDiscount);
      }),
    );
  });

  it('adding an item never lowers the total before discounts', () => {
    fc.assert(
      fc.property(inputArb, lineArb, (input, extra) => {
        const before = priceOrder(input).subtotal;
        const after = priceOrder({ ...input, lines: [...input.lines, extra] }).subtotal;
        expect(after).toBeGreaterThanOrEqual(before);
      }),
    );
  });

  it('a bigger percent coupon never gives a smaller discount', () => {
    fc.assert(
      fc.property(
        fc.array(lineArb, { maxLength: 6 }),
        fc.integer({ min: 0, max: 100 }),
        fc.integer({ min: 0, max: 100 }),
        (lines, p, q) => {
          const [low, high] = p <= q ? [p, q] : [q, p];
          const d = (value: number) =>
            priceOrder({ lines, coupon: coupon({ value }) }).couponDiscount;
          expect(d(high)).toBeGreaterThanOrEqual(d(low));
        },
      ),
    );
  });
});
