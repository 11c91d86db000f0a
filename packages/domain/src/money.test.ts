import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { formatMoney, parseMoney } from './money';

describe('formatMoney (symbol in front, two fraction digits)', () => {
  it.each([
    [123456, 'BRL', 'R$ 1.234,56'],
    [123456, 'USD', 'U$ 1,234.56'],
    [0, 'BRL', 'R$ 0,00'],
    [5, 'USD', 'U$ 0.05'],
    [100, 'BRL', 'R$ 1,00'],
    [99999999, 'BRL', 'R$ 999.999,99'],
    [123456789, 'USD', 'U$ 1,234,567.89'],
    [-1050, 'USD', '-U$ 10.50'],
  ] as const)('%i %s → %s', (cents, currency, text) =>
    expect(formatMoney(cents, currency)).toBe(text),
  );

  it('refuses non-integer amounts', () => {
    expect(() => formatMoney(1.5, 'BRL')).toThrow(RangeError);
  });
});

describe('parseMoney', () => {
  it.each([
    ['1.234,56', 'BRL', 123456],
    ['R$ 1.234,56', 'BRL', 123456],
    ['1234,5', 'BRL', 123450],
    ['12', 'BRL', 1200],
    ['1,234.56', 'USD', 123456],
    ['U$ 0.05', 'USD', 5],
    ['1234', 'USD', 123400],
    ['1,234,56', 'BRL', null],
    ['12,345', 'BRL', null],
    ['-5', 'USD', null],
    ['abc', 'USD', null],
    ['', 'BRL', null],
  ] as const)('%s (%s) → %s', (text, currency, cents) =>
    expect(parseMoney(text, currency)).toBe(cents),
  );

  it('round-trips with formatMoney', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 0, max: 10 ** 12 }),
        fc.constantFrom('BRL' as const, 'USD' as const),
        (cents, currency) => {
          expect(parseMoney(formatMoney(cents, currency), currency)).toBe(cents);
        },
      ),
    );
  });
});
