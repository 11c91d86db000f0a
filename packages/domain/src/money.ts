import type { Currency } from './i18n/locale';

/** Spec §1 money formats: symbol in front, two fraction digits. Amounts are integer minor units. */
const FORMATS: Record<Currency, { symbol: string; thousands: string; decimal: string }> = {
  BRL: { symbol: 'R$', thousands: '.', decimal: ',' },
  USD: { symbol: 'U$', thousands: ',', decimal: '.' },
};

export function formatMoney(minorUnits: number, currency: Currency): string {
  if (!Number.isSafeInteger(minorUnits)) throw new RangeError('money must be integer minor units');
  const { symbol, thousands, decimal } = FORMATS[currency];
  const sign = minorUnits < 0 ? '-' : '';
  const abs = Math.abs(minorUnits);
  const whole = Math.floor(abs / 100)
    .toString()
    .replace(/\B(?=(\d{3})+(?!\d))/g, thousands);
  const cents = (abs % 100).toString().padStart(2, '0');
  return `${sign}${symbol} ${whole}${decimal}${cents}`;
}
