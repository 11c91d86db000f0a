import type { Language } from '../i18n/locale';

/**
 * A searched case list counts its matches exactly up to this many; beyond it the total is shown
 * as "1,000+" (docs/decisions/026-capped-search-total.md). Counting every match of a common
 * name grows with the number of cases; counting up to the cap does not.
 */
export const SEARCH_TOTAL_CAP = 1000;

const THOUSANDS_SEPARATOR: Record<Language, string> = { en: ',', ptBR: '.', es: '.' };

/** A whole number with the language's thousands separator: 12345 → "12,345" / "12.345". */
export function formatCount(n: number, language: Language): string {
  if (!Number.isSafeInteger(n)) throw new RangeError('a count must be a safe integer');
  const sign = n < 0 ? '-' : '';
  const digits = Math.abs(n)
    .toString()
    .replace(/\B(?=(\d{3})+(?!\d))/g, THOUSANDS_SEPARATOR[language]);
  return `${sign}${digits}`;
}

/**
 * A list's total as shown: exact, or the cap followed by "+" when the server stopped counting
 * there (`totalCapped`).
 */
export function formatListTotal(
  page: { total: number; totalCapped?: boolean | undefined },
  language: Language,
): string {
  return `${formatCount(page.total, language)}${page.totalCapped ? '+' : ''}`;
}

/**
 * The capped total from a count of at most `cap + 1` matches: more than the cap means "cap+".
 */
export function cappedTotal(
  countedUpToCapPlusOne: number,
  cap: number = SEARCH_TOTAL_CAP,
): { total: number; totalCapped: boolean } {
  return countedUpToCapPlusOne > cap
    ? { total: cap, totalCapped: true }
    : { total: countedUpToCapPlusOne, totalCapped: false };
}
