import { describe, expect, it } from 'vitest';
import { allCaseChecksPass, caseChecks, failingCaseChecks } from './case-checks';
import { emptyServiceDataV1 } from './service-data';

const goodService = {
  dataVersion: 1,
  productCategoryId: 1,
  data: { ...emptyServiceDataV1(), terms: true },
};
const base = {
  patient: { fname: 'Ana', lname: 'Silva' },
  services: [goodService],
  attachments: [{ status: 'public' as const, deletedAt: null }],
  transactions: [{ paymentStatus: 'paid' as const }],
};

describe('case checks (spec §4)', () => {
  it('all pass on a complete case', () => {
    const checks = caseChecks(base);
    expect(checks).toEqual({
      servicesData: true,
      patient: true,
      attachments: true,
      transactions: true,
    });
    expect(allCaseChecksPass(checks)).toBe(true);
  });

  it.each([
    [
      'services: one invalid',
      { services: [goodService, { ...goodService, data: { terms: false } }] },
      'servicesData',
    ],
    ['services: none', { services: [] }, 'servicesData'],
    ['patient without last name', { patient: { fname: 'Ana', lname: '' } }, 'patient'],
    ['patient missing', { patient: null }, 'patient'],
    [
      'attachments: only private',
      { attachments: [{ status: 'private' as const, deletedAt: null }] },
      'attachments',
    ],
    [
      'attachments: public one deleted',
      { attachments: [{ status: 'public' as const, deletedAt: '2024-01-01' }] },
      'attachments',
    ],
    ['attachments: none', { attachments: [] }, 'attachments'],
    [
      'transactions: one awaiting',
      {
        transactions: [
          { paymentStatus: 'paid' as const },
          { paymentStatus: 'awaiting_payment' as const },
        ],
      },
      'transactions',
    ],
  ])('%s fails %s', (_, patch, failing) => {
    const checks = caseChecks({ ...base, ...patch });
    expect(failingCaseChecks(checks)).toEqual([failing]);
    expect(allCaseChecksPass(checks)).toBe(false);
  });

  it.each([
    [[{ paymentStatus: 'pre_paid' as const }], true],
    [[{ paymentStatus: 'cancelled' as const }, { paymentStatus: 'paid' as const }], true],
    [
      [{ paymentStatus: 'cancelled' as const }, { paymentStatus: 'under_analysis' as const }],
      false,
    ],
    [[], true],
  ])('transactions %j → %s', (transactions, ok) =>
    expect(caseChecks({ ...base, transactions }).transactions).toBe(ok),
  );

  it('one public attachment among private ones is enough', () => {
    const attachments = [
      { status: 'private' as const, deletedAt: null },
      { status: 'public' as const, deletedAt: null },
    ];
    expect(caseChecks({ ...base, attachments }).attachments).toBe(true);
  });
});
