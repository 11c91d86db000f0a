// What the coupons module offers other modules; they import nothing else from it.
export { couponOfRow } from './coupons.service';
