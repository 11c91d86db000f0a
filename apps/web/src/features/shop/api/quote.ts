import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { quoteResponseSchema, type QuoteRequest, type QuoteResponse } from '@dentflow/domain';
import { api } from '../../../lib/api-client';
import { shopKeys } from './shop-keys';

/** `POST /shop/quote`: the server's breakdown of the order as far as it is known; creates nothing. */
export const fetchQuote = async (request: QuoteRequest): Promise<QuoteResponse> =>
  quoteResponseSchema.parse(await api.post<unknown>('/shop/quote', request));

/**
 * The quote of a request (pass it debounced): keyed on the whole request, so any change of the
 * cart, shipment, coupon, case or method asks again; the last answer stays on screen meanwhile.
 */
export function useQuote(request: QuoteRequest | null) {
  const key = request ? JSON.stringify(request) : '';
  return useQuery({
    queryKey: shopKeys.quote(key),
    queryFn: () => fetchQuote(request as QuoteRequest),
    enabled: request !== null,
    placeholderData: keepPreviousData,
    retry: false,
  });
}
