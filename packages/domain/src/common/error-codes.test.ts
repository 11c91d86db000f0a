import { describe, expect, it } from 'vitest';
import { catalogues } from '../i18n/catalogues';
import { LANGUAGES } from '../i18n/locale';
import { ERROR_CODES, isErrorCode } from './error-codes';

describe('API error codes', () => {
  it.each(LANGUAGES)('every code has a message in %s, and every message a code', (language) => {
    const messages = catalogues[language].errors.api as Record<string, unknown>;
    for (const code of ERROR_CODES) {
      expect(typeof messages[code], `api.${code}`).toBe('string');
      expect(messages[code], `api.${code}`).not.toBe('');
    }
    expect(Object.keys(messages).sort()).toEqual([...ERROR_CODES].sort());
  });

  it.each([
    ['NOT_FOUND', true],
    ['CASE_CHANGED', true],
    ['not_found', false],
    ['NETWORK_ERROR', false],
    ['', false],
    [undefined, false],
    [404, false],
  ] as const)('isErrorCode(%s) → %s', (value, known) => {
    expect(isErrorCode(value)).toBe(known);
  });

  it('has no duplicates', () => {
    expect(new Set(ERROR_CODES).size).toBe(ERROR_CODES.length);
  });
});
