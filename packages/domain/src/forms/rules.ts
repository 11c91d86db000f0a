import { z } from 'zod';

/**
 * Form rules. Every message is a key of the shared `errors` catalogue
 * (`validation.*`), translated by whoever shows it (server envelope or web form).
 */
export const MESSAGE = {
  required: 'validation.required',
  email: 'validation.email',
  min: 'validation.min',
  max: 'validation.max',
  confirmed: 'validation.confirmed',
  alphaNum: 'validation.alphaNum',
  numeric: 'validation.numeric',
  passwordPolicy: 'validation.passwordPolicy',
  onlyNormalCharacters: 'validation.onlyNormalCharacters',
  nickNameCharacters: 'validation.nickNameCharacters',
  termsRequired: 'validation.termsRequired',
  invalidPhone: 'validation.invalidPhone',
  invalidDocument: 'validation.invalidDocument',
  invalidNickname: 'validation.invalidNickname',
  invalidCharacters: 'validation.invalidCharacters',
  invalid: 'validation.invalid',
  brazilianZipCode: 'validation.brazilianZipCode',
  twoFactorCode: 'validation.twoFactorCode',
} as const;

export const PASSWORD_MIN_LENGTH = 8;

/**
 * Text that can be stored: no NUL character and no half of a surrogate pair (an escape like
 * `\ud800` in JSON), which PostgreSQL cannot hold (text, jsonb) and no person types. The API
 * refuses any input string that breaks this rule before it reaches a service.
 */
export const isStorableText = (value: string): boolean =>
  !value.includes('\u0000') &&
  !/[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/.test(value);

export const isRequired = (value: unknown): boolean =>
  value !== undefined && value !== null && !(typeof value === 'string' && value.trim() === '');
export const isEmail = (value: string): boolean => /^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(value);
export const isAlphaNum = (value: string): boolean => /^[\p{L}\p{N}]*$/u.test(value);
export const isNumeric = (value: string): boolean => /^\d+$/.test(value);
/** At least 8 characters with a lower-case and an upper-case letter. */
export const isStrongPassword = (value: string): boolean =>
  value.length >= PASSWORD_MIN_LENGTH && /\p{Ll}/u.test(value) && /\p{Lu}/u.test(value);
/** onlyNormalCharacters: letters and digits only (no spaces or the listed symbols). */
export const isOnlyNormalCharacters = (value: string): boolean =>
  value.length > 0 && /^[\p{L}\p{N}]+$/u.test(value);

export const emailSchema = z
  .string({ error: MESSAGE.required })
  .trim()
  .toLowerCase()
  .min(1, MESSAGE.required)
  .max(254, MESSAGE.max)
  .refine(isEmail, MESSAGE.email);

export const passwordSchema = z
  .string({ error: MESSAGE.required })
  .max(200, MESSAGE.max)
  .refine(isStrongPassword, MESSAGE.passwordPolicy);

/**
 * A nickname is a login, so beyond onlyNormalCharacters it keeps to unaccented Latin letters and
 * digits: look-alike letters of other scripts (Cyrillic 'а' for 'a') cannot impersonate a user.
 */
export const isNickNameCharacters = (value: string): boolean => /^[A-Za-z0-9]+$/.test(value);

export const nickNameSchema = z
  .string({ error: MESSAGE.required })
  .trim()
  .min(1, MESSAGE.required)
  .max(40, MESSAGE.max)
  .refine(isOnlyNormalCharacters, MESSAGE.onlyNormalCharacters)
  .refine(isNickNameCharacters, MESSAGE.nickNameCharacters);

export const requiredText = (max: number) =>
  z.string({ error: MESSAGE.required }).trim().min(1, MESSAGE.required).max(max, MESSAGE.max);
