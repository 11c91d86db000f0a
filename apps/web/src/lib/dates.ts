import dayjs from 'dayjs';
import customParseFormat from 'dayjs/plugin/customParseFormat';
import 'dayjs/locale/pt-br';
import 'dayjs/locale/es';
import type { Language } from '@dentflow/domain';

dayjs.extend(customParseFormat);

export const DAYJS_LOCALES: Record<Language, string> = { ptBR: 'pt-br', en: 'en', es: 'es' };

/** How a day is typed and shown in a date field, per interface language (not the browser's). */
export const DATE_INPUT_FORMATS: Record<Language, string> = {
  ptBR: 'DD/MM/YYYY',
  en: 'MM/DD/YYYY',
  es: 'DD/MM/YYYY',
};

/** The first column of a date field's calendar: Sunday in Brazil and the US, Monday in Spain. */
export const FIRST_DAY_OF_WEEK: Record<Language, 0 | 1> = { ptBR: 0, en: 0, es: 1 };

/**
 * A day typed in `format` (one or two digits for day and month) as 'YYYY-MM-DD'; null until the
 * text is a whole, real day (no 31/02, no two-digit year).
 */
export function parseTypedDate(text: string, format: string): string | null {
  const loose = format.replace('DD', 'D').replace('MM', 'M');
  const day = dayjs(text.trim(), [format, loose], true);
  return day.isValid() ? day.format('YYYY-MM-DD') : null;
}

/** Dates (dayjs, and the Mantine date components that use it) follow the interface language. */
export function setDatesLanguage(language: Language): void {
  dayjs.locale(DAYJS_LOCALES[language]);
}
