import { describe, expect, it } from 'vitest';
import { shippingOptionsFor, zipDigits } from './shipping';
import type { ShippingSettings } from './shop-api';

const settings: ShippingSettings = {
  options: [
    { shipmentType: 3, fees: { BRL: 2500, USD: 600 }, days: 1, active: true },
    { shipmentType: 0, fees: { BRL: 4500, USD: 1000 }, days: 2, active: true },
    { shipmentType: 1, fees: { BRL: 2000, USD: 500 }, days: 7, active: false },
    { shipmentType: 2, fees: { BRL: 999, USD: 999 }, days: 0, active: true },
  ],
  motoboyZipRanges: [{ from: '01000000', to: '05999999' }],
};

describe('zipDigits', () => {
  it.each([
    ['01310-100', '01310100'],
    ['01310100', '01310100'],
    ['0131-010', null],
    ['', null],
    ['123456789', null],
  ])('%s → %s', (zip, expected) => expect(zipDigits(zip)).toBe(expected));
});

describe('shippingOptionsFor', () => {
  it.each([
    [
      '01310-100',
      'BRL',
      [
        [0, 4500, 2],
        [2, 0, 0],
        [3, 2500, 1],
      ],
    ],
    [
      '05999-999',
      'USD',
      [
        [0, 1000, 2],
        [2, 0, 0],
        [3, 600, 1],
      ],
    ],
    [
      '06000-000',
      'BRL',
      [
        [0, 4500, 2],
        [2, 0, 0],
      ],
    ],
    [
      '20000-000',
      'USD',
      [
        [0, 1000, 2],
        [2, 0, 0],
      ],
    ],
    ['bad', 'BRL', []],
  ] as const)('%s in %s', (zip, currency, expected) => {
    expect(
      shippingOptionsFor(settings, zip, currency).map((o) => [o.shipmentType, o.fee, o.days]),
    ).toEqual(expected);
  });
});
