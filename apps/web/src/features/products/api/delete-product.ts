import { useMutation, useQueryClient } from '@tanstack/react-query';
import { z } from 'zod';
import type { AdminProduct } from '@dentflow/domain';
import { api } from '../../../lib/api-client';
import { productKeys } from './product-keys';

const deletedSchema = z.object({ id: z.number().int(), deletedAt: z.string() });

/** Soft delete: the product leaves the shop but stays on old orders (`deletedAt` set). */
export const deleteProduct = async (id: number) =>
  deletedSchema.parse(await api.get<unknown>(`/products/delete/${id}`));

export function useDeleteProduct() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: deleteProduct,
    onSuccess: async ({ id, deletedAt }) => {
      // The row shows "deleted" at once, before the list is read again.
      queryClient.setQueryData<AdminProduct[]>(productKeys.adminList(), (list) =>
        list?.map((product) => (product.id === id ? { ...product, deletedAt } : product)),
      );
      await queryClient.invalidateQueries({ queryKey: productKeys.all });
    },
  });
}
