import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';
import { couponKeys } from './coupon-keys';

/** Soft delete: the coupon leaves every list and stops working. */
export const deleteCoupon = (id: number) =>
  api.delete<{ id: number }>(`/products/coupom/delete/${id}`);

export function useDeleteCoupon() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: deleteCoupon,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: couponKeys.lists() }),
  });
}
