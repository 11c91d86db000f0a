import { describe, expect, it } from 'vitest';
import {
  allCaseChecksPass,
  caseChecks,
  caseRequiredSlots,
  failingCaseChecks,
  onlyPaymentFails,
} from './case-checks';
import { emptyServiceDataV1 } from './service-data';

const paid = { transactionStatus: 'paid', paymentDeferred: false };
/** Category 5: no required file slot. */
const goodService = {
  id: 1,
  dataVersion: 1,
  productCategoryId: 5,
  data: { ...emptyServiceDataV1(), terms: true },
  ...paid,
};
const base = {
  patient: { fname: 'Ana', lname: 'Silva' },
  services: [goodService],
  publicFiles: [{ bucketName: 'photoProtocol' as const, attachmentType: 'generic' }],
  hasClientFile: true,
};
/** Guided implant surgery (category 3) planned on the upper jaw. */
const surgery = {
  ...goodService,
  id: 2,
  productCategoryId: 3,
  data: { ...goodService.data, jaw: 'upper' },
};
const slot = (attachmentType: string) => ({ bucketName: 'exams' as const, attachmentType });

describe('case checks', () => {
  it('all pass on a complete, paid case', () => {
    const checks = caseChecks(base);
    expect(checks).toEqual({
      services: true,
      patient: true,
      attachments: true,
      transactions: true,
      missingSlots: [],
      unpaidServiceIds: [],
    });
    expect(allCaseChecksPass(checks)).toBe(true);
  });

  it.each([
    [
      'services: one invalid',
      { services: [goodService, { ...goodService, id: 2, data: { terms: false } }] },
      'services',
    ],
    ['patient without last name', { patient: { fname: 'Ana', lname: '' } }, 'patient'],
    ['patient missing', { patient: null }, 'patient'],
    ['attachments: no public client file', { hasClientFile: false }, 'attachments'],
    [
      'attachments: the CT exam of a guided surgery missing',
      { services: [surgery], publicFiles: [slot('upperJawStl')] },
      'attachments',
    ],
    [
      'transactions: a service awaiting payment',
      {
        services: [goodService, { ...goodService, id: 2, transactionStatus: 'awaiting_payment' }],
      },
      'transactions',
    ],
    [
      'transactions: a service without any transaction',
      { services: [{ ...goodService, transactionStatus: null }] },
      'transactions',
    ],
    [
      'transactions: a service whose transaction was cancelled',
      { services: [{ ...goodService, transactionStatus: 'cancelled' }] },
      'transactions',
    ],
  ])('%s fails %s', (_, patch, failing) => {
    const checks = caseChecks({ ...base, ...patch });
    expect(failingCaseChecks(checks)).toEqual([failing]);
    expect(allCaseChecksPass(checks)).toBe(false);
  });

  it('no services fails services and transactions', () => {
    expect(failingCaseChecks(caseChecks({ ...base, services: [] }))).toEqual([
      'services',
      'transactions',
    ]);
  });

  it.each([
    ['pre_paid', false, true],
    ['paid', false, true],
    ['under_analysis', false, false],
    ['awaiting_payment', true, true],
    [null, true, true],
  ])('a service with transaction %s, deferred %s → covered %s', (status, deferred, ok) => {
    const service = { ...goodService, transactionStatus: status, paymentDeferred: deferred };
    expect(caseChecks({ ...base, services: [service] }).transactions).toBe(ok);
  });

  it('names the unpaid services and the missing slots', () => {
    const checks = caseChecks({
      ...base,
      services: [goodService, { ...surgery, transactionStatus: 'awaiting_payment' }],
      publicFiles: [slot('upperJawStl')],
    });
    expect(checks.unpaidServiceIds).toEqual([2]);
    expect(checks.missingSlots).toEqual([slot('dicom')]);
  });

  it.each([
    ['one jaw chosen: only its scan and the CT', [{ jaw: 'upper' }], ['upperJawStl', 'dicom']],
    ['both jaws', [{ jaw: 'both' }], ['upperJawStl', 'lowerJawStl', 'dicom']],
    [
      'services disagree: both scans',
      [{ jaw: 'upper' }, { jaw: 'lower' }],
      ['upperJawStl', 'lowerJawStl', 'dicom'],
    ],
    ['no jaw yet: both scans', [null], ['upperJawStl', 'lowerJawStl', 'dicom']],
  ])('required slots of a guided surgery, %s', (_, datas, kinds) => {
    const services = datas.map((data) => ({ productCategoryId: 3, data }));
    expect(caseRequiredSlots(services)).toEqual(kinds.map(slot));
  });

  it.each([
    [{ transactions: false, services: true, patient: true, attachments: true }, true],
    [{ transactions: false, services: true, patient: true, attachments: false }, false],
    [{ transactions: true, services: true, patient: true, attachments: true }, false],
  ])('only payment fails in %j → %s', (checks, expected) =>
    expect(onlyPaymentFails(checks)).toBe(expected),
  );
});
