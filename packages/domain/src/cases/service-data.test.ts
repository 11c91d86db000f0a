import { describe, expect, it } from 'vitest';
import {
  emptyServiceDataV1,
  emptyServiceDataV3,
  isServiceDataValid,
  serviceDataSections,
  serviceDataV1Schema,
  serviceDataV3Problems,
  showsServiceDataSection,
  type ServiceDataV3,
} from './service-data';

const complete: ServiceDataV3 = {
  jaw: 'upper',
  implantSystem: { manufactureName: 'Neodent', systemName: 'Grand Morse' },
  extractTeeth: false,
  hasOrtho: false,
  plasticGum: true,
  increaseDVO: { checked: true, howMuch: 2 },
  treatmentPurpose: { purpose: 4 },
  provision: false,
  terms: { checked: true },
  extra: 'none',
};

describe('sections by product category (only 3 shows jaw, provisional, implant system, teeth to extract)', () => {
  it.each([1, 2, 3, 4, 5, 6, 7, 8])('category %i', (category) => {
    for (const section of ['jaw', 'provision', 'implantSystem', 'extractTeeth'] as const) {
      expect(showsServiceDataSection(category, section)).toBe(category === 3);
    }
    expect(showsServiceDataSection(category, 'extra')).toBe(true);
    expect(showsServiceDataSection(category, 'terms')).toBe(true);
  });
  it('category 3 shows all ten sections', () => expect(serviceDataSections(3)).toHaveLength(10));
});

describe('current layout validity (category 3 shows every section)', () => {
  const valid = (patch: Partial<ServiceDataV3>, category = 3) =>
    isServiceDataValid({
      dataVersion: 3,
      productCategoryId: category,
      data: { ...complete, ...patch },
    });

  it.each([
    ['complete', {}, true],
    ['no jaw', { jaw: null }, false],
    ['no implant manufacturer', { implantSystem: { manufactureName: '', systemName: 'X' } }, false],
    ['no implant system', { implantSystem: { manufactureName: 'X', systemName: ' ' } }, false],
    ['extraction not answered', { extractTeeth: null }, false],
    ['ortho not answered', { hasOrtho: null }, false],
    ['plastic gum not answered', { plasticGum: null }, false],
    ['provision not answered', { provision: null }, false],
    ['extra empty', { extra: '  ' }, false],
    ['DVO unchecked, no number', { increaseDVO: { checked: false, howMuch: null } }, true],
    ['DVO checked with 0', { increaseDVO: { checked: true, howMuch: 0 } }, false],
    ['DVO checked with no number', { increaseDVO: { checked: true, howMuch: null } }, false],
    ['DVO checked with 0.5 mm', { increaseDVO: { checked: true, howMuch: 0.5 } }, true],
    ['no treatment purpose', { treatmentPurpose: { purpose: null } }, false],
    ['treatment purpose 7', { treatmentPurpose: { purpose: 7 } }, true],
    ['treatment purpose 8 (unknown)', { treatmentPurpose: { purpose: 8 } }, false],
    ['terms unchecked', { terms: { checked: false } }, false],
  ] as const)('%s → %s', (_, patch, ok) => expect(valid(patch)).toBe(ok));

  it('a category without the surgical sections ignores them', () => {
    expect(
      valid(
        {
          jaw: null,
          implantSystem: { manufactureName: '', systemName: '' },
          provision: null,
          extractTeeth: null,
        },
        1,
      ),
    ).toBe(true);
    expect(valid({ jaw: null }, 3)).toBe(false);
    expect(valid({ terms: { checked: false } }, 1)).toBe(false);
  });

  it('lists the problems for the form', () => {
    expect(serviceDataV3Problems(emptyServiceDataV3(), 3)).toEqual([
      'jaw',
      'provision',
      'implantSystem',
      'extractTeeth',
      'hasOrtho',
      'plasticGum',
      'treatmentPurpose',
      'extra',
      'terms',
    ]);
    expect(serviceDataV3Problems(complete, 3)).toEqual([]);
  });

  it('malformed data is invalid', () => {
    expect(isServiceDataValid({ dataVersion: 3, productCategoryId: 3, data: null })).toBe(false);
    expect(
      isServiceDataValid({ dataVersion: 3, productCategoryId: 3, data: { jaw: 'left' } }),
    ).toBe(false);
  });
});

describe('old layout (dataVersion below 3): valid when terms accepted; 14 teeth per jaw', () => {
  it.each([
    [0, true, true],
    [1, true, true],
    [2, false, false],
    [null, true, true],
  ] as const)('version %s terms %s → %s', (dataVersion, terms, ok) => {
    expect(
      isServiceDataValid({
        dataVersion,
        productCategoryId: 3,
        data: { ...emptyServiceDataV1(), terms },
      }),
    ).toBe(ok);
  });

  it('has 14 teeth per jaw', () => {
    const data = emptyServiceDataV1();
    expect(data.upperJaw).toHaveLength(14);
    expect(serviceDataV1Schema.safeParse(data).success).toBe(true);
    expect(
      serviceDataV1Schema.safeParse({ ...data, lowerJaw: data.lowerJaw.slice(1) }).success,
    ).toBe(false);
  });
});
