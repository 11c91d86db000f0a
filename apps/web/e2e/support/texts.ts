import { translate, type Language } from '@dentflow/domain';

/** The interface text for a key of the shared `web` catalogue, as the app shows it. */
export const webText = (language: Language, key: string, params?: Record<string, string>) =>
  translate(language, 'web', key, params);

export const BROWSER_LOCALES: Record<Language, string> = {
  en: 'en-US',
  ptBR: 'pt-BR',
  es: 'es-ES',
};

export const DEMO_PASSWORD = 'Dentflow123';

/** Matches a field's accessible name whether or not it carries the required-field asterisk. */
export const fieldName = (label: string) =>
  new RegExp(`^${label.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}(\\s*\\*)?$`);
