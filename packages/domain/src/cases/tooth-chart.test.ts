import { describe, expect, it } from 'vitest';
import {
  FDI_TEETH,
  TOOTH_CHART_ROWS,
  fdiTeethSchema,
  isFdiTooth,
  mayNameTeeth,
  sortTeeth,
  teethCountProblem,
  toggleTooth,
  toothJaw,
} from './tooth-chart';
import { emptyServiceDataV3, serviceDataV3Schema } from './service-data';

describe('FDI numbering', () => {
  it('has the 32 permanent teeth, 11–18, 21–28, 31–38, 41–48', () => {
    expect(FDI_TEETH).toHaveLength(32);
    expect(FDI_TEETH.slice(0, 8)).toEqual([11, 12, 13, 14, 15, 16, 17, 18]);
    expect(FDI_TEETH.slice(-8)).toEqual([41, 42, 43, 44, 45, 46, 47, 48]);
  });

  it('draws the rows as the dentist sees the patient', () => {
    expect(TOOTH_CHART_ROWS.upper).toEqual([
      18, 17, 16, 15, 14, 13, 12, 11, 21, 22, 23, 24, 25, 26, 27, 28,
    ]);
    expect(TOOTH_CHART_ROWS.lower).toEqual([
      48, 47, 46, 45, 44, 43, 42, 41, 31, 32, 33, 34, 35, 36, 37, 38,
    ]);
  });

  it.each([
    [11, true],
    [18, true],
    [28, true],
    [31, true],
    [48, true],
    [10, false],
    [19, false],
    [29, false],
    [51, false], // deciduous teeth are not charted
    [0, false],
    [11.5, false],
    ['11', false],
    [null, false],
  ])('isFdiTooth(%j) is %s', (value, expected) => {
    expect(isFdiTooth(value)).toBe(expected);
  });

  it.each([
    [11, 'upper'],
    [28, 'upper'],
    [31, 'lower'],
    [48, 'lower'],
  ] as const)('tooth %i sits in the %s jaw', (tooth, jaw) => {
    expect(toothJaw(tooth)).toBe(jaw);
  });
});

describe('choosing teeth', () => {
  it.each([
    [[], 11, [11]],
    [[11], 11, []],
    [[21, 11], 18, [18, 11, 21]],
    [[31, 48], 41, [48, 41, 31]],
  ])('toggleTooth(%j, %i) → %j', (teeth, tooth, expected) => {
    expect(toggleTooth(teeth, tooth)).toEqual(expected);
  });

  it('sorts in chart order without duplicates', () => {
    expect(sortTeeth([38, 11, 18, 11, 41])).toEqual([18, 11, 41, 38]);
  });

  it.each([
    [[], 1, 'missing'],
    [[11], 2, 'missing'],
    [[11, 21], 2, null],
    [[11, 21, 31], 2, 'tooMany'],
    [undefined, 1, 'missing'],
  ] as const)('teethCountProblem(%j, %i) → %s', (teeth, quantity, expected) => {
    expect(teethCountProblem(teeth, quantity)).toBe(expected);
  });
});

describe('fdiTeethSchema', () => {
  it.each([
    [[], true],
    [[11, 21, 48], true],
    [FDI_TEETH, true],
    [[11, 11], false],
    [[19], false],
    [[11.5], false],
    [[...FDI_TEETH, 11], false],
  ])('%j valid: %s', (teeth, valid) => {
    expect(fdiTeethSchema.safeParse(teeth).success).toBe(valid);
  });

  it('is optional in the current service-data layout and checked when present', () => {
    const data = emptyServiceDataV3();
    expect(serviceDataV3Schema.safeParse(data).success).toBe(true);
    expect(serviceDataV3Schema.safeParse({ ...data, teeth: [11, 12] }).success).toBe(true);
    expect(serviceDataV3Schema.safeParse({ ...data, teeth: [99] }).success).toBe(false);
  });
});

describe('mayNameTeeth', () => {
  it.each([
    [{ qtdOption: 3, quantity: 2 }, [11, 21], true],
    [{ qtdOption: 3, quantity: 2 }, [11], true],
    [{ qtdOption: 3, quantity: 2 }, [11, 21, 31], false],
    [{ qtdOption: 1, quantity: 1 }, [11], false],
    [{ qtdOption: 2, quantity: 2 }, [], true],
    [{ qtdOption: 1, quantity: 1 }, undefined, true],
  ])('%j with %j: %s', (service, teeth, expected) => {
    expect(mayNameTeeth(service, teeth)).toBe(expected);
  });
});
