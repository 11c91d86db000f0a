import { useCallback, useSyncExternalStore } from 'react';
import type { CartAction, CartState } from '@dentflow/domain';
import { useProfile } from '../../profile/api/get-profile';
import { EMPTY_CART, dispatchCart, readCart, subscribeCart } from './cart-store';

export interface UseCart {
  cart: CartState;
  dispatch: (action: CartAction) => void;
  /** False until the signed-in user is known (nothing can be added before). */
  ready: boolean;
}

/** The signed-in user's cart (rules in the domain's `cartReducer`). */
export function useCart(): UseCart {
  const { data: profile } = useProfile();
  const userId = profile?.id ?? null;
  const getSnapshot = useCallback(
    () => (userId === null ? EMPTY_CART : readCart(userId)),
    [userId],
  );
  const cart = useSyncExternalStore(subscribeCart, getSnapshot, getSnapshot);
  const dispatch = useCallback(
    (action: CartAction) => {
      if (userId !== null) dispatchCart(userId, action);
    },
    [userId],
  );
  return { cart, dispatch, ready: userId !== null };
}
