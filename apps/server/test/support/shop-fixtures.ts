import { randomUUID } from 'node:crypto';
import { eq, sql } from 'drizzle-orm';
import type { FastifyInstance, LightMyRequestResponse } from 'fastify';
import {
  cartItemFor,
  priceLanguageFor,
  priceOrder,
  pricingLineFor,
  shippingOptionsFor,
  shippingSettingsSchema,
  type CartItem,
  type Currency,
  type PriceBreakdown,
  type Product,
  type Shipment,
} from '@dentflow/domain';
import type { Db } from '../../src/db/client';
import { coupons, products, settings, sleeves } from '../../src/db/schema';
import { bearer, type Session } from './test-app';

/** Shop test helpers: API calls, carts built from the stored products, the engine's own price. */

export const shopCall =
  (app: FastifyInstance) =>
  (
    session: Session | null,
    method: 'GET' | 'POST',
    url: string,
    payload?: object,
  ): Promise<LightMyRequestResponse> =>
    app.inject({
      method,
      url,
      headers: session ? bearer(session) : {},
      ...(payload ? { payload } : {}),
    });

export type ProductRow = typeof products.$inferSelect;

export async function productByCode(db: Db, code: string): Promise<ProductRow> {
  const [row] = await db.select().from(products).where(eq(products.code, code)).limit(1);
  if (!row) throw new Error(`no product ${code}`);
  return row;
}

export async function sleeveIdByName(db: Db, name: string): Promise<number> {
  const [row] = await db
    .select({ id: sleeves.id })
    .from(sleeves)
    .where(eq(sleeves.sleeveManufacture, name))
    .limit(1);
  if (!row) throw new Error(`no sleeve ${name}`);
  return row.id;
}

const asCartProduct = (row: ProductRow) => ({
  id: row.id,
  productType: row.productType as Product['productType'],
  productKind: row.productKind,
  qtdOption: row.qtdOption as Product['qtdOption'],
  innerProducts: row.innerProducts,
});

export const PATIENT = { patient: { fname: 'Ana', lname: 'Lima' } };

/** The cart item the web builds for a stored product (with inner products for a combo). */
export async function cartItem(
  db: Db,
  code: string,
  options: {
    quantity?: number;
    sleeves?: { sleevesManufacture: number | null; sleevesQtd: number };
    planningExtraData?: Record<string, unknown> | null;
  } = {},
): Promise<CartItem> {
  const product = await productByCode(db, code);
  const inner = await Promise.all(
    product.innerProducts.map(async (id) => {
      const [row] = await db.select().from(products).where(eq(products.id, id));
      return asCartProduct(row!);
    }),
  );
  const item = cartItemFor(asCartProduct(product), inner);
  return {
    ...item,
    quantity: options.quantity ?? 1,
    planningExtraData: options.planningExtraData ?? null,
    manufactureData: item.manufactureData
      ? (options.sleeves ?? item.manufactureData)
      : item.manufactureData,
  };
}

export const SAO_PAULO = {
  zipCode: '01310-100',
  country: 'Brasil',
  state: 'SP',
  city: 'São Paulo',
  address: 'Avenida Paulista, 1000',
  complement: 'Sala 1',
};
export const RIO = {
  zipCode: '20040-020',
  country: 'Brasil',
  state: 'RJ',
  city: 'Rio de Janeiro',
  address: 'Avenida Rio Branco, 1',
  complement: '',
};

/** A delivery as the checkout sends it (the fee shown is the client's and is ignored). */
export const delivery = (shipmentType: number, address = SAO_PAULO): Shipment => ({
  addressType: 1,
  address,
  shipmentType,
  shipmentOption: { fee: 0, days: 0 },
});

export interface OrderBody {
  caseId: number | null;
  items: CartItem[];
  shipment: Shipment | null;
  coupon: string | null;
  paymentMethod: string;
  currency: Currency;
  idempotencyKey?: string;
}

export const order = (overrides: Partial<OrderBody> & Pick<OrderBody, 'items'>): OrderBody => ({
  caseId: null,
  shipment: null,
  coupon: null,
  paymentMethod: 'paypal',
  currency: 'USD',
  idempotencyKey: randomUUID(),
  ...overrides,
});

/**
 * What the domain engine charges for a cart, from the stored prices: the test's own pricing of
 * the order, to compare with the server's. `instructorPercent` applies without a coupon.
 */
export async function engineBreakdown(
  db: Db,
  cart: {
    items: readonly CartItem[];
    currency: Currency;
    coupon?: string | null;
    instructorPercent?: number;
    shipment?: Shipment | null;
  },
): Promise<PriceBreakdown> {
  const language = priceLanguageFor(cart.currency);
  const all = await db.select().from(products);
  const byId = new Map(
    all.map((p) => [
      p.id,
      {
        id: p.id,
        productType: p.productType as Product['productType'],
        productCategory: p.productCategoryId,
        texts: p.texts,
        price: p.price,
        discount: p.discount,
      },
    ]),
  );
  const sleeveRows = await db.select().from(sleeves);
  const sleeveOffers = sleeveRows.map((s) => ({
    id: s.id,
    sleeve_manufacture: s.sleeveManufacture,
    sleeve_price: s.prices[cart.currency],
  }));
  const [coupon] = cart.coupon
    ? await db
        .select()
        .from(coupons)
        .where(sql`lower(${coupons.code}) = lower(${cart.coupon})`)
    : [];
  let shippingFee = 0;
  if (cart.shipment) {
    const [row] = await db.select().from(settings).where(eq(settings.key, 'shipping'));
    const table = shippingSettingsSchema.parse(row!.value);
    const option = shippingOptionsFor(table, cart.shipment.address.zipCode, cart.currency).find(
      (o) => o.shipmentType === cart.shipment!.shipmentType,
    );
    shippingFee = option!.fee;
  }
  return priceOrder({
    lines: cart.items.map((item) => pricingLineFor(item, byId, language, sleeveOffers)),
    coupon: coupon ? { ...coupon, coupomType: coupon.coupomType as 1 | 2 | 3 } : null,
    instructorDiscountPercent: cart.instructorPercent ?? 0,
    shippingFee,
  });
}

/** Row counts of what a checkout creates. */
export async function shopCounts(db: Db) {
  const count = async (table: string) => {
    const result = await db.execute<{ n: number }>(
      sql`select count(*)::int as n from ${sql.identifier(table)}`,
    );
    return (result as unknown as { rows: { n: number }[] }).rows[0]!.n;
  };
  return {
    transactions: await count('transactions'),
    cases: await count('cases'),
    caseServices: await count('case_services'),
    couponUses: await count('coupon_uses'),
    checkoutRequests: await count('checkout_requests'),
  };
}
