import { describe, expect, it } from 'vitest';
import { cappedTotal, formatCount, formatListTotal, SEARCH_TOTAL_CAP } from './list-total';

describe('formatCount', () => {
  it.each([
    [0, 'en', '0'],
    [999, 'ptBR', '999'],
    [1000, 'en', '1,000'],
    [1000, 'ptBR', '1.000'],
    [1000, 'es', '1.000'],
    [1234567, 'en', '1,234,567'],
    [1234567, 'ptBR', '1.234.567'],
    [-12345, 'es', '-12.345'],
  ] as const)('%d in %s is %s', (n, language, shown) => {
    expect(formatCount(n, language)).toBe(shown);
  });

  it('refuses a fraction', () => {
    expect(() => formatCount(1.5, 'en')).toThrow(RangeError);
  });
});

describe('formatListTotal', () => {
  it.each([
    [{ total: 35 }, 'en', '35'],
    [{ total: 35, totalCapped: false }, 'ptBR', '35'],
    [{ total: 1000, totalCapped: true }, 'en', '1,000+'],
    [{ total: 1000, totalCapped: true }, 'ptBR', '1.000+'],
    [{ total: 1000, totalCapped: true }, 'es', '1.000+'],
    [{ total: 1000, totalCapped: false }, 'es', '1.000'],
  ] as const)('%o in %s is %s', (page, language, shown) => {
    expect(formatListTotal(page, language)).toBe(shown);
  });
});

describe('cappedTotal', () => {
  it.each([
    [0, { total: 0, totalCapped: false }],
    [SEARCH_TOTAL_CAP - 1, { total: SEARCH_TOTAL_CAP - 1, totalCapped: false }],
    [SEARCH_TOTAL_CAP, { total: SEARCH_TOTAL_CAP, totalCapped: false }],
    [SEARCH_TOTAL_CAP + 1, { total: SEARCH_TOTAL_CAP, totalCapped: true }],
  ])('%d counted → %o', (counted, expected) => {
    expect(cappedTotal(counted)).toEqual(expected);
  });

  it('takes another cap', () => {
    expect(cappedTotal(4, 3)).toEqual({ total: 3, totalCapped: true });
    expect(cappedTotal(3, 3)).toEqual({ total: 3, totalCapped: false });
  });
});
