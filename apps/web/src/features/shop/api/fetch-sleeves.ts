import { useQuery } from '@tanstack/react-query';
import { sleeveOfferSchema, type Currency, type SleeveOffer } from '@dentflow/domain';
import { api } from '../../../lib/api-client';
import { shopKeys } from './shop-keys';

export const fetchSleeves = async (currency: Currency): Promise<SleeveOffer[]> =>
  sleeveOfferSchema
    .array()
    .parse(await api.get<unknown>(`/shop/fetchSleeves?currency=${currency}`));

export const useSleeves = (currency: Currency, enabled = true) =>
  useQuery({
    queryKey: shopKeys.sleeves(currency),
    queryFn: () => fetchSleeves(currency),
    staleTime: 5 * 60_000,
    enabled,
  });
