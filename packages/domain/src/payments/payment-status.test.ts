import { describe, expect, it } from 'vitest';
import { PAYMENT_STATUSES, type PaymentStatus } from './payment';
import {
  canMovePayment,
  countsAsPaid,
  nextPaymentStatus,
  type PaymentChangeCause,
  paymentStatusFromPagbank,
  paymentStatusFromPaypal,
  paymentStatusFromPaypalEvent,
} from './payment-status';

const CAUSES: readonly PaymentChangeCause[] = ['provider', 'staff', 'cancel'];

/**
 * Every allowed move, written out as "cause: from → to". Any change to the rules must change this
 * list: the table below checks all 11 × 11 × 3 combinations against it.
 */
const ALLOWED_MOVES = new Set([
  'cancel: requesting → cancelled',
  'cancel: awaiting_payment → cancelled',
  'cancel: under_analysis → cancelled',
  'cancel: pre_paid → cancelled',
  'cancel: paid → cancelled',
  'cancel: available → cancelled',
  'cancel: in_dispute → cancelled',
  'cancel: debited → cancelled',
  'cancel: temporary_retention → cancelled',

  'staff: awaiting_payment → pre_paid',
  'staff: awaiting_payment → paid',
  'staff: under_analysis → paid',
  'staff: pre_paid → paid',

  'provider: requesting → awaiting_payment',
  'provider: requesting → under_analysis',
  'provider: requesting → paid',
  'provider: requesting → cancelled',
  'provider: awaiting_payment → under_analysis',
  'provider: awaiting_payment → paid',
  'provider: awaiting_payment → cancelled',
  'provider: under_analysis → paid',
  'provider: under_analysis → awaiting_payment',
  'provider: under_analysis → cancelled',
  'provider: pre_paid → paid',
  'provider: paid → available',
  'provider: paid → returned',
  'provider: paid → in_dispute',
  'provider: paid → debited',
  'provider: paid → temporary_retention',
  'provider: available → returned',
  'provider: available → in_dispute',
  'provider: available → debited',
  'provider: in_dispute → paid',
  'provider: in_dispute → returned',
  'provider: in_dispute → available',
  'provider: temporary_retention → paid',
  'provider: temporary_retention → available',
  'provider: temporary_retention → returned',
  'provider: debited → returned',
]);

const ALL_MOVES = CAUSES.flatMap((cause) =>
  PAYMENT_STATUSES.flatMap((from) => PAYMENT_STATUSES.map((to) => [cause, from, to] as const)),
);

describe('canMovePayment', () => {
  it('checks all 363 combinations', () => expect(ALL_MOVES).toHaveLength(363));

  it.each(ALL_MOVES)('%s: %s → %s', (cause, from, to) => {
    expect(canMovePayment(from, to, cause)).toBe(ALLOWED_MOVES.has(`${cause}: ${from} → ${to}`));
  });

  it('every listed move names real statuses and causes (no typo hides a rule)', () => {
    const named = new Set(ALL_MOVES.map(([cause, from, to]) => `${cause}: ${from} → ${to}`));
    for (const move of ALLOWED_MOVES) expect(named.has(move), move).toBe(true);
  });

  it('nothing leaves cancelled or returned', () => {
    for (const [cause, from, to] of ALL_MOVES) {
      if (from === 'cancelled' || from === 'returned') {
        expect(canMovePayment(from, to, cause)).toBe(false);
      }
    }
  });

  it('providers never go back before payment once money was received, nor cancel it', () => {
    const received: PaymentStatus[] = ['paid', 'available', 'in_dispute', 'debited'];
    const before: PaymentStatus[] = ['awaiting_payment', 'under_analysis', 'pre_paid', 'cancelled'];
    for (const from of received) {
      for (const to of before) expect(canMovePayment(from, to, 'provider')).toBe(false);
    }
    for (const from of PAYMENT_STATUSES)
      expect(canMovePayment(from, 'pre_paid', 'provider')).toBe(false);
  });
});

