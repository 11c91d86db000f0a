import { describe, expect, it } from 'vitest';
import { caseEventDetailFor, isMoneyDetailKey } from './money-in-history';

describe('isMoneyDetailKey', () => {
  it.each([
    // [action, key, money]
    ['checkout', 'total', true],
    ['checkout', 'currency', true],
    ['checkout', 'transactionId', false],
    ['payment', 'paymentMethod', true],
    ['payment', 'total', true],
    ['payment', 'amount', true],
    ['payment', 'expected', true],
    ['payment', 'invoiceNumber', true],
    ['payment', 'reasonId', true],
    ['payment', 'receiptId', true],
    ['payment', 'cancelId', true],
    ['payment', 'provider', true],
    ['payment', 'from', true],
    ['payment', 'to', true],
    // A key nobody listed yet is money too: a new detail stays hidden until stated otherwise.
    ['payment', 'somethingNew', true],
    ['payment', 'transactionId', false],
    ['payment', 'change', false],
    // Other events carry no money.
    ['validate', 'automatic', false],
    ['serviceAdded', 'productId', false],
    ['reviewOpened', 'reasonId', false],
    ['userAdded', 'userId', false],
  ])('%s.%s → %s', (action, key, money) => expect(isMoneyDetailKey(action, key)).toBe(money));
});

describe('caseEventDetailFor', () => {
  const owner = 10;
  const payer = 11;
  const payment = {
    action: 'payment',
    detail: {
      transactionId: 7,
      change: 'created',
      paymentMethod: 'pix',
      total: 12345,
      currency: 'BRL',
    },
  };
  const withoutMoney = { transactionId: 7, change: 'created' };
  it.each([
    // [viewer, payer of the transaction (null: unknown), detail read]
    ['admin', { userId: 1, roles: ['admin'] }, payer, payment.detail],
    ['supervisor', { userId: 2, roles: ['supervisor'] }, payer, payment.detail],
    ['the case owner', { userId: owner, roles: ['clinic'] }, payer, payment.detail],
    ['the payer', { userId: payer, roles: ['doctor'] }, payer, payment.detail],
    ['the payer of another transaction', { userId: payer, roles: ['doctor'] }, 99, withoutMoney],
    ['a member doctor', { userId: 20, roles: ['doctor'] }, payer, withoutMoney],
    ['a partner', { userId: 21, roles: ['partner'] }, payer, withoutMoney],
    ['a printer', { userId: 22, roles: ['printer'] }, payer, withoutMoney],
    ['an instructor', { userId: 23, roles: ['instructor'] }, payer, withoutMoney],
    ['the planner', { userId: 24, roles: ['planner'] }, payer, withoutMoney],
    ['the owner, transaction unknown', { userId: owner, roles: ['doctor'] }, null, payment.detail],
    ['a member, transaction unknown', { userId: 20, roles: ['doctor'] }, null, withoutMoney],
  ] as const)('%s', (_name, viewer, payerId, expected) =>
    expect(caseEventDetailFor(viewer, payment, { caseOwnerId: owner, payerId })).toEqual(expected),
  );

  it('a checkout shows its total only to those who see the transaction', () => {
    const checkout = {
      action: 'checkout',
      detail: { transactionId: 3, total: 500, currency: 'USD' },
    };
    const facts = { caseOwnerId: owner, payerId: owner };
    expect(caseEventDetailFor({ userId: owner, roles: ['doctor'] }, checkout, facts)).toEqual(
      checkout.detail,
    );
    expect(caseEventDetailFor({ userId: 30, roles: ['partner'] }, checkout, facts)).toEqual({
      transactionId: 3,
    });
  });

  it('an upgrade says so to everyone, its total only to those who see the transaction', () => {
    const checkout = {
      action: 'checkout',
      detail: { transactionId: 3, total: 500, upgrade: true },
    };
    const facts = { caseOwnerId: owner, payerId: owner };
    expect(caseEventDetailFor({ userId: 30, roles: ['planner'] }, checkout, facts)).toEqual({
      transactionId: 3,
      upgrade: true,
    });
  });

  it.each([
    ['the owner', { userId: owner, roles: ['doctor'] }, true],
    ['a supervisor', { userId: 2, roles: ['supervisor'] }, true],
    ['the planner', { userId: 30, roles: ['planner'] }, false],
    ['a printer', { userId: 31, roles: ['printer'] }, false],
  ] as const)('a validation without payment: the amount for %s → %s', (_name, viewer, money) => {
    const paymentOverride = {
      reason: 'Monthly',
      serviceIds: [4],
      unpaidAmount: 900,
      currency: 'BRL',
    };
    const validate = { action: 'validate', detail: { paymentOverride } };
    const read = caseEventDetailFor(viewer, validate, { caseOwnerId: owner, payerId: null });
    expect(read).toEqual({
      paymentOverride: money ? paymentOverride : { reason: 'Monthly', serviceIds: [4] },
    });
  });

  it('leaves every other event as it is, for anyone', () => {
    const validate = { action: 'validate', detail: { automatic: true, review: 'plannerNotSet' } };
    expect(
      caseEventDetailFor({ userId: 30, roles: ['printer'] }, validate, {
        caseOwnerId: owner,
        payerId: null,
      }),
    ).toBe(validate.detail);
  });
});
