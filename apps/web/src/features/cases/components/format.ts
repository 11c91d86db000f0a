import { languageTag } from '@dentflow/domain';
import { currentLanguage } from '../../../lib/i18n';

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

/** Whether a deadline is within a day (or past), for a warning colour. */
export function isDeadlineNear(iso: string | null | undefined, now = Date.now()): boolean {
  if (!iso) return false;
  const at = Date.parse(iso);
  return !Number.isNaN(at) && at - now <= 24 * 60 * 60 * 1000;
}
