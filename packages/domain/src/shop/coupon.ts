import { z } from 'zod';
import { boundedIntSchema, idSchema, INT32_MAX } from '../common/bounds';
import { MESSAGE } from '../forms/rules';

/** Coupons: 1 percent, 2 fixed (minor units), 3 unit (a number of units of a product). */
export const COUPON_TYPES = { percent: 1, fixed: 2, unit: 3 } as const;
export type CouponTypeId = (typeof COUPON_TYPES)[keyof typeof COUPON_TYPES];

export const couponSchema = z.object({
  id: z.number().int(),
  /** The code a user types or a link carries (`/register/{coupom}`). */
  name: z.string().max(60),
  bind2User: z.number().int().nullable(),
  bind2Product: z.number().int().nullable(),
  bind2Category: z.number().int().nullable(),
  /** null: no limit. */
  maxUsage: z.number().int().min(0).nullable(),
  used: z.number().int().min(0),
  coupomType: z.union([z.literal(1), z.literal(2), z.literal(3)]),
  value: z.number().int().min(0),
  oncePerUser: z.boolean(),
  applyOnManufactureService: z.boolean(),
  active: z.boolean(),
  createdAt: z.string(),
  deletedAt: z.string().nullable(),
  expireAt: z.string().nullable(),
});
export type Coupon = z.infer<typeof couponSchema>;

/** Codes compare without regard to case or surrounding spaces. */
export const normalizeCouponCode = (code: string) => code.trim().toUpperCase();

/** The admin coupon form (`POST /products/coupom/set/{id}`). */
export const couponFormSchema = z
  .object({
    name: z
      .string({ error: MESSAGE.required })
      .trim()
      .min(1, MESSAGE.required)
      .max(60, MESSAGE.max)
      .regex(/^[\p{L}\p{N}_-]+$/u, MESSAGE.alphaNum),
    bind2User: idSchema.nullable(),
    bind2Product: idSchema.nullable(),
    bind2Category: idSchema.nullable(),
    maxUsage: boundedIntSchema(1).nullable(),
    coupomType: z.union([z.literal(1), z.literal(2), z.literal(3)]),
    /** A percent, an amount in cents or a number of units, by the type. */
    value: z
      .number({ error: MESSAGE.required })
      .int(MESSAGE.numeric)
      .min(1, MESSAGE.min)
      .max(INT32_MAX, MESSAGE.max),
    oncePerUser: z.boolean(),
    applyOnManufactureService: z.boolean(),
    active: z.boolean(),
    expireAt: z.string().max(40, MESSAGE.max).nullable(),
  })
  .superRefine((coupon, ctx) => {
    if (coupon.coupomType === COUPON_TYPES.percent && coupon.value > 100) {
      ctx.addIssue({ code: 'custom', path: ['value'], message: MESSAGE.max });
    }
    // A unit coupon grants units of one product, so it must be bound to it.
    if (coupon.coupomType === COUPON_TYPES.unit && coupon.bind2Product === null) {
      ctx.addIssue({ code: 'custom', path: ['bind2Product'], message: MESSAGE.required });
    }
  });
export type CouponForm = z.infer<typeof couponFormSchema>;

export const COUPON_REJECTIONS = [
  'inactive',
  'deleted',
  'expired',
  'exhausted',
  'alreadyUsed',
  'notInCart',
] as const;
export type CouponRejection = (typeof COUPON_REJECTIONS)[number];

/** Units a unit coupon still grants. */
export const remainingCouponUnits = (coupon: Pick<Coupon, 'value' | 'used'>) =>
  Math.max(0, coupon.value - coupon.used);

export interface CouponUseContext {
  userId: number;
  now: Date;
  /** How many times this user already used the coupon (for oncePerUser). */
  usesByUser: number;
  /**
   * What the cart holds, to check the product/category binding; omit to check the coupon alone
   * (e.g. at registration).
   */
  cart?: { productIds: readonly number[]; categoryIds: readonly number[] };
}

/**
 * Coupon applicability: active, not deleted, not expired, usage below maxUsage, once per
 * user, bound user, bound product or category present. Returns the first reason it is not
 * applicable, or null when it is. A coupon bound to another user does not exist for this one: it
 * answers 'deleted', like an unknown code, before any other reason, so nobody learns of codes
 * made for someone else.
 */
export function couponRejection(
  coupon: Pick<
    Coupon,
    | 'active'
    | 'deletedAt'
    | 'expireAt'
    | 'maxUsage'
    | 'used'
    | 'oncePerUser'
    | 'bind2User'
    | 'bind2Product'
    | 'bind2Category'
    | 'coupomType'
    | 'value'
  >,
  context: CouponUseContext,
): CouponRejection | null {
  if (coupon.deletedAt) return 'deleted';
  if (coupon.bind2User !== null && coupon.bind2User !== context.userId) return 'deleted';
  if (!coupon.active) return 'inactive';
  if (coupon.expireAt && new Date(coupon.expireAt).getTime() <= context.now.getTime())
    return 'expired';
  if (coupon.maxUsage !== null && coupon.used >= coupon.maxUsage) return 'exhausted';
  if (coupon.coupomType === COUPON_TYPES.unit && remainingCouponUnits(coupon) === 0)
    return 'exhausted';
  if (coupon.oncePerUser && context.usesByUser > 0) return 'alreadyUsed';
  if (context.cart) {
    if (coupon.bind2Product !== null && !context.cart.productIds.includes(coupon.bind2Product))
      return 'notInCart';
    if (coupon.bind2Category !== null && !context.cart.categoryIds.includes(coupon.bind2Category))
      return 'notInCart';
  }
  return null;
}

export const isCouponApplicable = (...args: Parameters<typeof couponRejection>) =>
  couponRejection(...args) === null;

/**
 * The coupon a user registered with (`/register/{code}`) is offered at their checkouts — shown on
 * their profile and pre-filled in the coupon field — until one of their checkouts used it, and
 * only while it still applies without a cart (a deleted, inactive, expired or exhausted coupon,
 * or one bound to someone else, is not offered; the cart's product binding is the quote's check).
 */
export function isRegistrationCouponPending(
  coupon: Parameters<typeof couponRejection>[0],
  context: Omit<CouponUseContext, 'cart'>,
): boolean {
  return context.usesByUser === 0 && couponRejection(coupon, context) === null;
}

/** What an admin list shows of a coupon: one state, never two at once. */
export type CouponDisplayState = 'expired' | 'active' | 'inactive';

/**
 * A coupon's one displayed state: past its expiry it is 'expired' whatever its active switch
 * says (nobody can use it), else 'active' or 'inactive' by the switch.
 */
export function couponDisplayState(
  coupon: Pick<Coupon, 'active' | 'expireAt'>,
  now: Date = new Date(),
): CouponDisplayState {
  if (coupon.expireAt !== null && Date.parse(coupon.expireAt) <= now.getTime()) return 'expired';
  return coupon.active ? 'active' : 'inactive';
}
