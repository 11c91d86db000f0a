import { useMutation, useQueryClient } from '@tanstack/react-query';
import { adminCouponSchema, type AdminCoupon, type CouponForm } from '@dentflow/domain';
import { api } from '../../../lib/api-client';
import { couponKeys } from './coupon-keys';

/** Creates (`id` 0) or edits a coupon; the server answers the saved coupon. */
export const saveCoupon = async (id: number, body: CouponForm): Promise<AdminCoupon> =>
  adminCouponSchema.parse(await api.post<unknown>(`/products/coupom/set/${id}`, body));

export function useSaveCoupon() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ id, body }: { id: number; body: CouponForm }) => saveCoupon(id, body),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: couponKeys.lists() }),
  });
}
