import { describe, expect, it } from 'vitest';
import {
  base32Decode,
  base32Encode,
  createSecretBox,
  hotp,
  matchTotp,
  newTotpSecret,
  totpAt,
} from './totp';

// RFC 6238 appendix B: the seed "12345678901234567890" (ASCII) for SHA-1, 8 digits, 30 s.
const RFC6238_SEED = Buffer.from('12345678901234567890', 'ascii');
const RFC6238_SHA1 = [
  [59, '94287082'],
  [1111111109, '07081804'],
  [1111111111, '14050471'],
  [1234567890, '89005924'],
  [2000000000, '69279037'],
  [20000000000, '65353130'],
] as const;

// RFC 4226 appendix D: HOTP values, 6 digits, same seed, counters 0-9.
const RFC4226 = [
  '755224',
  '287082',
  '359152',
  '969429',
  '338314',
  '254676',
  '287922',
  '162583',
  '399871',
  '520489',
];

describe('TOTP against the RFC test vectors', () => {
  it.each(RFC6238_SHA1)('RFC 6238 SHA-1 at T=%i → %s', (seconds, expected) => {
    expect(hotp(RFC6238_SEED, Math.floor(seconds / 30), 8)).toBe(expected);
  });

  it.each(RFC4226.map((code, counter) => [counter, code] as const))(
    'RFC 4226 HOTP counter %i → %s',
    (counter, expected) => expect(hotp(RFC6238_SEED, counter)).toBe(expected),
  );

  it('gives the 6-digit code of the step an instant falls in', () => {
    expect(totpAt(RFC6238_SEED, 59_000)).toBe('287082');
    expect(totpAt(RFC6238_SEED, 60_000)).toBe(hotp(RFC6238_SEED, 2));
  });
});

describe('matchTotp', () => {
  const now = 1_700_000_000_000;
  const step = Math.floor(now / 30_000);
  const code = (offset: number) => hotp(RFC6238_SEED, step + offset);

  it.each([
    [-2, null],
    [-1, { step: step - 1 }],
    [0, { step }],
    [1, { step: step + 1 }],
    [2, null],
  ])('accepts one step of drift: offset %i → %j', (offset, expected) => {
    expect(matchTotp(RFC6238_SEED, code(offset), now, null)).toEqual(expected);
  });

  it('refuses a code of a step already used, and of an older one', () => {
    expect(matchTotp(RFC6238_SEED, code(0), now, step)).toEqual({ replayed: true });
    expect(matchTotp(RFC6238_SEED, code(-1), now, step)).toEqual({ replayed: true });
    expect(matchTotp(RFC6238_SEED, code(1), now, step)).toEqual({ step: step + 1 });
  });

  it('ignores the spaces an app shows in the middle', () => {
    const typed = `${code(0).slice(0, 3)} ${code(0).slice(3)}`;
    expect(matchTotp(RFC6238_SEED, typed, now, null)).toEqual({ step });
  });
});

describe('base32 and the secret box', () => {
  it('round-trips base32 (RFC 4648 vector)', () => {
    expect(base32Encode(Buffer.from('foobar'))).toBe('MZXW6YTBOI');
    expect(base32Decode('MZXW6YTBOI').toString()).toBe('foobar');
    const secret = newTotpSecret();
    expect(base32Decode(base32Encode(secret))).toEqual(secret);
  });

  it('opens what it sealed, and nothing sealed with another key', () => {
    const box = createSecretBox('one-server-secret');
    const secret = newTotpSecret();
    const sealed = box.seal(secret);
    expect(sealed).not.toContain(base32Encode(secret));
    expect(box.open(sealed)).toEqual(secret);
    expect(() => createSecretBox('another-secret').open(sealed)).toThrow();
  });
});
