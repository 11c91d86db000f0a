import dayjs from 'dayjs';
import {
  COUPON_TYPES,
  couponFormSchema,
  formatMoney,
  parseMoney,
  type AdminCoupon,
  type CouponForm,
  type Currency,
} from '@dentflow/domain';
import { translateErrorKey } from '../../lib/i18n';

/**
 * Fixed coupons take an amount in minor units; the admin types and reads it in BRL, the shop's
 * home currency (the amount is taken off an order's total in the order's currency).
 */
export const FIXED_COUPON_CURRENCY: Currency = 'BRL';

/** What the coupon form's inputs hold: texts as typed, selects as ids in strings. */
export interface CouponFormValues {
  name: string;
  coupomType: '1' | '2' | '3';
  /** Percent or units as digits; for a fixed coupon an amount in the BRL format (`1.234,56`). */
  value: string;
  bind2User: number | string;
  bind2Product: string | null;
  bind2Category: string | null;
  maxUsage: number | string;
  oncePerUser: boolean;
  applyOnManufactureService: boolean;
  active: boolean;
  /** `YYYY-MM-DD`, the last day the coupon works, or ''. */
  expireAt: string;
}

export const emptyCouponFormValues = (): CouponFormValues => ({
  name: '',
  coupomType: '1',
  value: '',
  bind2User: '',
  bind2Product: null,
  bind2Category: null,
  maxUsage: '',
  oncePerUser: false,
  applyOnManufactureService: false,
  active: true,
  expireAt: '',
});

/** Money in minor units as the fixed-amount input shows it, without the symbol (`1.234,56`). */
export const moneyInputText = (minorUnits: number) =>
  formatMoney(minorUnits, FIXED_COUPON_CURRENCY).replace(/^[^\d-]*\s/, '');

export function couponFormValues(coupon: AdminCoupon): CouponFormValues {
  return {
    name: coupon.name,
    coupomType: String(coupon.coupomType) as CouponFormValues['coupomType'],
    value:
      coupon.coupomType === COUPON_TYPES.fixed
        ? moneyInputText(coupon.value)
        : String(coupon.value),
    bind2User: coupon.bind2User ?? '',
    bind2Product: coupon.bind2Product === null ? null : String(coupon.bind2Product),
    bind2Category: coupon.bind2Category === null ? null : String(coupon.bind2Category),
    maxUsage: coupon.maxUsage ?? '',
    oncePerUser: coupon.oncePerUser,
    applyOnManufactureService: coupon.applyOnManufactureService,
    active: coupon.active,
    expireAt: coupon.expireAt ? dayjs(coupon.expireAt).format('YYYY-MM-DD') : '',
  };
}

const optionalNumber = (value: number | string | null): number | null => {
  if (value === null || value === '') return null;
  const number = typeof value === 'number' ? value : Number(value);
  return Number.isFinite(number) ? number : NaN;
};

/** The typed value in the API's unit, null when empty; NaN when it cannot be read. */
export function couponValueOf(
  values: Pick<CouponFormValues, 'coupomType' | 'value'>,
): number | null {
  const text = values.value.trim();
  if (!text) return null;
  if (Number(values.coupomType) === COUPON_TYPES.fixed) {
    return parseMoney(text, FIXED_COUPON_CURRENCY) ?? NaN;
  }
  return /^\d+$/.test(text) ? Number(text) : NaN;
}

/** The body of `POST /products/coupom/set/{id}`; the expiry day lasts until its end, locally. */
export function toCouponForm(values: CouponFormValues): CouponForm {
  return {
    name: values.name.trim(),
    coupomType: Number(values.coupomType) as CouponForm['coupomType'],
    value: couponValueOf(values) as number,
    bind2User: optionalNumber(values.bind2User),
    bind2Product: optionalNumber(values.bind2Product),
    bind2Category: optionalNumber(values.bind2Category),
    maxUsage: optionalNumber(values.maxUsage),
    oncePerUser: values.oncePerUser,
    applyOnManufactureService: values.applyOnManufactureService,
    active: values.active,
    expireAt: values.expireAt ? dayjs(values.expireAt).endOf('day').toISOString() : null,
  };
}

/**
 * The form's errors by field, translated: the domain's `couponFormSchema` (percent at most 100,
 * a unit coupon needs a product…) on the converted values, plus what cannot be converted.
 */
export function validateCouponForm(values: CouponFormValues): Record<string, string> {
  const errors: Record<string, string> = {};
  const value = couponValueOf(values);
  if (Number.isNaN(value)) {
    errors.value = translateErrorKey(
      Number(values.coupomType) === COUPON_TYPES.fixed
        ? 'validation.invalid'
        : 'validation.numeric',
    );
  }
  for (const field of ['bind2User', 'maxUsage'] as const) {
    if (Number.isNaN(optionalNumber(values[field]))) {
      errors[field] = translateErrorKey('validation.numeric');
    }
  }
  const payload = toCouponForm(values);
  const result = couponFormSchema.safeParse({
    ...payload,
    // An unreadable number is reported above; the schema would only repeat it.
    value: Number.isNaN(payload.value) ? 1 : payload.value,
    bind2User: Number.isNaN(payload.bind2User) ? null : payload.bind2User,
    maxUsage: Number.isNaN(payload.maxUsage) ? null : payload.maxUsage,
  });
  if (!result.success) {
    for (const issue of result.error.issues) {
      const field = String(issue.path[0]);
      errors[field] ??= translateErrorKey(issue.message);
    }
  }
  return errors;
}
