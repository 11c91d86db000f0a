/**
 * The payment status machine: which moves each cause may make, and how the providers' own status
 * words (PayPal Orders v2 and webhooks, PagBank charges) map onto our statuses.
 */
import type { PaymentStatus } from './payment';

/**
 * Why a payment status changes.
 * - `provider`: a verified PayPal/PagBank notice, or a re-read of the order at the provider.
 * - `staff`: a receipt authorised, the card machine or insurance payment confirmed, or the payer
 *   chose a method that is pre-paid at once (card machine, insurance).
 * - `cancel`: an authorised cancel.
 */
export type PaymentChangeCause = 'provider' | 'staff' | 'cancel';

/** Nothing leaves these: a cancelled transaction stays cancelled, money returned stays returned. */
const TERMINAL_STATUSES: readonly PaymentStatus[] = ['cancelled', 'returned'];

/** What staff may confirm, by status. Staff never undo a payment: the way back is a cancel. */
const STAFF_MOVES: Partial<Record<PaymentStatus, readonly PaymentStatus[]>> = {
  // A receipt or a card machine / insurance confirmation pays it; choosing the card machine or
  // insurance makes a new transaction pre-paid (the case can be worked on) until confirmed.
  awaiting_payment: ['pre_paid', 'paid'],
  // A receipt authorised while the provider was still analysing (the money did arrive).
  under_analysis: ['paid'],
  // An admin confirms a card machine or insurance payment.
  pre_paid: ['paid'],
};

/**
 * What a provider may report, by status. Providers move forward only: never from paid (or later)
 * back to awaiting_payment, under_analysis or pre_paid, and never to cancelled once money was
 * received (money going back is `returned`). Providers never set pre_paid: only staff do.
 */
const PROVIDER_MOVES: Partial<Record<PaymentStatus, readonly PaymentStatus[]>> = {
  // Before the payer paid: the provider may start analysing, take the money, void the order; a
  // transaction still being requested becomes payable.
  requesting: ['awaiting_payment', 'under_analysis', 'paid', 'cancelled'],
  awaiting_payment: ['under_analysis', 'paid', 'cancelled'],
  // Analysis ends paid, declined (back to awaiting_payment: the payer may try again) or voided.
  under_analysis: ['paid', 'awaiting_payment', 'cancelled'],
  // A card machine or insurance payment the provider confirms.
  pre_paid: ['paid'],
  // After payment: released to us, refunded, disputed, taken back or held by the provider.
  paid: ['available', 'returned', 'in_dispute', 'debited', 'temporary_retention'],
  available: ['returned', 'in_dispute', 'debited'],
  // A dispute is won (paid, or released: available) or lost (returned).
  in_dispute: ['paid', 'returned', 'available'],
  // A hold ends with the money kept (paid, available) or given back (returned).
  temporary_retention: ['paid', 'available', 'returned'],
  // Money taken back from our balance ends as returned.
  debited: ['returned'],
};

/**
 * Whether `cause` may move a payment from `from` to `to`:
 * - the same status is no move (false);
 * - nothing leaves `cancelled` or `returned` (terminal);
 * - `cancel` moves any other status to `cancelled`, and only there;
 * - `staff` and `provider` follow `STAFF_MOVES` and `PROVIDER_MOVES` above.
 */
export function canMovePayment(
  from: PaymentStatus,
  to: PaymentStatus,
  cause: PaymentChangeCause,
): boolean {
  if (from === to || TERMINAL_STATUSES.includes(from)) return false;
  switch (cause) {
    case 'cancel':
      return to === 'cancelled';
    case 'staff':
      return STAFF_MOVES[from]?.includes(to) ?? false;
    case 'provider':
      return PROVIDER_MOVES[from]?.includes(to) ?? false;
  }
}

/**
 * Money is with us: paid, released (available) or held by the provider (temporary_retention).
 * Pre-paid is not (nothing was received yet); neither are disputed, debited or returned money.
 */
export function countsAsPaid(status: PaymentStatus): boolean {
  return status === 'paid' || status === 'available' || status === 'temporary_retention';
}

/** Provider words are upper case; tolerate another case and spaces, nothing else. */
const providerWord = (word: string | null) => word?.trim().toUpperCase() ?? '';

/** A provider word's entry in a table (own entries only: "CONSTRUCTOR" is no status). */
function lookUp<T>(table: Record<string, T>, word: string): T | null {
  return Object.hasOwn(table, word) ? (table[word] ?? null) : null;
}

/** PayPal Orders v2 capture statuses (`purchase_units[].payments.captures[].status`). */
const PAYPAL_CAPTURE_STATUSES: Record<string, PaymentStatus> = {
  COMPLETED: 'paid',
  PENDING: 'under_analysis',
  DECLINED: 'awaiting_payment',
  FAILED: 'awaiting_payment',
  REFUNDED: 'returned',
  // Part of the money went back: a person decides (the caller also opens a 'payment issue' review).
  PARTIALLY_REFUNDED: 'in_dispute',
};

