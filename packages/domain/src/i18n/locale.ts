import { isOneOf } from '../common/one-of';
/** Interface languages, detection from the browser, currency by language. */
export const LANGUAGES = ['ptBR', 'en', 'es'] as const;
export type Language = (typeof LANGUAGES)[number];
export const DEFAULT_LANGUAGE: Language = 'en';

export const CURRENCIES = ['BRL', 'USD'] as const;
export type Currency = (typeof CURRENCIES)[number];
export const DEFAULT_CURRENCY: Currency = 'USD';

export function isLanguage(value: unknown): value is Language {
  return isOneOf(LANGUAGES, value);
}

/**
 * The spec's rule on a browser language string: contains 'us' → en, 'es' → es, 'pt' → ptBR,
 * anything else → en. Checked in that order, case-insensitively.
 */
export function detectLanguage(browserLanguage: string | null | undefined): Language {
  const lang = (browserLanguage ?? '').toLowerCase();
  if (lang.includes('us')) return 'en';
  if (lang.includes('es')) return 'es';
  if (lang.includes('pt')) return 'ptBR';
  return DEFAULT_LANGUAGE;
}

/** Accept-Language lists several tags; the spec's rule applies to the preferred (first) one. */
export function languageFromAcceptLanguage(header: string | null | undefined): Language {
  const first = (header ?? '').split(',')[0]?.split(';')[0]?.trim() ?? '';
  return detectLanguage(first);
}

/** A language stored in the profile overrides the detected one; unsupported values fall back. */
export function resolveLanguage(
  profileLanguage: string | null | undefined,
  browserLanguage: string | null | undefined,
): Language {
  if (isLanguage(profileLanguage)) return profileLanguage;
  return detectLanguage(browserLanguage);
}

export function currencyForLanguage(language: string | null | undefined): Currency {
  return language === 'ptBR' ? 'BRL' : DEFAULT_CURRENCY;
}

/**
 * A user's currency (new cases, shop prices): the profile's, else the one of the profile
 * language, else of the language the request came in.
 */
export function profileCurrency(
  dataInfo: { currency?: unknown; language?: unknown } | null | undefined,
  fallbackLanguage?: string,
): Currency {
  const stored = dataInfo?.currency;
  if ((CURRENCIES as readonly unknown[]).includes(stored)) return stored as Currency;
  const language = typeof dataInfo?.language === 'string' ? dataInfo.language : fallbackLanguage;
  return currencyForLanguage(language);
}

/** A BCP 47 tag for a language, e.g. for Accept-Language or Intl; detectLanguage() maps it back. */
export function languageTag(language: Language): string {
  return { ptBR: 'pt-BR', en: 'en-US', es: 'es-ES' }[language];
}
