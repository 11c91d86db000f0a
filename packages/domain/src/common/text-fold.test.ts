import { describe, expect, it } from 'vitest';
import { foldText } from './text-fold';

describe('foldText', () => {
  it.each([
    ['João Müller', 'joao muller'],
    ['ÁÉÍÓÚ àèìòù âêô ãõ ç ñ', 'aeiou aeiou aeo ao c n'],
    ['  Ana   Maria  ', 'ana maria'],
    ['plain', 'plain'],
    ['', ''],
    ['ß Ø', 'ß ø'],
  ])('%j → %j', (input, folded) => {
    expect(foldText(input)).toBe(folded);
  });
});
