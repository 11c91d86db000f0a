import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import {
  isValidCnpj,
  isValidCpf,
  isValidDocument,
  isValidPhone,
  maskCnpj,
  maskCpf,
  maskDocument,
  maskPhone,
  unmask,
} from './masks';

describe('unmask', () => {
  it.each([
    ['(11) 98765-4321', '11987654321'],
    ['529.982.247-25', '52998224725'],
    ['', ''],
    [null, ''],
    ['abc', ''],
  ])('%s → %s', (input, digits) => expect(unmask(input)).toBe(digits));
});

describe('maskPhone: (xx) xxxxx-xxxx', () => {
  it.each([
    ['', ''],
    ['1', '(1'],
    ['11', '(11'],
    ['119', '(11) 9'],
    ['1198765', '(11) 9876-5'],
    ['1132654321', '(11) 3265-4321'],
    ['11987654321', '(11) 98765-4321'],
    ['119876543210000', '(11) 98765-4321'],
    ['(11) 98765-4321', '(11) 98765-4321'],
  ])('%s → %s', (input, masked) => expect(maskPhone(input)).toBe(masked));
});

describe('isValidPhone: 10 or 11 digits', () => {
  it.each([
    ['(11) 98765-4321', true],
    ['11987654321', true],
    ['(11) 3265-4321', true],
    ['113265432', false],
    ['119876543210', false],
    ['', false],
    ['11 98765-4321 x', false],
  ])('%s → %s', (input, valid) => expect(isValidPhone(input)).toBe(valid));
});

describe('CPF ###.###.###-## with check digits', () => {
  it.each([
    ['52998224725', '529.982.247-25'],
    ['5299822', '529.982.2'],
    ['529', '529'],
    ['5299', '529.9'],
    ['529982247251234', '529.982.247-25'],
  ])('maskCpf(%s) → %s', (input, masked) => expect(maskCpf(input)).toBe(masked));

  it.each([
    ['529.982.247-25', true],
    ['52998224725', true],
    ['111.444.777-35', true],
    ['529.982.247-24', false],
    ['529.982.247-15', false],
    ['111.111.111-11', false],
    ['000.000.000-00', false],
    ['5299822472', false],
    ['529a982b247c25', false],
    ['', false],
  ])('isValidCpf(%s) → %s', (input, valid) => expect(isValidCpf(input)).toBe(valid));
});

describe('CNPJ ##.###.###/####-## with check digits', () => {
  it.each([
    ['11222333000181', '11.222.333/0001-81'],
    ['112223', '11.222.3'],
    ['112223330001', '11.222.333/0001'],
  ])('maskCnpj(%s) → %s', (input, masked) => expect(maskCnpj(input)).toBe(masked));

  it.each([
    ['11.222.333/0001-81', true],
    ['11222333000181', true],
    ['11.444.777/0001-61', true],
    ['11.222.333/0001-80', false],
    ['11.222.333/0001-91', false],
    ['00.000.000/0000-00', false],
    ['22.222.222/2222-22', false],
    ['1122233300018', false],
  ])('isValidCnpj(%s) → %s', (input, valid) => expect(isValidCnpj(input)).toBe(valid));
});

describe('documents by type', () => {
  it.each([
    ['CPF', '52998224725', '529.982.247-25'],
    ['cpf', '52998224725', '529.982.247-25'],
    ['CNPJ', '11222333000181', '11.222.333/0001-81'],
    ['none', 'AB-123 x', 'AB-123 x'],
    ['id', 'P1234567', 'P1234567'],
    ['none', 'x'.repeat(40), 'x'.repeat(30)],
  ])('maskDocument(%s, %s) → %s', (type, value, masked) =>
    expect(maskDocument(type, value)).toBe(masked),
  );

  it.each([
    ['CPF', '529.982.247-25', true],
    ['CPF', '11.222.333/0001-81', false],
    ['CNPJ', '11.222.333/0001-81', true],
    ['CNPJ', '529.982.247-25', false],
    ['none', 'passport 1234', true],
    ['none', '   ', false],
    ['none', '', false],
    ['none', 'x'.repeat(30), true],
    ['none', 'x'.repeat(31), false],
    ['id', 'X1', true],
  ])('isValidDocument(%s, %s) → %s', (type, value, valid) =>
    expect(isValidDocument(type, value)).toBe(valid),
  );
});

describe('properties', () => {
  const digitString = (max: number) => fc.stringMatching(new RegExp(`^\\d{0,${max}}$`));

  it('unmask(mask(x)) gives back the digits, truncated to the mask length', () => {
    fc.assert(
      fc.property(fc.string(), (text) => {
        const digits = unmask(text);
        expect(unmask(maskPhone(text))).toBe(digits.slice(0, 11));
        expect(unmask(maskCpf(text))).toBe(digits.slice(0, 11));
        expect(unmask(maskCnpj(text))).toBe(digits.slice(0, 14));
      }),
    );
  });

  it('masking is idempotent', () => {
    fc.assert(
      fc.property(digitString(16), (digits) => {
        expect(maskPhone(maskPhone(digits))).toBe(maskPhone(digits));
        expect(maskCpf(maskCpf(digits))).toBe(maskCpf(digits));
        expect(maskCnpj(maskCnpj(digits))).toBe(maskCnpj(digits));
      }),
    );
  });

  it('validity does not depend on the mask', () => {
    fc.assert(
      fc.property(digitString(15), (digits) => {
        expect(isValidCpf(maskCpf(digits))).toBe(isValidCpf(digits.slice(0, 11)));
        expect(isValidCnpj(maskCnpj(digits))).toBe(isValidCnpj(digits.slice(0, 14)));
        expect(isValidPhone(maskPhone(digits))).toBe(isValidPhone(digits.slice(0, 11)));
      }),
    );
  });

  it('a CPF base of 9 digits has exactly one pair of check digits (unless all digits are equal)', () => {
    fc.assert(
      fc.property(fc.stringMatching(/^\d{9}$/), (base) => {
        const valid = Array.from(
          { length: 100 },
          (_, n) => base + String(n).padStart(2, '0'),
        ).filter((cpf) => isValidCpf(cpf));
        expect(valid.length).toBe(/^(\d)\1*$/.test(base) ? valid.length : 1);
        if (valid[0]) expect(isValidCpf(maskCpf(valid[0]))).toBe(true);
      }),
      { numRuns: 50 },
    );
  });

  it('a CNPJ base of 12 digits has exactly one pair of check digits', () => {
    fc.assert(
      fc.property(fc.stringMatching(/^\d{12}$/), (base) => {
        fc.pre(!/^(\d)\1*$/.test(base));
        const valid = Array.from(
          { length: 100 },
          (_, n) => base + String(n).padStart(2, '0'),
        ).filter((cnpj) => isValidCnpj(cnpj));
        expect(valid).toHaveLength(1);
      }),
      { numRuns: 50 },
    );
  });
});
