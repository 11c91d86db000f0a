import { z } from 'zod';
import { CURRENCIES, type Currency } from '../i18n/locale';
import { availablePaymentMethods, type ConfiguredPaymentMethods } from './payment';

/**
 * Why a checkout offers no payment method: `currency` — the caller could pay in another currency
 * (the case's currency is the fix while it may still change); `none` — in no currency (only the
 * laboratory can help: switch a method on, or grant the card machine or insurance capability).
 */
export const PAYMENT_UNAVAILABLE_REASONS = ['currency', 'none'] as const;
export type PaymentUnavailableReason = (typeof PAYMENT_UNAVAILABLE_REASONS)[number];

type Capabilities = Parameters<typeof availablePaymentMethods>[0];

/** The currencies in which `availablePaymentMethods` offers this caller at least one method. */
export function currenciesWithPaymentMethods(
  capabilities: Capabilities,
  configured: ConfiguredPaymentMethods,
): Currency[] {
  return CURRENCIES.filter(
    (currency) => availablePaymentMethods(capabilities, currency, configured).length > 0,
  );
}

/**
 * Why this caller has no method in `currency`, and the currencies they could pay in instead;
 * null when a method is available.
 */
export function paymentMethodsUnavailableReason(
  capabilities: Capabilities,
  currency: Currency,
  configured: ConfiguredPaymentMethods,
): { reason: PaymentUnavailableReason; currenciesWithMethods: Currency[] } | null {
  const usable = currenciesWithPaymentMethods(capabilities, configured);
  if (usable.includes(currency)) return null;
  return { reason: usable.length > 0 ? 'currency' : 'none', currenciesWithMethods: usable };
}

/**
 * The currencies no client can pay online in: no Pix, PagBank or PayPal offered for them. The
 * card machine and dental insurance do not count — they depend on each client's capabilities —
 * so a client without them cannot check out in these currencies (the payments settings warn).
 */
export const currenciesWithoutOnlineMethod = (configured: ConfiguredPaymentMethods): Currency[] =>
  CURRENCIES.filter(
    (currency) =>
      availablePaymentMethods(
        { physicalCreditCard: false, dentalPrev: false },
        currency,
        configured,
      ).length === 0,
  );

/** The quote's account of why no method is offered (null when one is), shown at checkout. */
export const paymentMethodsUnavailableSchema = z.object({
  reason: z.enum(PAYMENT_UNAVAILABLE_REASONS),
  /** The order's currency, in which nothing is offered. */
  currency: z.enum(CURRENCIES),
  /** The currencies the caller could pay in. */
  currenciesWithMethods: z.array(z.enum(CURRENCIES)),
  /** The order's case may still take another currency: a new case, or one without a live transaction whose currency the caller may change. */
  currencyChangeable: z.boolean(),
  /** Whom to write to: the support address of the emails settings, or null when none is set. */
  supportEmail: z.string().nullable(),
});
export type PaymentMethodsUnavailable = z.infer<typeof paymentMethodsUnavailableSchema>;
