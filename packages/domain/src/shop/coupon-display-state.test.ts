import { describe, expect, it } from 'vitest';
import { couponDisplayState } from './coupon';

const NOW = new Date('2026-05-10T12:00:00.000Z');

describe('couponDisplayState: one state, expired wins', () => {
  it.each([
    { active: true, expireAt: null, state: 'active' },
    { active: false, expireAt: null, state: 'inactive' },
    { active: true, expireAt: '2026-05-11T00:00:00.000Z', state: 'active' },
    { active: false, expireAt: '2026-05-11T00:00:00.000Z', state: 'inactive' },
    { active: true, expireAt: '2026-05-09T00:00:00.000Z', state: 'expired' },
    { active: false, expireAt: '2026-05-09T00:00:00.000Z', state: 'expired' },
    // The expiry instant itself counts as expired.
    { active: true, expireAt: '2026-05-10T12:00:00.000Z', state: 'expired' },
  ] as const)('active $active, expires $expireAt → $state', ({ active, expireAt, state }) => {
    expect(couponDisplayState({ active, expireAt }, NOW)).toBe(state);
  });
});
