import { z } from 'zod';
import { MESSAGE } from '../forms/rules';
import type { Language } from '../i18n/locale';

/** Name translation record: one name per language, with an active flag. */
export const nameTranslationSchema = z.object({
  id: z.number().int(),
  ptBR: z.string().trim().min(1, MESSAGE.required).max(120, MESSAGE.max),
  en: z.string().trim().min(1, MESSAGE.required).max(120, MESSAGE.max),
  es: z.string().trim().min(1, MESSAGE.required).max(120, MESSAGE.max),
  active: z.boolean(),
  modifiedAt: z.string(),
});
export type NameTranslation = z.infer<typeof nameTranslationSchema>;

/** The name in a language, falling back to en (the spec's fallback language), then any name. */
export function translatedName(
  record: Pick<NameTranslation, Language>,
  language: Language,
): string {
  return record[language] || record.en || record.ptBR || record.es || '';
}
