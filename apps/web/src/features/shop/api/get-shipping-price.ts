import { useQuery } from '@tanstack/react-query';
import { shippingQuoteSchema, type Currency, type ShippingQuote } from '@dentflow/domain';
import { api } from '../../../lib/api-client';
import { shopKeys } from './shop-keys';

/** The delivery options that serve a zip code, with fee (in `currency`) and days. */
export const fetchShippingOptions = async (
  zipCode: string,
  currency: Currency,
): Promise<ShippingQuote[]> =>
  shippingQuoteSchema
    .array()
    .parse(
      await api.get<unknown>(
        `/shop/getShippingPrice/${encodeURIComponent(zipCode)}?currency=${currency}`,
      ),
    );

export const useShippingOptions = (zipCode: string | null, currency: Currency) =>
  useQuery({
    queryKey: shopKeys.shipping(zipCode ?? '', currency),
    queryFn: () => fetchShippingOptions(zipCode ?? '', currency),
    enabled: !!zipCode,
    retry: false,
  });
