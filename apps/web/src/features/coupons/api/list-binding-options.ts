import { queryOptions, useQuery } from '@tanstack/react-query';
import { z } from 'zod';
import { categorySchema, type Category } from '@dentflow/domain';
import { api } from '../../../lib/api-client';
import { currentLanguage } from '../../../lib/i18n';

/** What a coupon can be bound to, as select options (`value` is the id). */
export interface BindingOption {
  value: string;
  label: string;
}

/** The few product fields the binding select needs (the list's other fields may change). */
const productOptionSchema = z.object({
  id: z.number().int(),
  code: z.string(),
  name: z.string().catch(''),
});

export const fetchProductOptions = async (): Promise<BindingOption[]> =>
  z
    .array(productOptionSchema)
    .parse(await api.get<unknown>('/products/list'))
    .map((product) => ({
      value: String(product.id),
      label: product.name ? `${product.name} (${product.code})` : product.code,
    }));

export const productOptionsQueryOptions = () =>
  queryOptions({
    // The names follow the language: one entry per language.
    queryKey: ['coupons', 'productOptions', currentLanguage()],
    queryFn: fetchProductOptions,
    staleTime: 5 * 60_000,
  });

export const useProductOptions = () => useQuery(productOptionsQueryOptions());

export const fetchCategories = async (): Promise<Category[]> =>
  z.array(categorySchema).parse(await api.get<unknown>('/products/category/list'));

export const categoriesQueryOptions = () =>
  queryOptions({
    queryKey: ['coupons', 'categories'],
    queryFn: fetchCategories,
    staleTime: 5 * 60_000,
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
