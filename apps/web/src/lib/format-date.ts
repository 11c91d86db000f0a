import { languageTag } from '@dentflow/domain';
import { currentLanguage } from './i18n';

/** A date (ISO) in the interface language, e.g. "23 Nov 2026"; empty for none. */
export function formatDate(iso: string | null | undefined, withTime = false): string {
  if (!iso) return '';
  const date = new Date(iso);
  if (Number.isNaN(date.getTime())) return '';
  return new Intl.DateTimeFormat(languageTag(currentLanguage()), {
    dateStyle: 'medium',
    ...(withTime ? { timeStyle: 'short' } : {}),
  }).format(date);
}
