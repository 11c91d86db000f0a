import { eq } from 'drizzle-orm';
import { COUPON_TYPES, SHIPPING_OPTIONS, type ShippingSettings } from '@dentflow/domain';
import type { DbOrTx } from '../../client';
import { coupons, products, settings, sleeves } from '../../schema';

/** Sleeve manufacturers with a price per case currency (minor units). */
const SLEEVES = [
  { sleeveManufacture: 'Neodent', prices: { BRL: 3500, USD: 700 } },
  { sleeveManufacture: 'Straumann', prices: { BRL: 4200, USD: 850 } },
  { sleeveManufacture: 'S.I.N. Implant System', prices: { BRL: 2800, USD: 550 } },
];

/** The Pix receiver of the demo (settings key `payments`, see payment-settings.ts). */
const DEMO_PAYMENTS = {
  pixKey: 'pagamentos@dentflow.example',
  pixMerchantName: 'Dentflow Demo',
  pixMerchantCity: 'Sao Paulo',
};

/**
 * The shipping table (settings key `shipping`): fees per currency and days; the motoboy serves
 * São Paulo city (zip 01000-000 to 05999-999, where the demo users live).
 */
export const DEMO_SHIPPING: ShippingSettings = {
  options: [
    { shipmentType: SHIPPING_OPTIONS.sedex, fees: { BRL: 4500, USD: 1500 }, days: 3, active: true },
    { shipmentType: SHIPPING_OPTIONS.pac, fees: { BRL: 2500, USD: 900 }, days: 8, active: true },
    {
      shipmentType: SHIPPING_OPTIONS.localWithdraw,
      fees: { BRL: 0, USD: 0 },
      days: 1,
      active: true,
    },
    {
      shipmentType: SHIPPING_OPTIONS.motoboy,
      fees: { BRL: 3000, USD: 600 },
      days: 1,
      active: true,
    },
  ],
  motoboyZipRanges: [{ from: '01000000', to: '05999999' }],
};

/**
 * Shop demo data, inside `seedDemoData`'s transaction after the products: sleeves, the shipping
 * table and one coupon of each kind (percent, fixed, unit bound to the guide planning, expired).
 */
export async function seedDemoShop(tx: DbOrTx): Promise<void> {
  await tx.insert(sleeves).values(SLEEVES);
  await tx.insert(settings).values({ key: 'shipping', value: DEMO_SHIPPING }).onConflictDoNothing();
  // A demo Pix receiver, so Pix works on a fresh `npm start` (administration edits it).
  await tx.insert(settings).values({ key: 'payments', value: DEMO_PAYMENTS }).onConflictDoNothing();
  const [guidePlanning] = await tx
    .select({ id: products.id })
    .from(products)
    .where(eq(products.code, 'PLAN-GUIDE'))
    .limit(1);
  await tx
    .insert(coupons)
    .values([
      { code: 'WELCOME10', coupomType: COUPON_TYPES.percent, value: 10, maxUsage: 1000 },
      { code: 'FIXO50', coupomType: COUPON_TYPES.fixed, value: 5000, maxUsage: 500 },
      ...(guidePlanning
        ? [
            {
              code: 'GUIA1',
              coupomType: COUPON_TYPES.unit,
              value: 1,
              bind2Product: guidePlanning.id,
            },
          ]
        : []),
      {
        code: 'OLD20',
        coupomType: COUPON_TYPES.percent,
        value: 20,
        expireAt: new Date('2024-01-01T00:00:00Z'),
      },
    ])
    .onConflictDoNothing();
}
