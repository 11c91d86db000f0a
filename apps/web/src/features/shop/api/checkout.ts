import { useMutation, useQueryClient } from '@tanstack/react-query';
import { checkoutResultSchema, type CheckoutBody, type CheckoutResult } from '@dentflow/domain';
import { api } from '../../../lib/api-client';
import { caseKeys } from '../../cases/api/case-cache';
import { profileQueryKey } from '../../profile/api/get-profile';

/** `POST /shop/checkout`: places the order (the same idempotency key answers the same result). */
export const placeOrder = async (body: CheckoutBody): Promise<CheckoutResult> =>
  checkoutResultSchema.parse(await api.post<unknown>('/shop/checkout', body));

export function usePlaceOrder() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: placeOrder,
    onSuccess: (result) => {
      // The case got services and moved to checking out.
      void queryClient.invalidateQueries({ queryKey: caseKeys.lists() });
      void queryClient.invalidateQueries({ queryKey: caseKeys.counts() });
      void queryClient.invalidateQueries({ queryKey: caseKeys.detail(result.caseId) });
      // A registration coupon the order used is no longer offered.
      if (result.breakdown.coupon)
        void queryClient.invalidateQueries({ queryKey: profileQueryKey });
    },
  });
}
