import { useMutation, useQueryClient } from '@tanstack/react-query';
import { categorySchema, type Category, type CategoryForm } from '@dentflow/domain';
import { api } from '../../../lib/api-client';
import { productKeys } from './product-keys';

/** `POST /products/category/set/{id}`: `0` creates. */
export const setCategory = async (id: number, body: CategoryForm): Promise<Category> =>
  categorySchema.parse(await api.post<unknown>(`/products/category/set/${id}`, body));

export function useSetCategory() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ id, body }: { id: number; body: CategoryForm }) => setCategory(id, body),
    onSuccess: async (saved) => {
      queryClient.setQueryData(productKeys.category(saved.id), saved);
      // Category names show in the product lists too.
      await queryClient.invalidateQueries({ queryKey: productKeys.all });
    },
  });
}
