import { describe, expect, it } from 'vitest';
import { discountChoice, orderLinePrice, shopProductPrice } from './price-display';

const planning = (price: number) => ({ productKind: 1, price });
const guide = (price: number) => ({ productKind: 2, price });

describe('a shop product: price, parts separately and saving', () => {
  it.each([
    // name, product, price, separately, saving, savingPercent
    [
      'single product: no saving',
      { productType: 1, price: 30000, discount: 0, innerProducts: [] },
      30000,
      30000,
      0,
      0,
    ],
    [
      'combo 10 % of the planning part (R$ 500 + R$ 200)',
      {
        productType: 2,
        price: 70000,
        discount: 10,
        innerProducts: [planning(50000), guide(20000)],
      },
      65000,
      70000,
      5000,
      7, // 5000 / 70000 = 7.14 %, rounded down
    ],
    [
      'combo 15 % rounds the cents half-up like the checkout (15 % of 999 = 149.85)',
      { productType: 2, price: 1999, discount: 15, innerProducts: [planning(999), guide(1000)] },
      1849,
      1999,
      150,
      7,
    ],
    [
      'combo without a discount',
      { productType: 2, price: 70000, discount: 0, innerProducts: [planning(50000), guide(20000)] },
      70000,
      70000,
      0,
      0,
    ],
    [
      'combo of manufacturing parts only: nothing to discount',
      { productType: 2, price: 40000, discount: 20, innerProducts: [guide(20000), guide(20000)] },
      20000,
      20000,
      0,
      0,
    ],
    [
      'combo whose parts are free',
      { productType: 2, price: 0, discount: 10, innerProducts: [planning(0), guide(0)] },
      0,
      0,
      0,
      0,
    ],
    [
      'combo 100 % off the planning part',
      {
        productType: 2,
        price: 30000,
        discount: 100,
        innerProducts: [planning(10000), guide(20000)],
      },
      20000,
      30000,
      10000,
      33,
    ],
  ])('%s', (_name, product, price, separately, saving, savingPercent) => {
    expect(shopProductPrice(product)).toEqual({ price, separately, saving, savingPercent });
  });
});

describe('an order line: combo discount against its parts', () => {
  it.each([
    [
      { planningPrice: 50000, manufacturePrice: 20000, sleevesPrice: 0, comboDiscount: 5000 },
      65000,
      70000,
      5000,
      7,
    ],
    [
      { planningPrice: 30000, manufacturePrice: 0, sleevesPrice: 0, comboDiscount: 0 },
      30000,
      30000,
      0,
      0,
    ],
    [
      { planningPrice: 150000, manufacturePrice: 60000, sleevesPrice: 4000, comboDiscount: 15000 },
      199000,
      214000,
      15000,
      7,
    ],
    [{ planningPrice: 0, manufacturePrice: 0, sleevesPrice: 0, comboDiscount: 0 }, 0, 0, 0, 0],
  ])('%o', (line, price, separately, saving, savingPercent) => {
    expect(orderLinePrice(line)).toEqual({ price, separately, saving, savingPercent });
  });
});

describe('which discount applies, and why', () => {
  const base = { coupon: null, couponDiscount: 0, instructorDiscount: 0 };
  it.each([
    ['nothing', base, { kind: 'none' }],
    [
      'orders placed before the terms were recorded, no coupon',
      { ...base, instructorDiscount: 3000 },
      { kind: 'instructor', percent: 0 },
    ],
    [
      'the instructor discount with no coupon',
      { ...base, instructorDiscount: 3000, instructorPercent: 10, couponTerms: null },
      { kind: 'instructor', percent: 10 },
    ],
    [
      'a coupon and no instructor',
      {
        ...base,
        coupon: 'WELCOME10',
        couponDiscount: 3000,
        couponTerms: { coupomType: 1, value: 10 },
        instructorPercent: 0,
      },
      { kind: 'coupon', code: 'WELCOME10', terms: { coupomType: 1, value: 10 } },
    ],
    [
      'a larger coupon replaces the instructor discount',
      {
        ...base,
        coupon: 'CLINIC15',
        couponDiscount: 4500,
        couponTerms: { coupomType: 1, value: 15 },
        instructorPercent: 10,
        instructorDiscountForgone: 3000,
      },
      {
        kind: 'couponReplacesInstructor',
        code: 'CLINIC15',
        terms: { coupomType: 1, value: 15 },
        instructorPercent: 10,
        smaller: false,
      },
    ],
    [
      'a smaller coupon still replaces it (the coupon always wins)',
      {
        ...base,
        coupon: 'FIXO50',
        couponDiscount: 5000,
        couponTerms: { coupomType: 2, value: 5000 },
        instructorPercent: 10,
        instructorDiscountForgone: 30000,
      },
      {
        kind: 'couponReplacesInstructor',
        code: 'FIXO50',
        terms: { coupomType: 2, value: 5000 },
        instructorPercent: 10,
        smaller: true,
      },
    ],
    [
      'an equal coupon is not smaller',
      {
        ...base,
        coupon: 'WELCOME10',
        couponDiscount: 3000,
        couponTerms: { coupomType: 1, value: 10 },
        instructorPercent: 10,
        instructorDiscountForgone: 3000,
      },
      {
        kind: 'couponReplacesInstructor',
        code: 'WELCOME10',
        terms: { coupomType: 1, value: 10 },
        instructorPercent: 10,
        smaller: false,
      },
    ],
  ])('%s', (_name, breakdown, expected) => {
    expect(discountChoice(breakdown)).toEqual(expected);
  });
});
