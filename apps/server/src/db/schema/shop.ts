import {
  index,
  integer,
  jsonb,
  pgTable,
  serial,
  text,
  timestamp,
  uniqueIndex,
} from 'drizzle-orm/pg-core';
import type { CheckoutBreakdown, CheckoutResult, Shipment } from '@dentflow/domain';
import { users } from './accounts';
import { coupons } from './catalog';
import { cases } from './cases';

const at = (name: string) => timestamp(name, { withTimezone: true, mode: 'date' });

/** An amount per case currency, in minor units. */
export interface CurrencyAmounts {
  BRL: number;
  USD: number;
}

/** Sleeve: a manufacturer of guide sleeves and its price (per case currency). */
export const sleeves = pgTable('sleeves', {
  id: serial('id').primaryKey(),
  sleeveManufacture: text('sleeve_manufacture').notNull(),
  prices: jsonb('prices').$type<CurrencyAmounts>().notNull(),
  deletedAt: at('deleted_at'),
  modifiedAt: at('modified_at').notNull().defaultNow(),
});

/** Settings kept as documents by key (e.g. `shipping`, see `shippingSettingsSchema`). */
export const settings = pgTable('settings', {
  key: text('key').primaryKey(),
  value: jsonb('value').$type<unknown>().notNull(),
  modifiedAt: at('modified_at').notNull().defaultNow(),
});

/**
 * Transaction: what a payer owes for services of a case. The checkout creates it
 * `awaiting_payment`; payments move it on. `descriptions` is the server's line-by-line breakdown.
 */
export const transactions = pgTable(
  'transactions',
  {
    id: serial('id').primaryKey(),
    caseId: integer('case_id')
      .notNull()
      .references(() => cases.id, { onDelete: 'cascade' }),
    payerId: integer('payer_id')
      .notNull()
      .references(() => users.id),
    coupomId: integer('coupom_id').references(() => coupons.id),
    /** Our reference sent to payment providers. */
    reference: text('reference').notNull(),
    paymentMethod: text('payment_method').notNull(),
    paymentStatus: text('payment_status').notNull(),
    currency: text('currency').notNull(),
    priceTotal: integer('price_total').notNull(),
    priceShipping: integer('price_shipping').notNull().default(0),
    descriptions: jsonb('descriptions').$type<CheckoutBreakdown>().notNull(),
    /** The delivery chosen at checkout (null when nothing ships). */
    shipment: jsonb('shipment').$type<Shipment>(),
    gatewayCapture: text('gateway_capture'),
    gatewayMoney: integer('gateway_money'),
    gatewayCode: text('gateway_code'),
    gatewayStatus: text('gateway_status'),
    paymentLink: text('payment_link'),
    /** When the provider's last applied state happened: an older notice cannot undo it. */
    gatewayEventAt: at('gateway_event_at'),
    /** The current receipt, invoice customer and cancel (receiptId, invoiceId, cancelId). */
    receiptId: integer('receipt_id'),
    invoiceId: integer('invoice_id'),
    cancelId: integer('cancel_id'),
    createdAt: at('created_at').notNull().defaultNow(),
    modifiedAt: at('modified_at').notNull().defaultNow(),
    paidAt: at('paid_at'),
  },
  (t) => [
    index('transactions_case_idx').on(t.caseId),
    index('transactions_payer_idx').on(t.payerId),
    uniqueIndex('transactions_reference_unique').on(t.reference),
    index('transactions_gateway_code_idx').on(t.gatewayCode),
    index('transactions_status_idx').on(t.paymentStatus),
  ],
);

/** One row per checkout that used a coupon (once-per-user and the usage count's audit). */
export const couponUses = pgTable(
  'coupon_uses',
  {
    id: serial('id').primaryKey(),
    couponId: integer('coupon_id')
      .notNull()
      .references(() => coupons.id),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id),
    transactionId: integer('transaction_id')
      .notNull()
      .references(() => transactions.id, { onDelete: 'cascade' }),
    /** How much of `used` this use took (1, or the units a unit coupon gave). */
    units: integer('units').notNull().default(1),
    createdAt: at('created_at').notNull().defaultNow(),
  },
  (t) => [index('coupon_uses_coupon_user_idx').on(t.couponId, t.userId)],
);

/**
 * Idempotent checkout: the first request with a key stores its answer; the same key again (same
 * user) returns it and creates nothing. A concurrent duplicate waits on the unique index.
 */
export const checkoutRequests = pgTable(
  'checkout_requests',
  {
    id: serial('id').primaryKey(),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    idempotencyKey: text('idempotency_key').notNull(),
    /** sha256 of the request body, to refuse a key reused for another order. */
    requestHash: text('request_hash').notNull(),
    response: jsonb('response').$type<CheckoutResult>(),
    createdAt: at('created_at').notNull().defaultNow(),
  },
  (t) => [uniqueIndex('checkout_requests_user_key_unique').on(t.userId, t.idempotencyKey)],
);
