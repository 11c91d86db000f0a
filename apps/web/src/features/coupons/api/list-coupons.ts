import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import { couponPageSchema, type CouponListFilter, type CouponPage } from '@dentflow/domain';
import { api } from '../../../lib/api-client';
import { couponKeys } from './coupon-keys';

export interface CouponListQuery {
  filter: CouponListFilter;
  page: number;
  q?: string;
}

export async function fetchCouponList({ filter, page, q }: CouponListQuery): Promise<CouponPage> {
  const query = q?.trim() ? `?${new URLSearchParams({ q: q.trim() })}` : '';
  return couponPageSchema.parse(
    await api.get<unknown>(`/products/coupom/query/${filter}/${page}${query}`),
  );
}

export const couponListQueryOptions = (query: CouponListQuery) =>
  queryOptions({
    queryKey: [...couponKeys.lists(), query.filter, query.page, query.q?.trim() ?? ''],
    queryFn: () => fetchCouponList(query),
    // Paging and searching keep the last page on screen until the next arrives.
    placeholderData: keepPreviousData,
  });

export const useCouponList = (query: CouponListQuery) => useQuery(couponListQueryOptions(query));
