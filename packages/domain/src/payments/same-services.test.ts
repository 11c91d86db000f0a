import { describe, expect, it } from 'vitest';
import type { PaymentStatus } from './payment';
import { transactionsForSameServices, type CoveringTransaction } from './same-services';

const tx = (
  id: number,
  paymentStatus: PaymentStatus,
  productIds: number[],
  caseId = 1,
): CoveringTransaction => ({ id, caseId, paymentStatus, productIds });

describe('a second transaction for the same services', () => {
  it.each<[string, CoveringTransaction[], Record<number, number[]>]>([
    ['one transaction alone', [tx(1, 'awaiting_payment', [10])], {}],
    [
      'two open ones for the same product',
      [tx(1, 'awaiting_payment', [10]), tx(2, 'awaiting_payment', [10])],
      { 1: [2], 2: [1] },
    ],
    [
      'an open one and a paid one sharing one product of several',
      [tx(1, 'paid', [10, 11]), tx(2, 'awaiting_payment', [11, 12])],
      { 1: [2], 2: [1] },
    ],
    [
      'pre-paid, under analysis and in dispute still cover their services',
      [tx(1, 'pre_paid', [10]), tx(2, 'under_analysis', [10]), tx(3, 'in_dispute', [10])],
      { 1: [2, 3], 2: [1, 3], 3: [1, 2] },
    ],
    [
      'a cancelled one freed its services for the new order',
      [tx(1, 'cancelled', [10]), tx(2, 'awaiting_payment', [10])],
      {},
    ],
    [
      'returned and debited money no longer pays anything',
      [tx(1, 'returned', [10]), tx(2, 'debited', [10]), tx(3, 'paid', [10])],
      {},
    ],
    ['different products of one case', [tx(1, 'paid', [10]), tx(2, 'awaiting_payment', [11])], {}],
    [
      'the same product on two cases',
      [tx(1, 'paid', [10], 1), tx(2, 'awaiting_payment', [10], 2)],
      {},
    ],
    ['no lines at all', [tx(1, 'paid', []), tx(2, 'paid', [])], {}],
  ])('%s', (_name, transactions, expected) => {
    expect(Object.fromEntries(transactionsForSameServices(transactions))).toEqual(expected);
  });
});