describe('countsAsPaid', () => {
  it.each(PAYMENT_STATUSES.map((status) => [status] as const))('%s', (status) => {
    expect(countsAsPaid(status)).toBe(
      ['paid', 'available', 'temporary_retention'].includes(status),
    );
  });
});

describe('paymentStatusFromPaypal (Orders v2)', () => {
  it.each([
    // The capture decides when there is one, whatever the order says.
    ['COMPLETED', 'COMPLETED', 'paid'],
    ['COMPLETED', 'PENDING', 'under_analysis'],
    ['COMPLETED', 'DECLINED', 'awaiting_payment'],
    ['COMPLETED', 'FAILED', 'awaiting_payment'],
    ['COMPLETED', 'REFUNDED', 'returned'],
    ['COMPLETED', 'PARTIALLY_REFUNDED', 'in_dispute'],
    [null, 'COMPLETED', 'paid'],
    ['VOIDED', 'COMPLETED', 'paid'],
    ['COMPLETED', 'SOMETHING_NEW', null],
    // Without a capture, the order.
    ['CREATED', null, 'awaiting_payment'],
    ['SAVED', null, 'awaiting_payment'],
    ['APPROVED', null, 'awaiting_payment'],
    ['PAYER_ACTION_REQUIRED', null, 'awaiting_payment'],
    ['VOIDED', null, 'cancelled'],
    ['COMPLETED', null, null],
    ['SOMETHING_NEW', null, null],
    [null, null, null],
    ['', '', null],
    // Provider words in another case or with spaces still read; prototype names are no status.
    ['created', null, 'awaiting_payment'],
    [null, ' completed ', 'paid'],
    ['CONSTRUCTOR', null, null],
    [null, '__proto__', null],
  ] as const)('order %j, capture %j → %j', (orderStatus, captureStatus, expected) => {
    expect(paymentStatusFromPaypal({ orderStatus, captureStatus })).toBe(expected);
  });
});

describe('paymentStatusFromPaypalEvent', () => {
  it.each([
    ['PAYMENT.CAPTURE.COMPLETED', 'COMPLETED', 'paid'],
    ['PAYMENT.CAPTURE.COMPLETED', null, 'paid'],
    ['PAYMENT.CAPTURE.PENDING', 'PENDING', 'under_analysis'],
    ['PAYMENT.CAPTURE.DENIED', 'DECLINED', 'awaiting_payment'],
    ['PAYMENT.CAPTURE.DECLINED', 'DECLINED', 'awaiting_payment'],
    ['PAYMENT.CAPTURE.REFUNDED', 'COMPLETED', 'returned'],
    ['PAYMENT.CAPTURE.REFUNDED', 'PENDING', 'returned'],
    ['PAYMENT.CAPTURE.REFUNDED', null, 'returned'],
    // A refund that failed or was cancelled sent nothing back.
    ['PAYMENT.CAPTURE.REFUNDED', 'FAILED', null],
    ['PAYMENT.CAPTURE.REFUNDED', 'CANCELLED', null],
    ['PAYMENT.CAPTURE.REVERSED', 'REVERSED', 'returned'],
    ['CUSTOMER.DISPUTE.CREATED', 'OPEN', 'in_dispute'],
    ['CHECKOUT.ORDER.APPROVED', 'APPROVED', null],
    ['CHECKOUT.ORDER.VOIDED', 'VOIDED', 'cancelled'],
    ['CHECKOUT.ORDER.COMPLETED', 'COMPLETED', null],
    ['CUSTOMER.DISPUTE.RESOLVED', 'RESOLVED', null],
    ['PAYMENT.AUTHORIZATION.CREATED', 'CREATED', null],
    ['payment.capture.completed', null, 'paid'],
    ['', null, null],
    ['CONSTRUCTOR', null, null],
  ] as const)('%s (resource %j) → %j', (eventType, resourceStatus, expected) => {
    expect(paymentStatusFromPaypalEvent(eventType, resourceStatus)).toBe(expected);
  });
});

