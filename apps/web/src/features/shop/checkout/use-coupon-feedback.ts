import { useDebouncedValue } from '@mantine/hooks';
import { useTranslation } from 'react-i18next';
import { formatMoney } from '@dentflow/domain';
import { i18n } from '../../../lib/i18n';
import { errorMessage } from '../../../lib/notify';
import { useCouponLookup, type CouponCart } from '../api/lookup-coupon';
import { QUOTE_DEBOUNCE_MS, type CheckoutQuote } from './use-checkout-quote';

export interface CouponFeedback {
  applicable: boolean;
  message: string;
}

/**
 * The live check of the typed coupon, once typing pauses: what it takes off, or why it does not
 * apply (the server's message is already in the caller's language; else the quote's rejection).
 * Null while nothing is typed or the check is behind the field.
 */
export function useCouponFeedback(
  coupon: string,
  cart: CouponCart,
  quote: CheckoutQuote['quote'],
): CouponFeedback | null {
  const { t } = useTranslation();
  const code = coupon.trim();
  const [debouncedCode] = useDebouncedValue(code, QUOTE_DEBOUNCE_MS);
  const check = useCouponLookup(debouncedCode, cart);
  if (!code || debouncedCode !== code) return null;
  if (check.data) {
    return check.data.applicable
      ? {
          applicable: true,
          message: t('shop:checkout.couponApplies', {
            code: check.data.code,
            discount: formatMoney(check.data.discount, check.data.currency ?? cart.currency),
          }),
        }
      : {
          applicable: false,
          message:
            check.data.message ||
            i18n.t(`couponRejections.${check.data.rejection ?? 'deleted'}`, { ns: 'domain' }),
        };
  }
  if (check.error) return { applicable: false, message: errorMessage(check.error) };
  if (quote.data?.couponRejection && !quote.isPlaceholderData) {
    return {
      applicable: false,
      message: i18n.t(`couponRejections.${quote.data.couponRejection}`, { ns: 'domain' }),
    };
  }
  return null;
}
