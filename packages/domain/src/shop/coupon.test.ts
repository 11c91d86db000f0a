import { describe, expect, it } from 'vitest';
import {
  couponFormSchema,
  couponRejection,
  isCouponApplicable,
  isRegistrationCouponPending,
  normalizeCouponCode,
  remainingCouponUnits,
  type Coupon,
} from './coupon';

const now = new Date('2025-06-01T12:00:00Z');
const coupon = (patch: Partial<Coupon> = {}): Coupon => ({
  id: 1,
  name: 'WELCOME10',
  bind2User: null,
  bind2Product: null,
  bind2Category: null,
  maxUsage: 10,
  used: 0,
  coupomType: 1,
  value: 10,
  oncePerUser: false,
  applyOnManufactureService: false,
  active: true,
  createdAt: '2025-01-01T00:00:00Z',
  deletedAt: null,
  expireAt: null,
  ...patch,
});
const context = { userId: 5, now, usesByUser: 0 };
const cart = { productIds: [1, 2], categoryIds: [3] };

describe('coupon applicability', () => {
  it.each([
    ['a plain active coupon', {}, {}, null],
    ['inactive', { active: false }, {}, 'inactive'],
    ['deleted', { deletedAt: '2025-02-01T00:00:00Z' }, {}, 'deleted'],
    ['expired', { expireAt: '2025-05-31T00:00:00Z' }, {}, 'expired'],
    ['expiring exactly now', { expireAt: '2025-06-01T12:00:00Z' }, {}, 'expired'],
    ['expiring later', { expireAt: '2025-06-02T00:00:00Z' }, {}, null],
    ['usage at maxUsage', { maxUsage: 3, used: 3 }, {}, 'exhausted'],
    ['usage below maxUsage', { maxUsage: 3, used: 2 }, {}, null],
    ['no usage limit', { maxUsage: null, used: 1000 }, {}, null],
    ['once per user, used before', { oncePerUser: true }, { usesByUser: 1 }, 'alreadyUsed'],
    ['once per user, first use', { oncePerUser: true }, { usesByUser: 0 }, null],
    ['not once per user, used before', { oncePerUser: false }, { usesByUser: 4 }, null],
    // Another user's coupon answers like an unknown code, whatever else is true of it.
    ['bound to another user', { bind2User: 6 }, {}, 'deleted'],
    ['bound to another user and inactive', { bind2User: 6, active: false }, {}, 'deleted'],
    [
      'bound to another user and expired',
      { bind2User: 6, expireAt: '2025-05-31T00:00:00Z' },
      {},
      'deleted',
    ],
    ['bound to another user and used up', { bind2User: 6, maxUsage: 1, used: 1 }, {}, 'deleted'],
    [
      'bound to another user, used before',
      { bind2User: 6, oncePerUser: true },
      { usesByUser: 1 },
      'deleted',
    ],
    ['bound to this user', { bind2User: 5 }, {}, null],
    ['bound product in cart', { bind2Product: 2 }, { cart }, null],
    ['bound product not in cart', { bind2Product: 9 }, { cart }, 'notInCart'],
    ['bound category in cart', { bind2Category: 3 }, { cart }, null],
    ['bound category not in cart', { bind2Category: 4 }, { cart }, 'notInCart'],
    ['bound product, cart unknown (registration)', { bind2Product: 9 }, {}, null],
    [
      'unit coupon with units left',
      { coupomType: 3, value: 3, used: 2, bind2Product: 1 },
      {},
      null,
    ],
    [
      'unit coupon without units left',
      { coupomType: 3, value: 3, used: 3, bind2Product: 1, maxUsage: null },
      {},
      'exhausted',
    ],
  ] as const)('%s → %s', (_, patch, ctx, rejection) => {
    expect(couponRejection(coupon(patch), { ...context, ...ctx })).toBe(rejection);
    expect(isCouponApplicable(coupon(patch), { ...context, ...ctx })).toBe(rejection === null);
  });

  it('counts remaining units', () => {
    expect(remainingCouponUnits({ value: 5, used: 2 })).toBe(3);
    expect(remainingCouponUnits({ value: 2, used: 5 })).toBe(0);
  });

  it('normalises codes', () => expect(normalizeCouponCode('  welcome10 ')).toBe('WELCOME10'));
});

describe('coupon form', () => {
  const form = {
    name: 'SPRING',
    bind2User: null,
    bind2Product: null,
    bind2Category: null,
    maxUsage: 10,
    coupomType: 1 as const,
    value: 10,
    oncePerUser: true,
    applyOnManufactureService: false,
    active: true,
    expireAt: null,
  };
  it.each([
    [{}, true],
    [{ value: 100 }, true],
    [{ value: 101 }, false],
    [{ value: 0 }, false],
    [{ coupomType: 2 as const, value: 150000 }, true],
    [{ coupomType: 3 as const, value: 2 }, false],
    [{ coupomType: 3 as const, value: 2, bind2Product: 4 }, true],
    [{ name: 'has space' }, false],
    [{ name: '' }, false],
    [{ maxUsage: 0 }, false],
  ])('%j → %s', (patch, ok) =>
    expect(couponFormSchema.safeParse({ ...form, ...patch }).success).toBe(ok),
  );
});

describe('the registration coupon is offered until used', () => {
  it.each([
    ['never used, still valid', {}, 0, true],
    ['used once (even a reusable coupon)', {}, 1, false],
    ['bound to a product (the cart decides)', { bind2Product: 9 }, 0, true],
    ['deleted', { deletedAt: '2025-02-01T00:00:00Z' }, 0, false],
    ['inactive', { active: false }, 0, false],
    ['expired', { expireAt: '2025-05-31T00:00:00Z' }, 0, false],
    ['exhausted', { maxUsage: 10, used: 10 }, 0, false],
    ['bound to another user', { bind2User: 6 }, 0, false],
    ['bound to this user', { bind2User: 5 }, 0, true],
  ])('%s → %s', (_name, patch, usesByUser, expected) => {
    expect(isRegistrationCouponPending(coupon(patch), { ...context, usesByUser })).toBe(expected);
  });
});