describe('paymentStatusFromPagbank (charge status)', () => {
  it.each([
    ['PAID', 'paid'],
    ['AUTHORIZED', 'under_analysis'],
    ['IN_ANALYSIS', 'under_analysis'],
    ['WAITING', 'awaiting_payment'],
    ['DECLINED', 'awaiting_payment'],
    ['CANCELED', 'cancelled'],
    ['paid', 'paid'],
    ['REFUNDED', null],
    ['', null],
    [null, null],
    ['TOSTRING', null],
  ] as const)('%j → %j', (chargeStatus, expected) => {
    expect(paymentStatusFromPagbank(chargeStatus)).toBe(expected);
  });
});

describe('nextPaymentStatus', () => {
  it.each([
    // Normal provider progress.
    ['awaiting_payment', 'paid', 'provider', 'paid'],
    ['awaiting_payment', 'under_analysis', 'provider', 'under_analysis'],
    ['under_analysis', 'paid', 'provider', 'paid'],
    ['under_analysis', 'awaiting_payment', 'provider', 'awaiting_payment'],
    ['awaiting_payment', 'cancelled', 'provider', 'cancelled'],
    ['paid', 'in_dispute', 'provider', 'in_dispute'],
    ['in_dispute', 'paid', 'provider', 'paid'],
    // A late PENDING or DECLINED after COMPLETED changes nothing.
    ['paid', 'under_analysis', 'provider', null],
    ['paid', 'awaiting_payment', 'provider', null],
    // The same report twice changes nothing.
    ['paid', 'paid', 'provider', null],
    ['awaiting_payment', 'awaiting_payment', 'provider', null],
    ['cancelled', 'cancelled', 'cancel', null],
    // CANCELED after the money was received: the money went back.
    ['paid', 'cancelled', 'provider', 'returned'],
    ['available', 'cancelled', 'provider', 'returned'],
    ['temporary_retention', 'cancelled', 'provider', 'returned'],
    // … but not where no money is with us, nor once it is already back.
    ['pre_paid', 'cancelled', 'provider', null],
    ['in_dispute', 'cancelled', 'provider', null],
    ['debited', 'cancelled', 'provider', null],
    ['returned', 'cancelled', 'provider', null],
    ['cancelled', 'paid', 'provider', null],
    // Only providers get the translation: an authorised cancel of a paid payment cancels it.
    ['paid', 'cancelled', 'cancel', 'cancelled'],
    ['paid', 'cancelled', 'staff', null],
    // Staff confirmations.
    ['awaiting_payment', 'pre_paid', 'staff', 'pre_paid'],
    ['pre_paid', 'paid', 'staff', 'paid'],
    ['paid', 'pre_paid', 'staff', null],
  ] as const)('%s, reported %s by %s → %j', (current, reported, cause, expected) => {
    expect(nextPaymentStatus(current, reported, cause)).toBe(expected);
  });

  it('stores only moves canMovePayment allows, and every allowed move as reported', () => {
    for (const [cause, from, to] of ALL_MOVES) {
      const next = nextPaymentStatus(from, to, cause);
      if (next !== null) expect(canMovePayment(from, next, cause)).toBe(true);
      if (canMovePayment(from, to, cause)) expect(next).toBe(to);
    }
  });

  it('a PayPal capture read twice, then late PENDING: paid once, then nothing', () => {
    const completed = paymentStatusFromPaypal({
      orderStatus: 'COMPLETED',
      captureStatus: 'COMPLETED',
    })!;
    const first = nextPaymentStatus('awaiting_payment', completed, 'provider');
    expect(first).toBe('paid');
    expect(nextPaymentStatus(first!, completed, 'provider')).toBeNull();
    const pending = paymentStatusFromPaypalEvent('PAYMENT.CAPTURE.PENDING', 'PENDING')!;
    expect(nextPaymentStatus(first!, pending, 'provider')).toBeNull();
  });

  it('a PagBank CANCELED after PAID returns the money', () => {
    const paid = nextPaymentStatus(
      'awaiting_payment',
      paymentStatusFromPagbank('PAID')!,
      'provider',
    );
    expect(paid).toBe('paid');
    expect(nextPaymentStatus(paid!, paymentStatusFromPagbank('CANCELED')!, 'provider')).toBe(
      'returned',
    );
  });
});
