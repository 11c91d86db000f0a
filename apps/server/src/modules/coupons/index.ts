// What the coupons module offers other modules; they import nothing else from it.
export { couponByCode, couponOfRow, couponUsesByUser, recordCouponUse } from './coupons.service';
