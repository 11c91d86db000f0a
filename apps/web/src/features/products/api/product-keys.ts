/**
 * Query keys of the product admin. Everything sits under `['products']`, the prefix of the
 * catalogue list too, so one invalidation after a save refreshes every product list.
 */
export const productKeys = {
  all: ['products'] as const,
  adminList: () => [...productKeys.all, 'admin', 'list'] as const,
  detail: (id: number) => [...productKeys.all, 'admin', 'detail', id] as const,
  categories: () => [...productKeys.all, 'categories'] as const,
  category: (id: number) => [...productKeys.all, 'categories', id] as const,
};
