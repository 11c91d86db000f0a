import { describe, expect, it } from 'vitest';
import { cartItemFor, cartReducer, emptyCart, isInCart, pricingLineFor } from './cart';
import {
  emptyShipment,
  isShipmentComplete,
  needsDeliveryAddress,
  shippingFee,
  type Shipment,
} from './shipment';
import { priceOrder } from './pricing';
import type { Product } from './product';
import { SAMPLE_ADDRESS } from '../test-fixtures';

const product = (patch: Partial<Product>): Product => ({
  id: 1,
  productType: 1,
  productCategory: 3,
  code: 'P1',
  innerProducts: [],
  image: null,
  manufactureTime: 1,
  productKind: 1,
  qtdOption: 1,
  qtdMax: 1,
  alignment: false,
  favorite: false,
  kindOfManufacture: null,
  enableKit: false,
  enableSleeve: false,
  mockup: false,
  shipping: false,
  clientPrints: false,
  createdAt: '2025-01-01T00:00:00Z',
  modifiedAt: '2025-01-01T00:00:00Z',
  deletedAt: null,
  uploadFiles: false,
  downloadFiles: false,
  texts: {
    ptBR: { name: 'Planejamento', description: '', price: 50000, discount: 0, publish: true },
    en: { name: 'Planning', description: '', price: 10000, discount: 0, publish: true },
    es: { name: 'Planificación', description: '', price: 10000, discount: 0, publish: true },
  },
  price: 50000,
  discount: 0,
  ...patch,
});

const planning = product({ id: 11 });
const guide = product({
  id: 12,
  productKind: 2,
  productCategory: 4,
  enableSleeve: true,
  shipping: true,
  texts: { ...planning.texts, ptBR: { ...planning.texts.ptBR, price: 20000 } },
});
const combo = product({
  id: 10,
  productType: 2,
  innerProducts: [11, 12],
  texts: { ...planning.texts, ptBR: { ...planning.texts.ptBR, discount: 10 } },
});
const address = SAMPLE_ADDRESS;
const chosenShipment: Shipment = {
  addressType: 0,
  address,
  shipmentType: 0,
  shipmentOption: { fee: 2500, days: 3 },
};

describe('cart items for products', () => {
  it.each([
    [
      'single planning',
      planning,
      [],
      {
        cartProductId: 11,
        productPlanningId: 11,
        productManufactureId: null,
        manufactureData: null,
      },
    ],
    [
      'single manufacturing',
      guide,
      [],
      {
        cartProductId: 12,
        productPlanningId: null,
        productManufactureId: 12,
        manufactureData: { sleevesManufacture: null, sleevesQtd: 0 },
      },
    ],
    [
      'combo with inner items',
      combo,
      [planning, guide],
      { cartProductId: 10, productPlanningId: 11, productManufactureId: 12 },
    ],
  ] as const)('%s', (_, p, inner, expected) =>
    expect(cartItemFor(p, inner)).toMatchObject(expected),
  );
});

