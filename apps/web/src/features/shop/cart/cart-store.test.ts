import { describe, expect, it } from 'vitest';
import { emptyShipment } from '@dentflow/domain';
import { cartStorageKey, dispatchCart, readCart } from './cart-store';
import { toggleProduct } from './cart-products';
import { comboProduct, shopProduct } from '../test-fixtures';

describe('cart store', () => {
  it('keeps each user their own cart in local storage', () => {
    dispatchCart(7, toggleProduct(shopProduct({ id: 1 })));
    expect(readCart(7).items.map((item) => item.cartProductId)).toEqual([1]);
    expect(readCart(8).items).toEqual([]);
    expect(JSON.parse(window.localStorage.getItem(cartStorageKey(7)) ?? '{}').items).toHaveLength(
      1,
    );
  });

  it('adds a combo with its inner planning and manufacturing items; toggling again removes it', () => {
    const combo = comboProduct({ id: 20 });
    const added = dispatchCart(7, toggleProduct(combo));
    expect(added.items[0]).toMatchObject({
      cartProductId: 30,
      productPlanningId: 10,
      productManufactureId: 20,
      manufactureData: { sleevesManufacture: null, sleevesQtd: 0 },
    });
    expect(dispatchCart(7, toggleProduct(combo)).items).toEqual([]);
  });

  it('any add or remove resets the shipment', () => {
    dispatchCart(7, toggleProduct(shopProduct({ id: 1 })));
    const shipment = {
      ...emptyShipment(),
      shipmentType: 0,
      shipmentOption: { fee: 2500, days: 3 },
    };
    expect(dispatchCart(7, { type: 'setShipment', shipment }).shipment.shipmentType).toBe(0);
    expect(dispatchCart(7, toggleProduct(shopProduct({ id: 2 }))).shipment).toEqual(
      emptyShipment(),
    );
  });

  it('drops a corrupt stored value', () => {
    window.localStorage.setItem(cartStorageKey(7), '{"items":[{"cartProductId":"x"}]');
    expect(readCart(7).items).toEqual([]);
    expect(window.localStorage.getItem(cartStorageKey(7))).toBeNull();
    window.localStorage.setItem(cartStorageKey(7), JSON.stringify({ items: [{ nope: 1 }] }));
    expect(readCart(7).items).toEqual([]);
    expect(window.localStorage.getItem(cartStorageKey(7))).toBeNull();
  });
});
