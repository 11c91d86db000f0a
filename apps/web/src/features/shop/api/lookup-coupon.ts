import { useQuery } from '@tanstack/react-query';
import {
  couponLookupResponseSchema,
  type CartItem,
  type CouponLookupResponse,
  type Currency,
} from '@dentflow/domain';
import { api } from '../../../lib/api-client';
import { shopKeys } from './shop-keys';

export interface CouponCart {
  items: CartItem[];
  currency: Currency;
  caseId: number | null;
}

/** Whether a coupon applies to the caller and the cart now, and what it takes off. */
export async function lookupCoupon(code: string, cart: CouponCart): Promise<CouponLookupResponse> {
  const params = new URLSearchParams({ cart: JSON.stringify(cart) });
  return couponLookupResponseSchema.parse(
    await api.get<unknown>(`/products/coupom/lookup/${encodeURIComponent(code)}?${params}`),
  );
}

/** Pass the code debounced; an empty code asks nothing. */
export function useCouponLookup(code: string, cart: CouponCart) {
  const cartKey = JSON.stringify(cart);
  return useQuery({
    queryKey: shopKeys.coupon(code, cartKey),
    queryFn: () => lookupCoupon(code, cart),
    enabled: code.length > 0 && cart.items.length > 0,
    retry: false,
  });
}
