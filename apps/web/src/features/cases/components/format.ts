import { languageTag } from '@dentflow/domain';
import { currentLanguage } from '../../../lib/i18n';

/** A calendar day (YYYY-MM-DD) in the interface language, the same day in every time zone. */
export function formatDay(day: string | null | undefined): string {
  if (!day || !/^\d{4}-\d{2}-\d{2}$/.test(day)) return '';
  return new Intl.DateTimeFormat(languageTag(currentLanguage()), {
    dateStyle: 'medium',
    timeZone: 'UTC',
  }).format(new Date(`${day}T00:00:00Z`));
}

/** Today in the browser's time zone, as YYYY-MM-DD (a date input's value). */
export function localToday(now = new Date()): string {
  const pad = (n: number) => String(n).padStart(2, '0');
  return `${now.getFullYear()}-${pad(now.getMonth() + 1)}-${pad(now.getDate())}`;
}
