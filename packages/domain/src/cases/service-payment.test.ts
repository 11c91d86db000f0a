import { describe, expect, it } from 'vitest';
import {
  areServicesCovered,
  hasLiveTransaction,
  isServiceCovered,
  servicePaymentState,
  uncoveredServices,
} from './service-payment';

describe('service payment', () => {
  it.each([
    [null, false, 'unpaid', false],
    [null, true, 'deferred', true],
    ['awaiting_payment', false, 'awaitingPayment', false],
    ['awaiting_payment', true, 'deferred', true],
    ['under_analysis', false, 'awaitingPayment', false],
    ['pre_paid', false, 'paid', true],
    ['paid', false, 'paid', true],
    ['paid', true, 'paid', true],
    ['cancelled', false, 'unpaid', false],
    ['cancelled', true, 'deferred', true],
    ['returned', false, 'awaitingPayment', false],
    ['in_dispute', false, 'awaitingPayment', false],
  ] as const)(
    'transaction %s, deferred %s → %s (may be made: %s)',
    (transactionStatus, paymentDeferred, state, covered) => {
      const service = { id: 1, transactionStatus, paymentDeferred };
      expect(servicePaymentState(service)).toBe(state);
      expect(isServiceCovered(service)).toBe(covered);
    },
  );

  it('a case is covered only with services, every one covered', () => {
    const paid = { id: 1, transactionStatus: 'paid', paymentDeferred: false };
    const added = { id: 2, transactionStatus: null, paymentDeferred: false };
    expect(areServicesCovered([])).toBe(false);
    expect(areServicesCovered([paid])).toBe(true);
    expect(areServicesCovered([paid, added])).toBe(false);
    expect(uncoveredServices([paid, added])).toEqual([added]);
  });

  it.each([
    [[], false],
    [['cancelled'], false],
    [['cancelled', 'awaiting_payment'], true],
    [['paid'], true],
  ])('live transaction among %j → %s', (statuses, expected) =>
    expect(hasLiveTransaction(statuses)).toBe(expected),
  );
});
