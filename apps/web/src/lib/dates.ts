import dayjs from 'dayjs';
import 'dayjs/locale/pt-br';
import 'dayjs/locale/es';
import type { Language } from '@dentflow/domain';

const DAYJS_LOCALES: Record<Language, string> = { ptBR: 'pt-br', en: 'en', es: 'es' };

/** Dates (dayjs, and the Mantine date components that use it) follow the interface language. */
export function setDatesLanguage(language: Language): void {
  dayjs.locale(DAYJS_LOCALES[language]);
}
