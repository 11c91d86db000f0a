import { COUPON_TYPES, formatMoney, type AdminCoupon } from '@dentflow/domain';
import { FIXED_COUPON_CURRENCY } from '../coupon-form-values';

/** The coupon types' keys in the `domain` catalogue (`couponTypes.percent`…). */
export const COUPON_TYPE_KEYS = {
  [COUPON_TYPES.percent]: 'percent',
  [COUPON_TYPES.fixed]: 'fixed',
  [COUPON_TYPES.unit]: 'unit',
} as const;

/** `10%`, `R$ 25,00` or `2 ×` (units of the bound product). */
export function formatCouponValue(coupon: Pick<AdminCoupon, 'coupomType' | 'value'>): string {
  switch (coupon.coupomType) {
    case COUPON_TYPES.percent:
      return `${coupon.value}%`;
    case COUPON_TYPES.fixed:
      return formatMoney(coupon.value, FIXED_COUPON_CURRENCY);
    case COUPON_TYPES.unit:
      return `${coupon.value} ×`;
  }
}
