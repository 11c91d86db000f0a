import {
  boolean,
  index,
  integer,
  jsonb,
  pgTable,
  serial,
  text,
  timestamp,
  uniqueIndex,
} from 'drizzle-orm/pg-core';
import type { Address } from '@dentflow/domain';
import { users } from './accounts';
import { transactions } from './shop';

const at = (name: string) => timestamp(name, { withTimezone: true, mode: 'date' });

/**
 * Receipt: a payer's proof of payment (text and optional file in the file store), then a
 * staff decision. A denied receipt stays here for the record and is unlinked from its
 * transaction, so the payer may send another.
 */
export const transactionReceipts = pgTable(
  'transaction_receipts',
  {
    id: serial('id').primaryKey(),
    transactionId: integer('transaction_id')
      .notNull()
      .references(() => transactions.id, { onDelete: 'cascade' }),
    justification: text('justification').notNull().default(''),
    storageKey: text('storage_key'),
    fileName: text('file_name'),
    fileSize: integer('file_size'),
    contentType: text('content_type'),
    submittedBy: integer('submitted_by').references(() => users.id),
    submittedAt: at('submitted_at').notNull().defaultNow(),
    authUser: integer('auth_user').references(() => users.id),
    authAt: at('auth_at'),
    /** The decision: true approved, false denied, null pending. */
    approved: boolean('approved'),
  },
  (t) => [index('transaction_receipts_transaction_idx').on(t.transactionId)],
);

/** Invoice customer: who the invoice is made out to, and its number once issued. */
export const invoiceCustomers = pgTable('invoice_customers', {
  id: serial('id').primaryKey(),
  transactionId: integer('transaction_id')
    .notNull()
    .references(() => transactions.id, { onDelete: 'cascade' }),
  customerName: text('customer_name').notNull(),
  documentType: text('document_type').notNull(),
  document: text('document').notNull(),
  email: text('email').notNull().default(''),
  address: jsonb('address').$type<Address>().notNull(),
  invoiceNumber: text('invoice_number'),
  modifiedAt: at('modified_at').notNull().defaultNow(),
});

/**
 * Cancel record: requested with a reason, then authorised or denied. A denied one stays
 * for the record (deniedAt) and is unlinked from its transaction.
 */
export const transactionCancels = pgTable(
  'transaction_cancels',
  {
    id: serial('id').primaryKey(),
    transactionId: integer('transaction_id')
      .notNull()
      .references(() => transactions.id, { onDelete: 'cascade' }),
    reasonId: integer('reason_id').notNull(),
    description: text('description').notNull(),
    requestUser: integer('request_user').references(() => users.id),
    requestAt: at('request_at').notNull().defaultNow(),
    authUser: integer('auth_user').references(() => users.id),
    authAt: at('auth_at'),
    deniedAt: at('denied_at'),
  },
  (t) => [index('transaction_cancels_transaction_idx').on(t.transactionId)],
);

/**
 * Every provider notice (PayPal webhook, PagBank notification, a return or a refresh read) once:
 * the unique key makes the same notice twice a no-op, and the outcome says what it did.
 */
export const paymentNotices = pgTable(
  'payment_notices',
  {
    id: serial('id').primaryKey(),
    provider: text('provider').notNull(),
    /** The provider's event id, or a hash of the verified content when it has none. */
    eventKey: text('event_key').notNull(),
    transactionId: integer('transaction_id').references(() => transactions.id, {
      onDelete: 'set null',
    }),
    /** applied, ignored_stale, ignored_same, amount_mismatch, unknown_transaction, rejected. */
    outcome: text('outcome').notNull(),
    providerStatus: text('provider_status'),
    detail: jsonb('detail').$type<Record<string, unknown>>().notNull().default({}),
    receivedAt: at('received_at').notNull().defaultNow(),
  },
  (t) => [uniqueIndex('payment_notices_provider_key_unique').on(t.provider, t.eventKey)],
);
