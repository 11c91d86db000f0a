/**
 * Folds text for search: lower case, accents removed ("João Müller" → "joao muller"), runs of
 * white space collapsed. The server stores the folded patient name and folds the query the same
 * way, so a search matches without regard to case or accents.
 */
export function foldText(text: string): string {
  return text
    .normalize('NFD')
    .replace(/\p{Diacritic}/gu, '')
    .toLowerCase()
    .replace(/\s+/g, ' ')
    .trim();
}
