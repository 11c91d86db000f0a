import { z } from 'zod';
import { CURRENCIES } from '../i18n/locale';

/**
 * `GET /api/v1/products/list`: a published product with the caller's language texts. Prices are
 * minor units per currency, so a case priced in another currency than the caller's shows right.
 */
export const catalogueProductSchema = z.object({
  id: z.number().int(),
  code: z.string(),
  productType: z.number().int(),
  productCategoryId: z.number().int(),
  categoryName: z.string(),
  productKind: z.number().int(),
  qtdOption: z.number().int(),
  qtdMax: z.number().int(),
  manufactureTime: z.number().int(),
  innerProducts: z.array(z.number().int()),
  favorite: z.boolean(),
  name: z.string(),
  description: z.string(),
  prices: z.record(z.enum(CURRENCIES), z.number().int()),
  modifiedAt: z.string(),
});
export type CatalogueProduct = z.infer<typeof catalogueProductSchema>;
