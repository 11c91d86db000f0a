/**
 * Whether a coupon code may be kept on a new account: active, not deleted, not expired, usage
 * below maxUsage (spec §9 coupon applicability, the parts that do not depend on a cart).
 * Candidate to move to @dentflow/domain once the shop's coupon rules land there.
 */
export function isCouponUsableAtRegistration(
  coupon: {
    active: boolean;
    deletedAt: Date | null;
    expireAt: Date | null;
    maxUsage: number | null;
    used: number;
  },
  now: Date,
): boolean {
  if (!coupon.active || coupon.deletedAt) return false;
  if (coupon.expireAt && coupon.expireAt.getTime() <= now.getTime()) return false;
  if (coupon.maxUsage !== null && coupon.used >= coupon.maxUsage) return false;
  return true;
}
