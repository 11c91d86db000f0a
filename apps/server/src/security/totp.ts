import { createCipheriv, createDecipheriv, createHmac, hkdfSync, randomBytes } from 'node:crypto';
import { TOTP, normalizeTotpCode, totpStep } from '@dentflow/domain';

// TOTP (RFC 6238) over HOTP (RFC 4226) with node:crypto: a dozen lines, no dependency. The
// parameters (SHA-1, 6 digits, 30 s, ±1 step) are the domain's `TOTP`.

const BASE32 = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ234567';

export function base32Encode(bytes: Uint8Array): string {
  let bits = 0;
  let value = 0;
  let out = '';
  for (const byte of bytes) {
    value = (value << 8) | byte;
    bits += 8;
    while (bits >= 5) {
      out += BASE32[(value >>> (bits - 5)) & 31];
      bits -= 5;
    }
  }
  if (bits > 0) out += BASE32[(value << (5 - bits)) & 31];
  return out;
}

export function base32Decode(text: string): Buffer {
  const clean = text.toUpperCase().replace(/[\s=]/g, '');
  let bits = 0;
  let value = 0;
  const out: number[] = [];
  for (const char of clean) {
    const index = BASE32.indexOf(char);
    if (index < 0) throw new Error('not base32');
    value = (value << 5) | index;
    bits += 5;
    if (bits >= 8) {
      out.push((value >>> (bits - 8)) & 255);
      bits -= 8;
    }
  }
  return Buffer.from(out);
}

/** HOTP (RFC 4226): dynamic truncation of HMAC(secret, counter) to `digits` decimal digits. */
export function hotp(
  secret: Uint8Array,
  counter: number,
  digits: number = TOTP.digits,
  algorithm: 'sha1' | 'sha256' | 'sha512' = 'sha1',
): string {
  const message = Buffer.alloc(8);
  message.writeBigUInt64BE(BigInt(counter));
  const mac = createHmac(algorithm, secret).update(message).digest();
  const offset = mac[mac.length - 1]! & 0x0f;
  const binary = mac.readUInt32BE(offset) & 0x7fffffff;
  return String(binary % 10 ** digits).padStart(digits, '0');
}

/** The code of the step `epochMs` falls in. */
export const totpAt = (secret: Uint8Array, epochMs: number): string =>
  hotp(secret, totpStep(epochMs));

/**
 * The step whose code `code` is, within ±window steps of `epochMs`, or null. A step at or before
 * `lastUsedStep` never matches: a code works once, and an older one after a newer one not at all.
 */
export function matchTotp(
  secret: Uint8Array,
  code: string,
  epochMs: number,
  lastUsedStep: number | null,
): { step: number } | { replayed: true } | null {
  const typed = normalizeTotpCode(code);
  const now = totpStep(epochMs);
  for (let step = now - TOTP.window; step <= now + TOTP.window; step++) {
    if (hotp(secret, step) !== typed) continue;
    if (lastUsedStep !== null && step <= lastUsedStep) return { replayed: true };
    return { step };
  }
  return null;
}

export const newTotpSecret = (): Buffer => randomBytes(TOTP.secretBytes);

/**
 * The stored secret is encrypted (AES-256-GCM) with a key derived from the server's secret, so a
 * copy of the database alone gives no one the codes. Format: iv.tag.ciphertext, base64url.
 */
export function createSecretBox(serverSecret: string) {
  const key = Buffer.from(hkdfSync('sha256', serverSecret, 'dentflow', 'two-factor secret v1', 32));
  return {
    seal(plain: Uint8Array): string {
      const iv = randomBytes(12);
      const cipher = createCipheriv('aes-256-gcm', key, iv);
      const sealed = Buffer.concat([cipher.update(plain), cipher.final()]);
      return [iv, cipher.getAuthTag(), sealed].map((part) => part.toString('base64url')).join('.');
    },
    open(boxed: string): Buffer {
      const [iv, tag, sealed] = boxed.split('.').map((part) => Buffer.from(part, 'base64url'));
      const decipher = createDecipheriv('aes-256-gcm', key, iv!);
      decipher.setAuthTag(tag!);
      return Buffer.concat([decipher.update(sealed!), decipher.final()]);
    },
  };
}
