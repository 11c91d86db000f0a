import { describe, expect, it } from 'vitest';
import { PAYMENT_STATUSES } from '../payments/payment';
import type { CaseRelation } from './case-access';
import { mayChangeCaseCurrency, mayChangeCurrencyOfCase, otherCurrencies } from './case-currency';

const of = (...statuses: string[]) => statuses.map((paymentStatus) => ({ paymentStatus }));

describe('mayChangeCaseCurrency', () => {
  it.each([
    ['no transaction', of(), true],
    ['one cancelled', of('cancelled'), true],
    ['two cancelled', of('cancelled', 'cancelled'), true],
    ['awaiting payment', of('awaiting_payment'), false],
    ['pre-paid', of('pre_paid'), false],
    ['paid', of('paid'), false],
    ['cancelled and then a new one awaiting payment', of('cancelled', 'awaiting_payment'), false],
  ])('%s → %s', (_name, transactions, expected) => {
    expect(mayChangeCaseCurrency(transactions)).toBe(expected);
  });

  it.each(PAYMENT_STATUSES.filter((status) => status !== 'cancelled'))(
    'a transaction %s locks the currency',
    (status) => {
      expect(mayChangeCaseCurrency(of(status))).toBe(false);
    },
  );
});

describe('mayChangeCurrencyOfCase', () => {
  const doctor = { userId: 1, roles: ['public', 'doctor'] };
  const supervisor = { userId: 2, roles: ['public', 'supervisor'] };
  const planner = { userId: 3, roles: ['public', 'planner'] };
  const open = { caseStatus: 'new', caseArchived: false };
  it.each([
    // [name, viewer, relation, record, transactions, expected]
    ['owner, new case, no transaction', doctor, 'owner', open, of(), true],
    [
      'owner, revision, only a cancelled one',
      doctor,
      'owner',
      { ...open, caseStatus: 'revision' },
      of('cancelled'),
      true,
    ],
    [
      'owner, checking out, awaiting payment',
      doctor,
      'owner',
      { ...open, caseStatus: 'checkingout' },
      of('awaiting_payment'),
      false,
    ],
    [
      'owner, in execution (cannot edit)',
      doctor,
      'owner',
      { ...open, caseStatus: 'execute' },
      of(),
      false,
    ],
    ['owner, archived', doctor, 'owner', { ...open, caseArchived: true }, of(), false],
    [
      'staff, in execution, no transaction',
      supervisor,
      'staff',
      { ...open, caseStatus: 'execute' },
      of(),
      true,
    ],
    ['staff, paid transaction', supervisor, 'staff', open, of('paid'), false],
    ['the case planner', planner, 'planner', open, of(), false],
    ['no relation (another doctor)', doctor, null, open, of(), false],
  ] as const)('%s → %s', (_name, viewer, relation, record, transactions, expected) => {
    expect(
      mayChangeCurrencyOfCase(viewer, relation as CaseRelation | null, record, transactions),
    ).toBe(expected);
  });
});

describe('otherCurrencies', () => {
  it.each([
    ['BRL', ['USD']],
    ['USD', ['BRL']],
  ] as const)('%s → %j', (currency, expected) => {
    expect(otherCurrencies(currency)).toEqual(expected);
  });
});
