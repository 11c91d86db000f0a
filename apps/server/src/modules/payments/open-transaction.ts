import { randomBytes } from 'node:crypto';
import {
  REVIEW_REASONS,
  type CheckoutBreakdown,
  type Currency,
  type PaymentMethod,
  type Shipment,
} from '@dentflow/domain';
import type { CaseEventMessage } from '../../adapters/events/case-events';
import type { DbOrTx } from '../../db/client';
import { applyPaymentStatus, openPaymentReview, recordTransactionChange } from './payment-changes';
import {
  insertTransaction,
  setServicesTransaction,
  type TransactionRow,
} from './payments.repository';

/** A transaction's reference for payment providers (Pix txid, PayPal custom_id): unique, unguessable. */
const newTransactionReference = (caseId: number) =>
  `DF-${caseId}-${randomBytes(6).toString('hex').toUpperCase()}`;

/** What a new transaction charges and for which of the case's services. */
export interface NewTransaction {
  caseId: number;
  payerId: number;
  /** The coupon the order used, or null. */
  couponId: number | null;
  paymentMethod: PaymentMethod;
  currency: Currency;
  /** The server's price of the order: the transaction charges its total. */
  breakdown: CheckoutBreakdown;
  shipment: Shipment | null;
  /** The services this transaction pays (they are marked with it). */
  serviceIds: readonly number[];
  now: Date;
}

/**
 * Opens an `awaiting_payment` transaction for the given services of a case, in the caller's
 * database transaction with the case row locked: the one way a transaction is created (the
 * checkout and 'pay the remaining services'). The caller moves the case, then calls
 * `startTransaction`.
 */
export async function openTransaction(tx: DbOrTx, order: NewTransaction): Promise<TransactionRow> {
  const { breakdown, now } = order;
  const t = await insertTransaction(tx, {
    caseId: order.caseId,
    payerId: order.payerId,
    coupomId: order.couponId,
    reference: newTransactionReference(order.caseId),
    paymentMethod: order.paymentMethod,
    paymentStatus: 'awaiting_payment',
    currency: order.currency,
    priceTotal: breakdown.total,
    priceShipping: breakdown.shippingFee,
    descriptions: breakdown,
    shipment: order.shipment,
    createdAt: now,
    modifiedAt: now,
  });
  await setServicesTransaction(tx, order.serviceIds, t.id);
  return t;
}

/**
 * The audit and case history rows of a transaction opened on its own (not by a checkout, whose
 * own history row names it): method, total and the case status it was opened from.
 */
export function recordTransactionOpened(
  tx: DbOrTx,
  t: TransactionRow,
  opened: { actorId: number; now: Date; fromStatus: string },
): Promise<CaseEventMessage> {
  return recordTransactionChange(tx, t, {
    action: 'created',
    actorId: opened.actorId,
    now: opened.now,
    detail: {
      paymentMethod: t.paymentMethod,
      total: t.priceTotal,
      currency: t.currency,
      from: opened.fromStatus,
    },
  });
}

/**
 * What a new transaction starts with, once the case has moved: a card machine or insurance
 * payment is pre-paid at once — the case can be worked on — until an admin confirms it; the card
 * machine also asks for its approval review. Pix and web payments wait for payment.
 */
export async function startTransaction(
  tx: DbOrTx,
  t: TransactionRow,
  actorId: number,
  now: Date,
): Promise<CaseEventMessage[]> {
  if (t.paymentMethod !== 'physical' && t.paymentMethod !== 'dentalPrev') return [];
  if (t.paymentMethod === 'physical') {
    await openPaymentReview(tx, t, REVIEW_REASONS.physicalCardApproval, now);
  }
  return applyPaymentStatus(tx, t, 'pre_paid', { cause: 'staff', actorId, now });
}
