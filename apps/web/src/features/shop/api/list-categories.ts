import { useQuery } from '@tanstack/react-query';
import { categorySchema, type Category } from '@dentflow/domain';
import { api } from '../../../lib/api-client';
import { shopKeys } from './shop-keys';

export const fetchCategories = async (): Promise<Category[]> =>
  categorySchema.array().parse(await api.get<unknown>('/products/category/list'));

export const useCategories = () =>
  useQuery({ queryKey: shopKeys.categories(), queryFn: fetchCategories, staleTime: 5 * 60_000 });
