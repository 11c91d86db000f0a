import { languageTag } from '@dentflow/domain';
import { currentLanguage } from './i18n';

/**
 * Building an Intl.DateTimeFormat costs far more than formatting with one (a list of cards formats
 * dozens of dates in one render), so each language and style is built once.
 */
const formats = new Map<string, Intl.DateTimeFormat>();

function formatOf(tag: string, withTime: boolean): Intl.DateTimeFormat {
  const key = `${tag} ${withTime}`;
  let format = formats.get(key);
  if (!format) {
    format = new Intl.DateTimeFormat(tag, {
      dateStyle: 'medium',
      ...(withTime ? { timeStyle: 'short' } : {}),
    });
    formats.set(key, format);
  }
  return format;
}

/** A date (ISO) in the interface language, e.g. "23 Nov 2026"; empty for none. */
export function formatDate(iso: string | null | undefined, withTime = false): string {
  if (!iso) return '';
  const date = new Date(iso);
  if (Number.isNaN(date.getTime())) return '';
  return formatOf(languageTag(currentLanguage()), withTime).format(date);
}
