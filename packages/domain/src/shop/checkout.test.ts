import { describe, expect, it } from 'vitest';
import { checkoutProblems, checkoutRequestSchema, isCheckoutValid } from './checkout';
import { emptyShipment, type Shipment } from './shipment';
import type { CartItem } from './cart';
import { SAMPLE_ADDRESS } from '../test-fixtures';

const item = (patch: Partial<CartItem>): CartItem => ({
  cartProductId: 1,
  productPlanningId: null,
  productManufactureId: 2,
  qtdOpt: 1,
  quantity: 1,
  planningExtraData: null,
  manufactureData: { sleevesManufacture: null, sleevesQtd: 0 },
  ...patch,
});
const products = new Map([
  [2, { id: 2, enableKit: true, enableSleeve: false, shipping: true }],
  [3, { id: 3, enableKit: false, enableSleeve: true, shipping: true }],
  [4, { id: 4, enableKit: false, enableSleeve: false, shipping: false }],
]);
const address = SAMPLE_ADDRESS;
const shipment: Shipment = {
  addressType: 0,
  address,
  shipmentType: 1,
  shipmentOption: { fee: 1800, days: 7 },
};

describe('checkout rules', () => {
  it.each([
    [
      'kit option without sleeve manufacturer',
      [item({})],
      shipment,
      [{ kind: 'sleeveManufacturer', cartProductId: 1 }],
    ],
    [
      'kit option with sleeve manufacturer',
      [item({ manufactureData: { sleevesManufacture: 5, sleevesQtd: 0 } })],
      shipment,
      [],
    ],
    [
      'sleeve option with 0 sleeves',
      [item({ productManufactureId: 3 })],
      shipment,
      [{ kind: 'sleeveQuantity', cartProductId: 1 }],
    ],
    [
      'sleeve option with 2 sleeves',
      [
        item({
          productManufactureId: 3,
          manufactureData: { sleevesManufacture: null, sleevesQtd: 2 },
        }),
      ],
      shipment,
      [],
    ],
    [
      'shipment incomplete',
      [
        item({ productManufactureId: 4 }),
        item({
          cartProductId: 2,
          productManufactureId: 3,
          manufactureData: { sleevesManufacture: null, sleevesQtd: 1 },
        }),
      ],
      emptyShipment(),
      [{ kind: 'shipment' }],
    ],
    ['nothing ships: no shipment needed', [item({ productManufactureId: 4 })], emptyShipment(), []],
    [
      'planning only',
      [item({ productPlanningId: 9, productManufactureId: null, manufactureData: null })],
      null,
      [],
    ],
  ] as const)('%s', (_, items, s, problems) =>
    expect(checkoutProblems(items, s, products)).toEqual(problems),
  );

  it('an empty cart cannot check out', () => {
    expect(isCheckoutValid([], shipment, products)).toBe(false);
    expect(isCheckoutValid([item({ productManufactureId: 4 })], null, products)).toBe(true);
  });

  it('the order body carries no prices', () => {
    const body = {
      caseId: 3,
      items: [item({})],
      shipment,
      coupon: null,
      paymentMethod: 'pix',
      currency: 'BRL',
    };
    expect(checkoutRequestSchema.safeParse(body).success).toBe(true);
    expect(checkoutRequestSchema.safeParse({ ...body, items: [] }).success).toBe(false);
    expect(checkoutRequestSchema.safeParse({ ...body, paymentMethod: 'cash' }).success).toBe(false);
  });
});
