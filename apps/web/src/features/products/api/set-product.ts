import { useMutation, useQueryClient } from '@tanstack/react-query';
import { adminProductSchema, type AdminProduct, type ProductForm } from '@dentflow/domain';
import { ApiError, api } from '../../../lib/api-client';
import { productKeys } from './product-keys';

/** `POST /products/set/{id}`: `0` creates. */
export const setProduct = async (id: number, body: ProductForm): Promise<AdminProduct> =>
  adminProductSchema.parse(await api.post<unknown>(`/products/set/${id}`, body));

export const isCodeTaken = (error: unknown): error is ApiError =>
  error instanceof ApiError && error.code === 'CODE_TAKEN';

export function useSetProduct() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ id, body }: { id: number; body: ProductForm }) => setProduct(id, body),
    onSuccess: async (saved) => {
      queryClient.setQueryData(productKeys.detail(saved.id), saved);
      await queryClient.invalidateQueries({ queryKey: productKeys.all });
    },
  });
}
