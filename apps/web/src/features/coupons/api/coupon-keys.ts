/** TanStack Query keys of the coupon admin; every list refreshes after a save or a delete. */
export const couponKeys = {
  all: ['coupons'] as const,
  lists: () => [...couponKeys.all, 'list'] as const,
};
