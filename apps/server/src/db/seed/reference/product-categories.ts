import type { Db } from '../../client';
import { productCategories, type TranslatedName } from '../../schema';

/** Category ids 1-8 decide which service-data sections show (only 3 shows the implant ones). */
const CATEGORIES: Record<number, TranslatedName> = {
  1: { ptBR: 'Ortodontia', en: 'Orthodontics', es: 'Ortodoncia' },
  2: { ptBR: 'Estética do sorriso', en: 'Smile aesthetics', es: 'Estética de la sonrisa' },
  3: {
    ptBR: 'Cirurgia guiada de implantes',
    en: 'Guided implant surgery',
    es: 'Cirugía guiada de implantes',
  },
  4: { ptBR: 'Prótese', en: 'Prosthetics', es: 'Prótesis' },
  5: { ptBR: 'Periodontia', en: 'Periodontics', es: 'Periodoncia' },
  6: { ptBR: 'Endodontia', en: 'Endodontics', es: 'Endodoncia' },
  7: { ptBR: 'Cirurgia bucomaxilofacial', en: 'Maxillofacial surgery', es: 'Cirugía maxilofacial' },
  8: { ptBR: 'Outros serviços', en: 'Other services', es: 'Otros servicios' },
};

/**
 * Reference data every install needs, on every start (demo or not): the product categories the
 * service-data rules refer to by id. Inserting is idempotent.
 */
export async function ensureReferenceData(db: Db): Promise<void> {
  await db
    .insert(productCategories)
    .values(Object.entries(CATEGORIES).map(([id, names]) => ({ id: Number(id), names })))
    .onConflictDoNothing();
}