/** PayPal Orders v2 order statuses, read when there is no capture yet. */
const PAYPAL_ORDER_STATUSES: Record<string, PaymentStatus | null> = {
  CREATED: 'awaiting_payment',
  SAVED: 'awaiting_payment',
  APPROVED: 'awaiting_payment',
  PAYER_ACTION_REQUIRED: 'awaiting_payment',
  VOIDED: 'cancelled',
  // Completed without a capture tells us nothing about the money.
  COMPLETED: null,
};

/**
 * Our status for a PayPal order read through Orders v2: the capture's status decides when there
 * is one; otherwise the order's. Null when the words say nothing we can use (unknown words, or a
 * completed order without capture details).
 */
export function paymentStatusFromPaypal(input: {
  orderStatus: string | null;
  captureStatus: string | null;
}): PaymentStatus | null {
  const capture = providerWord(input.captureStatus);
  if (capture) return lookUp(PAYPAL_CAPTURE_STATUSES, capture);
  return lookUp(PAYPAL_ORDER_STATUSES, providerWord(input.orderStatus));
}

/**
 * PayPal webhook event types. Names from PayPal's "Webhook event names" page
 * (https://developer.paypal.com/api/rest/webhooks/event-names/: Payments v2, Orders v2, Disputes)
 * and "Subscribe to disputes webhooks" (https://developer.paypal.com/docs/disputes/webhooks).
 */
const PAYPAL_EVENTS: Record<string, PaymentStatus | null> = {
  'PAYMENT.CAPTURE.COMPLETED': 'paid',
  'PAYMENT.CAPTURE.PENDING': 'under_analysis',
  'PAYMENT.CAPTURE.DENIED': 'awaiting_payment',
  'PAYMENT.CAPTURE.DECLINED': 'awaiting_payment',
  'PAYMENT.CAPTURE.REFUNDED': 'returned',
  'PAYMENT.CAPTURE.REVERSED': 'returned',
  'CUSTOMER.DISPUTE.CREATED': 'in_dispute',
  // The payer approved: the caller captures, and the capture's result decides.
  'CHECKOUT.ORDER.APPROVED': null,
  'CHECKOUT.ORDER.VOIDED': 'cancelled',
};

/** The refund statuses of PayPal's refund resource that mean no money went back. */
const PAYPAL_FAILED_REFUNDS = ['FAILED', 'CANCELLED'];

/**
 * Our status for a PayPal webhook event; null for events that do not set one (the caller may
 * still act on them, as on CHECKOUT.ORDER.APPROVED). The event type decides; the resource's status
 * only vetoes a refund event whose refund failed or was cancelled (no money went back).
 */
export function paymentStatusFromPaypalEvent(
  eventType: string,
  resourceStatus: string | null,
): PaymentStatus | null {
  const event = providerWord(eventType);
  if (
    event === 'PAYMENT.CAPTURE.REFUNDED' &&
    PAYPAL_FAILED_REFUNDS.includes(providerWord(resourceStatus))
  ) {
    return null;
  }
  return lookUp(PAYPAL_EVENTS, event);
}

/**
 * PagBank charge statuses (the Charge object, https://developer.pagbank.com.br/reference/objeto-charge).
 * AUTHORIZED is pre-authorised but not captured, so the money is not ours yet. CANCELED maps to
 * cancelled; after payment `nextPaymentStatus` turns it into returned (the money went back).
 */
const PAGBANK_CHARGE_STATUSES: Record<string, PaymentStatus> = {
  PAID: 'paid',
  AUTHORIZED: 'under_analysis',
  IN_ANALYSIS: 'under_analysis',
  WAITING: 'awaiting_payment',
  DECLINED: 'awaiting_payment',
  CANCELED: 'cancelled',
};

/** Our status for a PagBank charge status; null for an unknown or missing one. */
export function paymentStatusFromPagbank(chargeStatus: string | null): PaymentStatus | null {
  return lookUp(PAGBANK_CHARGE_STATUSES, providerWord(chargeStatus));
}

/**
 * The status to store when `cause` reports `reported` for a payment now `current`, or null when
 * nothing changes (the same status, a late or backward report, a move not allowed). A provider
 * reporting `cancelled` for money we had (`countsAsPaid`) means the money went back: `returned`.
 */
export function nextPaymentStatus(
  current: PaymentStatus,
  reported: PaymentStatus,
  cause: PaymentChangeCause,
): PaymentStatus | null {
  const target =
    cause === 'provider' && reported === 'cancelled' && countsAsPaid(current)
      ? 'returned'
      : reported;
  return canMovePayment(current, target, cause) ? target : null;
}
