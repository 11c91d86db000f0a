import { SHIPPING_OPTIONS } from '../constants';
import type { Currency } from '../i18n/locale';
import type { ShippingQuote, ShippingSettings } from './shop-api';

/** The 8 digits of a Brazilian zip code, or null when it has not exactly 8. */
export function zipDigits(zipCode: string): string | null {
  const digits = zipCode.replace(/\D/g, '');
  return digits.length === 8 ? digits : null;
}

/**
 * The shipping options that serve a zip code, from the settings' shipping table: every active
 * option, the motoboy only inside one of its zip ranges, local withdraw always free. Ordered by
 * option id (0 Sedex, 1 Pac, 2 local withdraw, 3 motoboy).
 */
export function shippingOptionsFor(
  settings: ShippingSettings,
  zipCode: string,
  currency: Currency,
): ShippingQuote[] {
  const zip = zipDigits(zipCode);
  if (!zip) return [];
  return settings.options
    .filter((option) => option.active)
    .filter(
      (option) =>
        option.shipmentType !== SHIPPING_OPTIONS.motoboy ||
        settings.motoboyZipRanges.some((range) => range.from <= zip && zip <= range.to),
    )
    .map((option) => ({
      shipmentType: option.shipmentType,
      fee: option.shipmentType === SHIPPING_OPTIONS.localWithdraw ? 0 : option.fees[currency],
      days: option.days,
      currency,
    }))
    .sort((a, b) => a.shipmentType - b.shipmentType);
}
