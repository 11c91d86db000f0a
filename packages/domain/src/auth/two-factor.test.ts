import { describe, expect, it } from 'vitest';
import {
  groupSecret,
  isRecoveryCode,
  isTotpCode,
  normalizeRecoveryCode,
  otpauthUri,
  requiresTwoFactor,
  totpStep,
} from './two-factor';
import { secondFactorCodeSchema } from './two-factor-schemas';

describe('requiresTwoFactor', () => {
  it.each([
    [['admin'], true],
    [['supervisor'], true],
    [['doctor', 'supervisor'], true],
    [['planner'], false],
    [['doctor', 'instructor'], false],
    [[], false],
  ])('%j → %s', (roles, expected) => expect(requiresTwoFactor(roles)).toBe(expected));
});

describe('second-factor codes', () => {
  it.each([
    ['123456', true, false],
    ['123 456', true, false],
    ['12345', false, false],
    ['1234567', false, false],
    ['abcde-fghij', false, true],
    ['ABCDE-FGHIJ', false, true],
    ['abcdefghij', false, true],
    ['abcde-fgh1j', false, false],
    ['', false, false],
  ])('%j: totp %s, recovery %s', (text, totp, recovery) => {
    expect(isTotpCode(text)).toBe(totp);
    expect(isRecoveryCode(text)).toBe(recovery);
    expect(secondFactorCodeSchema.safeParse(text).success).toBe(totp || recovery);
  });

  it('normalizes a recovery code as typed', () => {
    expect(normalizeRecoveryCode(' ABCDE-fghij ')).toBe('abcdefghij');
  });
});

describe('totpStep', () => {
  it.each([
    [0, 0],
    [29_999, 0],
    [30_000, 1],
    [59_000, 1],
    [1_111_111_109_000, 37_037_036],
  ])('%i ms → step %i', (ms, step) => expect(totpStep(ms)).toBe(step));
});

describe('otpauthUri', () => {
  it('writes the Key Uri Format an authenticator app reads', () => {
    expect(otpauthUri('ana@clinic.test', 'JBSWY3DPEHPK3PXP')).toBe(
      'otpauth://totp/Dentflow%3Aana%40clinic.test?secret=JBSWY3DPEHPK3PXP&issuer=Dentflow&algorithm=SHA1&digits=6&period=30',
    );
  });

  it('groups a secret by four for typing', () => {
    expect(groupSecret('JBSWY3DPEHPK3PXP')).toBe('JBSW Y3DP EHPK 3PXP');
  });
});
