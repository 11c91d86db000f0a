import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import {
  emailSchema,
  isAlphaNum,
  isEmail,
  isNumeric,
  isOnlyNormalCharacters,
  isRequired,
  isStorableText,
  isStrongPassword,
  MESSAGE,
  nickNameSchema,
  passwordSchema,
  requiredText,
} from './rules';

describe('required', () => {
  it.each([
    ['x', true],
    [0, true],
    [false, true],
    ['', false],
    ['   ', false],
    [null, false],
    [undefined, false],
  ])('%s → %s', (value, ok) => expect(isRequired(value)).toBe(ok));
});

describe('email', () => {
  it.each([
    ['doctor@dentflow.local', true],
    ['a.b+c@x.co', true],
    ['no-at.example.com', false],
    ['a@b', false],
    ['a b@c.com', false],
  ])('%s → %s', (value, ok) => expect(isEmail(value)).toBe(ok));

  it('trims and lower-cases', () => {
    expect(emailSchema.parse('  Doctor@DentFlow.Local ')).toBe('doctor@dentflow.local');
  });
});

describe('password policy: at least 8 with a lower and an upper case letter', () => {
  it.each([
    ['Dentflow123', true],
    ['Abcdefgh', true],
    ['abcdefgh', false],
    ['ABCDEFGH', false],
    ['Abcdefg', false],
    ['12345678', false],
    ['', false],
  ])('%s → %s', (value, ok) => {
    expect(isStrongPassword(value)).toBe(ok);
    expect(passwordSchema.safeParse(value).success).toBe(ok);
  });

  it('reports the policy key', () => {
    const result = passwordSchema.safeParse('short');
    expect(result.success).toBe(false);
    expect(result.error?.issues[0]?.message).toBe(MESSAGE.passwordPolicy);
  });
});

describe('onlyNormalCharacters: letters and digits only', () => {
  const forbidden = [' ', ...'~`!@#$%^&*()+=-[]\\\';.,/{}|":<>?'];
  it.each(forbidden)('rejects %j', (symbol) => {
    expect(isOnlyNormalCharacters(`abc${symbol}1`)).toBe(false);
    expect(nickNameSchema.safeParse(`abc${symbol}1`).success).toBe(false);
  });
  it.each(['doctor', 'Doctor2', '123'])('accepts %s', (value) => {
    expect(isOnlyNormalCharacters(value)).toBe(true);
    expect(nickNameSchema.safeParse(value).success).toBe(true);
  });
  it.each(['joão', 'аdmin' /* Cyrillic а */, 'ñandú'])(
    'accepts %s as normal characters but not as a nickname (look-alike logins)',
    (value) => {
      expect(isOnlyNormalCharacters(value)).toBe(true);
      const result = nickNameSchema.safeParse(value);
      expect(result.error?.issues[0]?.message).toBe(MESSAGE.nickNameCharacters);
    },
  );
  it('rejects empty', () => expect(isOnlyNormalCharacters('')).toBe(false));

  it('never accepts a string holding a listed symbol', () => {
    fc.assert(
      fc.property(fc.string(), fc.constantFrom(...forbidden), fc.string(), (a, symbol, b) => {
        expect(isOnlyNormalCharacters(a + symbol + b)).toBe(false);
      }),
    );
  });
});

describe('alpha_num and numeric', () => {
  it.each([
    ['abc123', true, false],
    ['123', true, true],
    ['12.3', false, false],
    ['', true, false],
  ])('%s → alphaNum %s, numeric %s', (value, alphaNum, numeric) => {
    expect(isAlphaNum(value)).toBe(alphaNum);
    expect(isNumeric(value)).toBe(numeric);
  });
});

describe('requiredText(min 1, max n)', () => {
  it.each([
    ['ok', true],
    ['', false],
    ['  ', false],
    ['x'.repeat(10), true],
    ['x'.repeat(11), false],
  ])('%j → %s', (value, ok) => expect(requiredText(10).safeParse(value).success).toBe(ok));
});

describe('isStorableText', () => {
  it.each([
    ['', true],
    ['Praça da Sé, 100 — São Paulo', true],
    ['emoji 🦷 and tabs\tand\nlines', true],
    ['a\u0000b', false],
    ['\u0000', false],
    ['a lone high surrogate \ud800 here', false],
    ['a lone low surrogate \udc00', false],
    ['reversed \udc00\ud800', false],
    ['at the end \ud83e', false],
    ['a whole pair \ud83e\uddb7', true],
  ])('%j → %s', (text, storable) => {
    expect(isStorableText(text)).toBe(storable);
  });
});
