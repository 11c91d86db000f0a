import { useQuery } from '@tanstack/react-query';
import { currentLanguage } from '../../../lib/i18n';
import { productsQueryOptions } from '../../cases/api/list-products';
import { categoriesQueryOptions } from '../../products/api/list-categories';

/** What a coupon can be bound to, as select options (`value` is the id). */
export interface BindingOption {
  value: string;
  label: string;
}

/** Product options: the catalogue the case screen also reads (one cache entry per language). */
export const useProductOptions = () =>
  useQuery({
    ...productsQueryOptions(),
    select: (products): BindingOption[] =>
      products.map((product) => ({
        value: String(product.id),
        label: product.name ? `${product.name} (${product.code})` : product.code,
      })),
  });

/** Category options with the names in the interface language. */
export function useCategoryOptions() {
  const language = currentLanguage();
  return useQuery({
    ...categoriesQueryOptions(),
    select: (categories): BindingOption[] =>
      categories.map((category) => ({
        value: String(category.id),
        label: category.name[language] || category.name.en,
      })),
  });
}
