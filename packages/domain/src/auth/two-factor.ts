/**
 * Two-factor sign-in with an authenticator app (TOTP, RFC 6238) and single-use recovery codes.
 * The parameters are the ones every authenticator app understands: HMAC-SHA-1, 6 digits, a new
 * code every 30 seconds, and the codes of the step before and after also accepted (clock drift).
 * docs/decisions/025-two-factor-sign-in.md says why.
 */
export const TOTP = Object.freeze({
  algorithm: 'SHA1',
  digits: 6,
  periodSeconds: 30,
  /** Steps accepted on each side of the current one. */
  window: 1,
  /** Secret length in bytes (160 bits, the HMAC-SHA-1 block the RFC recommends). */
  secretBytes: 20,
  issuer: 'Dentflow',
});

export const TWO_FACTOR = Object.freeze({
  recoveryCodeCount: 10,
  /** How long a device the user chose to remember skips the code. */
  trustedDeviceDays: 30,
  /** How long the step between the password and the code (or the enrolment) may take. */
  challengeMinutes: 10,
  /** At most this many remembered-device tokens are sent with a login. */
  maxDeviceTokens: 10,
});

/** Admins and supervisors must use a second factor; everyone else may. */
export const requiresTwoFactor = (roles: readonly string[]): boolean =>
  roles.includes('admin') || roles.includes('supervisor');

/** The TOTP step (counter) of an instant. */
export const totpStep = (epochMs: number): number =>
  Math.floor(epochMs / 1000 / TOTP.periodSeconds);

/** What a user types: spaces and dashes a phone app shows ("123 456") are ignored. */
export const normalizeTotpCode = (text: string): string => text.replace(/[\s-]/g, '');

export const isTotpCode = (text: string): boolean =>
  new RegExp(`^\\d{${TOTP.digits}}$`).test(normalizeTotpCode(text));

/** A recovery code: 10 characters of the unambiguous base32 alphabet, shown as `xxxxx-xxxxx`. */
export const RECOVERY_CODE_PATTERN = /^[a-z2-7]{5}-?[a-z2-7]{5}$/;
export const normalizeRecoveryCode = (text: string): string =>
  text.trim().toLowerCase().replace(/[\s-]/g, '');
export const isRecoveryCode = (text: string): boolean =>
  RECOVERY_CODE_PATTERN.test(text.trim().toLowerCase().replace(/\s/g, ''));

/**
 * The `otpauth://` URI an authenticator app reads from the QR code (Key Uri Format): the label is
 * "issuer:account", the issuer repeated as a parameter, the defaults written out.
 */
export function otpauthUri(account: string, secretBase32: string, issuer: string = TOTP.issuer) {
  const label = encodeURIComponent(`${issuer}:${account}`);
  const params = [
    ['secret', secretBase32],
    ['issuer', issuer],
    ['algorithm', TOTP.algorithm],
    ['digits', String(TOTP.digits)],
    ['period', String(TOTP.periodSeconds)],
  ].map(([name, value]) => `${name}=${encodeURIComponent(value!)}`);
  return `otpauth://totp/${label}?${params.join('&')}`;
}

/** A secret shown for typing by hand: groups of four characters. */
export const groupSecret = (secretBase32: string): string =>
  secretBase32.replace(/(.{4})(?=.)/g, '$1 ');
