import { useMemo, useState } from 'react';
import { useDebouncedValue } from '@mantine/hooks';
import type { QuoteRequest } from '@dentflow/domain';
import { problemMessage } from '../components/labels';
import { useQuote } from '../api/quote';

/** How long edits pause before the server prices the order again or checks the coupon. */
export const QUOTE_DEBOUNCE_MS = 300;

/**
 * The server's price of the order being edited (`POST /shop/quote`), asked once edits pause: the
 * quote, whether it is behind the screen, the payment methods it offers and its problems as field
 * path → translated message.
 */
export function useCheckoutQuote(request: QuoteRequest) {
  const requestKey = JSON.stringify(request);
  const [debouncedKey] = useDebouncedValue(requestKey, QUOTE_DEBOUNCE_MS);
  const debouncedRequest = useMemo(() => JSON.parse(debouncedKey) as QuoteRequest, [debouncedKey]);
  const quote = useQuote(debouncedRequest.items.length > 0 ? debouncedRequest : null);
  const problems: Record<string, string> = Object.fromEntries(
    Object.entries(quote.data?.problems ?? {}).map(([path, key]) => [path, problemMessage(key)]),
  );
  // Whether there is a payment method depends on the order's currency and case only. While the
  // order is priced again for the same ones (the patient's name typed, an item added), the shown
  // quote's answer still holds, so its notice stays rather than vanishing under the user's click.
  const scope = `${debouncedRequest.currency}:${debouncedRequest.caseId ?? 'new'}`;
  const [answeredScope, setAnsweredScope] = useState<string | null>(null);
  if (quote.data && !quote.isPlaceholderData && answeredScope !== scope) setAnsweredScope(scope);
  const unavailableHolds = !quote.isPlaceholderData || answeredScope === scope;
  return {
    quote,
    /** The screen changed since the shown quote was asked, or a newer one is on its way. */
    updating: quote.isFetching || requestKey !== debouncedKey,
    methods: quote.data?.paymentMethods ?? [],
    problems,
    /** Why the order has no payment method, while that answer holds for it; else null. */
    unavailable: (unavailableHolds && quote.data?.paymentMethodsUnavailable) || null,
  };
}

export type CheckoutQuote = ReturnType<typeof useCheckoutQuote>;
