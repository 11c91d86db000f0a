import {
  isProductVisible,
  type CatalogueProduct,
  type Currency,
  type Language,
} from '@dentflow/domain';
import type { AppContext } from '../../context';
import { listLiveProducts } from './products.repository';

/** The language whose texts carry a currency's prices (spec §1: ptBR → BRL, en/es → USD). */
const PRICE_LANGUAGE: Record<Currency, Language> = { BRL: 'ptBR', USD: 'en' };

export function createProductsService(ctx: AppContext) {
  return {
    /** Published (in the caller's language), non-deleted products with that language's texts. */
    async list(language: Language): Promise<CatalogueProduct[]> {
      const rows = await listLiveProducts(ctx.db);
      return rows
        .filter(({ product }) =>
          isProductVisible({ texts: product.texts, deletedAt: null }, language),
        )
        .map(({ product: row, categoryNames }) => ({
          id: row.id,
          code: row.code,
          productType: row.productType,
          productCategoryId: row.productCategoryId,
          categoryName: categoryNames[language],
          productKind: row.productKind,
          qtdOption: row.qtdOption,
          qtdMax: row.qtdMax,
          manufactureTime: row.manufactureTime,
          innerProducts: row.innerProducts,
          favorite: row.favorite,
          name: row.texts[language].name,
          description: row.texts[language].description,
          prices: {
            BRL: row.texts[PRICE_LANGUAGE.BRL]?.price ?? row.price,
            USD: row.texts[PRICE_LANGUAGE.USD]?.price ?? row.price,
          },
          modifiedAt: row.modifiedAt.toISOString(),
        }));
    },
  };
}
export type ProductsService = ReturnType<typeof createProductsService>;
