import i18next from 'i18next';
import { initReactI18next } from 'react-i18next';
import {
  DEFAULT_LANGUAGE,
  detectLanguage,
  isLanguage,
  LANGUAGES,
  languageTag,
  type Language,
} from '@dentflow/domain';
import {
  getStoredLanguage,
  getStoredUser,
  hasRefreshToken,
  setStoredLanguage,
} from './session-storage';

/** Namespaces the interface reads from the shared catalogues; `web` is the default one. */
export const WEB_NAMESPACES = [
  'web',
  'errors',
  'domain',
  'cases',
  'files',
  'shop',
  'admin',
  'payments',
  'chat',
  'notifications',
] as const;
type WebCatalogue = Record<(typeof WEB_NAMESPACES)[number], Record<string, unknown>>;

/**
 * Only the language in use is downloaded (the login route's JavaScript budget: 200 KB gzipped); the
 * others load when the user switches. The three catalogues have the same keys (tested).
 */
const CATALOGUE_LOADERS: Record<Language, () => Promise<WebCatalogue>> = {
  en: () => import('./catalogues/en').then((module) => module.catalogue),
  ptBR: () => import('./catalogues/ptBR').then((module) => module.catalogue),
  es: () => import('./catalogues/es').then((module) => module.catalogue),
};

const loading = new Map<Language, Promise<void>>();

/** Makes a language's texts available (once); resolves when they are. */
export function loadLanguage(language: Language): Promise<void> {
  let pending = loading.get(language);
  if (!pending) {
    pending = CATALOGUE_LOADERS[language]().then((catalogue) => {
      for (const ns of WEB_NAMESPACES) i18n.addResourceBundle(language, ns, catalogue[ns], true);
    });
    // A failed download (offline) may be retried by the next switch.
    pending.catch(() => loading.delete(language));
    loading.set(language, pending);
  }
  return pending;
}

/**
 * The profile language (of the user who is logged in) overrides; otherwise the user's
 * explicit choice on this browser; otherwise detection from the browser language.
 */
export function initialLanguage(): Language {
  const profileLanguage = hasRefreshToken() ? getStoredUser()?.dataInfo?.language : undefined;
  if (isLanguage(profileLanguage)) return profileLanguage;
  const chosen = getStoredLanguage();
  if (isLanguage(chosen)) return chosen;
  return detectLanguage(typeof navigator === 'undefined' ? undefined : navigator.language);
}

export const i18n = i18next.createInstance();
void i18n.use(initReactI18next).init({
  resources: {},
  partialBundledLanguages: true,
  lng: initialLanguage(),
  fallbackLng: DEFAULT_LANGUAGE,
  supportedLngs: [...LANGUAGES],
  ns: [...WEB_NAMESPACES],
  defaultNS: 'web',
  interpolation: { escapeValue: false }, // React escapes
  returnNull: false,
  initAsync: false,
});
applyLanguageSideEffects(currentLanguage());

/** Resolves when the starting language's texts are loaded: the app renders after it. */
export const i18nReady: Promise<void> = loadLanguage(currentLanguage());

function applyLanguageSideEffects(language: Language): void {
  // dayjs loads apart (the login page needs no dates). Should its chunk fail to load, dates keep
  // the default locale rather than break the language switch.
  import('./dates')
    .then(({ setDatesLanguage }) => setDatesLanguage(language))
    .catch(() => undefined);
  if (typeof document !== 'undefined') document.documentElement.lang = languageTag(language);
}

export function currentLanguage(): Language {
  const language = i18n.language;
  return isLanguage(language) ? language : DEFAULT_LANGUAGE;
}

/** Switches the interface language (texts, dates) without recording it as a choice. */
export async function applyLanguage(language: Language): Promise<void> {
  await loadLanguage(language);
  if (currentLanguage() !== language) await i18n.changeLanguage(language);
  applyLanguageSideEffects(language);
}

/** The user's explicit switch: remembered on this browser (the profile is saved by the caller). */
export async function chooseLanguage(language: Language): Promise<void> {
  setStoredLanguage(language);
  await applyLanguage(language);
}

/**
 * After a lost session: forget the choice and go back to what the browser asks for, the user's
 * default (decision 008; en only when the browser asks for no supported language).
 */
export async function resetLanguage(): Promise<void> {
  setStoredLanguage(null);
  await applyLanguage(
    detectLanguage(typeof navigator === 'undefined' ? undefined : navigator.language),
  );
}

/**
 * Translates a message key of the shared `errors` catalogue (the domain's zod messages are such
 * keys). A message zod wrote itself (English, e.g. "Invalid ISO date") is shown as the generic
 * translated "Invalid value" rather than untranslated.
 */
export function translateErrorKey(key: string, params?: Record<string, unknown>): string {
  const known = i18n.exists(key, { ns: 'errors' });
  return i18n.t(known ? key : 'validation.invalid', { ns: 'errors', ...params });
}
