/**
 * Masks: phone `(xx) xxxxx-xxxx`, CPF `###.###.###-##`, CNPJ `##.###.###/####-##`,
 * with CPF and CNPJ check-digit validation. Masks are progressive: they format a partial value
 * as the user types, so `unmask(mask(x))` is always the (truncated) digits of x.
 */
import type { DocumentType } from '../profile/profile';

export const PHONE_MIN_DIGITS = 10;
export const PHONE_MAX_DIGITS = 11;
export const CPF_DIGITS = 11;
export const CNPJ_DIGITS = 14;
/** A document of type 'none' (or a foreign 'id') is free text up to this length. */
export const FREE_DOCUMENT_MAX_LENGTH = 30;

/** Digits only. */
export function unmask(value: string | null | undefined): string {
  return (value ?? '').replace(/\D/g, '');
}

/** Places digits into a pattern where `#` is a digit; stops after the last available digit. */
function applyPattern(digits: string, pattern: string): string {
  let out = '';
  let next = 0;
  for (const symbol of pattern) {
    if (next >= digits.length) break;
    if (symbol === '#') out += digits[next++];
    else out += symbol;
  }
  return out;
}

/**
 * `(xx) xxxxx-xxxx` for mobile numbers (11 digits); a 10-digit landline keeps the shorter
 * `(xx) xxxx-xxxx` so both valid lengths stay readable while typing.
 */
export function maskPhone(value: string | null | undefined): string {
  const digits = unmask(value).slice(0, PHONE_MAX_DIGITS);
  const pattern = digits.length > PHONE_MIN_DIGITS ? '(##) #####-####' : '(##) ####-####';
  return applyPattern(digits, pattern);
}

export function maskCpf(value: string | null | undefined): string {
  return applyPattern(unmask(value).slice(0, CPF_DIGITS), '###.###.###-##');
}

export function maskCnpj(value: string | null | undefined): string {
  return applyPattern(unmask(value).slice(0, CNPJ_DIGITS), '##.###.###/####-##');
}

/** Phone numbers have 10 (landline) or 11 (mobile) digits with the area code. */
export function isValidPhone(value: string | null | undefined): boolean {
  const digits = unmask(value);
  return (
    (digits.length === PHONE_MIN_DIGITS || digits.length === PHONE_MAX_DIGITS) &&
    /^[\d\s()-]+$/.test((value ?? '').trim())
  );
}

/** Modulo-11 check digit over `digits` with the given descending weights. */
function checkDigit(digits: string, weights: readonly number[]): number {
  const sum = weights.reduce((acc, weight, i) => acc + weight * Number(digits[i]), 0);
  const rest = sum % 11;
  return rest < 2 ? 0 : 11 - rest;
}

const allSameDigit = (digits: string) => /^(\d)\1*$/.test(digits);

/** Only digits and the mask's own punctuation may appear around the numbers. */
const hasOnlyMaskCharacters = (value: string) => /^[\d.\-/\s]+$/.test(value.trim());

export function isValidCpf(value: string | null | undefined): boolean {
  const digits = unmask(value);
  if (digits.length !== CPF_DIGITS || allSameDigit(digits)) return false;
  if (!hasOnlyMaskCharacters(value ?? '')) return false;
  const first = checkDigit(digits, [10, 9, 8, 7, 6, 5, 4, 3, 2]);
  const second = checkDigit(digits, [11, 10, 9, 8, 7, 6, 5, 4, 3, 2]);
  return first === Number(digits[9]) && second === Number(digits[10]);
}

export function isValidCnpj(value: string | null | undefined): boolean {
  const digits = unmask(value);
  if (digits.length !== CNPJ_DIGITS || allSameDigit(digits)) return false;
  if (!hasOnlyMaskCharacters(value ?? '')) return false;
  const first = checkDigit(digits, [5, 4, 3, 2, 9, 8, 7, 6, 5, 4, 3, 2]);
  const second = checkDigit(digits, [6, 5, 4, 3, 2, 9, 8, 7, 6, 5, 4, 3, 2]);
  return first === Number(digits[12]) && second === Number(digits[13]);
}

/**
 * The invoice dialog also offers 'id' (a foreign identity document); like the profile's 'none'
 * it is free text. Types are matched case-insensitively ('cpf' and 'CPF' are the same).
 */
export type MaskableDocumentType = DocumentType | 'id' | 'cpf' | 'cnpj';

function documentKind(type: string | null | undefined): 'CPF' | 'CNPJ' | 'free' {
  const upper = (type ?? '').toUpperCase();
  return upper === 'CPF' ? 'CPF' : upper === 'CNPJ' ? 'CNPJ' : 'free';
}

export function maskDocument(
  type: MaskableDocumentType | string,
  value: string | null | undefined,
): string {
  switch (documentKind(type)) {
    case 'CPF':
      return maskCpf(value);
    case 'CNPJ':
      return maskCnpj(value);
    default:
      return (value ?? '').slice(0, FREE_DOCUMENT_MAX_LENGTH);
  }
}

/** CPF/CNPJ by check digits; 'none' (or 'id'): any non-empty text up to 30 characters. */
export function isValidDocument(
  type: MaskableDocumentType | string,
  value: string | null | undefined,
): boolean {
  switch (documentKind(type)) {
    case 'CPF':
      return isValidCpf(value);
    case 'CNPJ':
      return isValidCnpj(value);
    default: {
      const text = (value ?? '').trim();
      return text.length > 0 && text.length <= FREE_DOCUMENT_MAX_LENGTH;
    }
  }
}
