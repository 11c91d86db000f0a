import { describe, expect, it } from 'vitest';
import { isServiceQuantityValid, serviceQuantityRange } from './service-quantity';

describe('serviceQuantityRange', () => {
  it.each([
    ['per case, default max', { qtdOption: 1, qtdMax: 1 }, { min: 1, max: 1 }],
    ['per case, max 3', { qtdOption: 1, qtdMax: 3 }, { min: 1, max: 3 }],
    ['per case, bad max', { qtdOption: 1, qtdMax: 0 }, { min: 1, max: 1 }],
    ['per arch', { qtdOption: 2, qtdMax: 1 }, { min: 1, max: 2 }],
    ['per element', { qtdOption: 3, qtdMax: 14 }, { min: 1, max: 28 }],
  ])('%s', (_label, product, range) => {
    expect(serviceQuantityRange(product)).toEqual(range);
  });

  it.each([
    [{ qtdOption: 1, qtdMax: 1 }, 1, true],
    [{ qtdOption: 1, qtdMax: 1 }, 2, false],
    [{ qtdOption: 1, qtdMax: 3 }, 3, true],
    [{ qtdOption: 2, qtdMax: 1 }, 2, true],
    [{ qtdOption: 2, qtdMax: 1 }, 3, false],
    [{ qtdOption: 3, qtdMax: 1 }, 28, true],
    [{ qtdOption: 3, qtdMax: 1 }, 29, false],
    [{ qtdOption: 3, qtdMax: 1 }, 0, false],
    [{ qtdOption: 3, qtdMax: 1 }, 1.5, false],
  ])('%j quantity %d → %s', (product, quantity, valid) => {
    expect(isServiceQuantityValid(product, quantity)).toBe(valid);
  });
});