describe('cart reducer: toggle adds or removes; any add or remove resets shipment', () => {
  it('toggles', () => {
    let cart = cartReducer(emptyCart(), { type: 'setShipment', shipment: chosenShipment });
    cart = cartReducer(cart, { type: 'toggle', product: combo, innerProducts: [planning, guide] });
    expect(isInCart(cart, 10)).toBe(true);
    expect(cart.shipment).toEqual(emptyShipment());

    cart = cartReducer(cart, { type: 'setShipment', shipment: chosenShipment });
    cart = cartReducer(cart, { type: 'toggle', product: planning });
    expect(cart.items.map((i) => i.cartProductId)).toEqual([10, 11]);
    expect(cart.shipment.shipmentType).toBe(-1);

    cart = cartReducer(cart, { type: 'setShipment', shipment: chosenShipment });
    cart = cartReducer(cart, { type: 'toggle', product: combo });
    expect(cart.items.map((i) => i.cartProductId)).toEqual([11]);
    expect(cart.shipment.shipmentType).toBe(-1);
  });

  it('remove resets shipment; removing an absent item changes nothing', () => {
    let cart = cartReducer(emptyCart(), { type: 'toggle', product: planning });
    cart = cartReducer(cart, { type: 'setShipment', shipment: chosenShipment });
    expect(cartReducer(cart, { type: 'remove', cartProductId: 99 })).toBe(cart);
    const removed = cartReducer(cart, { type: 'remove', cartProductId: 11 });
    expect(removed.items).toEqual([]);
    expect(removed.shipment.shipmentType).toBe(-1);
  });

  it('quantity, sleeves and extra data keep the shipment', () => {
    let cart = cartReducer(emptyCart(), { type: 'toggle', product: guide });
    cart = cartReducer(cart, { type: 'setShipment', shipment: chosenShipment });
    cart = cartReducer(cart, { type: 'setQuantity', cartProductId: 12, quantity: 9, qtdMax: 4 });
    cart = cartReducer(cart, {
      type: 'setSleeves',
      cartProductId: 12,
      sleevesManufacture: 2,
      sleevesQtd: 3,
    });
    cart = cartReducer(cart, {
      type: 'setPlanningExtraData',
      cartProductId: 12,
      data: { note: 'x' },
    });
    expect(cart.items[0]).toMatchObject({
      quantity: 4,
      manufactureData: { sleevesManufacture: 2, sleevesQtd: 3 },
      planningExtraData: { note: 'x' },
    });
    expect(cart.shipment).toEqual(chosenShipment);
    expect(
      cartReducer(cart, { type: 'setQuantity', cartProductId: 12, quantity: 0 }).items[0]?.quantity,
    ).toBe(1);
    expect(cartReducer(cart, { type: 'clear' })).toEqual(emptyCart());
  });
});

describe('from cart to price', () => {
  it('prices a combo in BRL with sleeves and shipping', () => {
    const products = new Map([planning, guide, combo].map((p) => [p.id, p]));
    let cart = cartReducer(emptyCart(), {
      type: 'toggle',
      product: combo,
      innerProducts: [planning, guide],
    });
    cart = cartReducer(cart, {
      type: 'setSleeves',
      cartProductId: 10,
      sleevesManufacture: 7,
      sleevesQtd: 2,
    });
    const lines = cart.items.map((item) =>
      pricingLineFor(item, products, 'ptBR', [
        { id: 7, sleeve_manufacture: 'Neodent', sleeve_price: 1500 },
      ]),
    );
    const result = priceOrder({ lines, coupon: null, shippingFee: shippingFee(chosenShipment) });
    // 500,00 + 200,00 + 2 × 15,00 − 10% of 500,00 + 25,00
    expect(result).toMatchObject({
      planningPrice: 50000,
      manufacturePrice: 20000,
      sleevesPrice: 3000,
      comboDiscount: 5000,
      shippingFee: 2500,
      total: 70500,
    });
  });

  it('uses the language price (USD for en)', () => {
    const products = new Map([[planning.id, planning]]);
    const [item] = cartReducer(emptyCart(), { type: 'toggle', product: planning }).items;
    expect(pricingLineFor(item!, products, 'en').planning?.unitPrice).toBe(10000);
    expect(() => pricingLineFor(item!, new Map(), 'en')).toThrow(/unknown product/);
  });
});

describe('shipment', () => {
  it.each([
    ['default', emptyShipment(), false],
    ['chosen with address', chosenShipment, true],
    ['no option', { ...chosenShipment, shipmentOption: null }, false],
    ['incomplete address', { ...chosenShipment, address: { ...address, city: '' } }, false],
    [
      'local withdraw needs no address',
      { ...chosenShipment, shipmentType: 2, address: { ...address, zipCode: '' } },
      true,
    ],
  ])('%s → %s', (_, shipment, ok) => expect(isShipmentComplete(shipment)).toBe(ok));
  it('type defaults to -1 and fee to 0', () => {
    expect(emptyShipment().shipmentType).toBe(-1);
    expect(shippingFee(emptyShipment())).toBe(0);
    expect(needsDeliveryAddress(3)).toBe(true);
  });
});
