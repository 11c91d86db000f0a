import type { Currency } from './i18n/locale';

/** Money formats: symbol in front, two fraction digits. Amounts are integer minor units. */
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

/**
 * Reads an amount a person typed (`1.234,56`, `R$ 12,5`, `1,234.56`, `12`) into integer minor
 * units, in the currency's own separators. Returns null when it is not a non-negative amount with
 * at most two fraction digits. Forms convert typed decimals to cents here, once (decision 005).
 */
export function parseMoney(text: string, currency: Currency): number | null {
  const { symbol, thousands, decimal } = FORMATS[currency];
  const trimmed = text.replace(symbol, '').replace(/\s/g, '');
  if (!trimmed) return null;
  const escape = (c: string) => c.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  const pattern = new RegExp(
    `^(\\d{1,3}(?:${escape(thousands)}\\d{3})+|\\d+)(?:${escape(decimal)}(\\d{1,2}))?$`,
  );
  const match = pattern.exec(trimmed);
  if (!match) return null;
  const whole = Number((match[1] ?? '0').split(thousands).join(''));
  const cents = Number((match[2] ?? '0').padEnd(2, '0'));
  const value = whole * 100 + cents;
  return Number.isSafeInteger(value) ? value : null;
}
