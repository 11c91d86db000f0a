import { queryOptions, useQuery } from '@tanstack/react-query';
import { categorySchema, type Category } from '@dentflow/domain';
import { api } from '../../../lib/api-client';
import { productKeys } from './product-keys';

export const fetchCategories = async (): Promise<Category[]> =>
  categorySchema.array().parse(await api.get<unknown>('/products/category/list'));

export const categoriesQueryOptions = () =>
  queryOptions({ queryKey: productKeys.categories(), queryFn: fetchCategories });

export const useCategories = (enabled = true) => useQuery({ ...categoriesQueryOptions(), enabled });
