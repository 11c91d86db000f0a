import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { AVATAR_MAX_BYTES, avatarRejection, isAllowedAvatar } from './avatar';

describe('avatar: JPG, GIF or PNG, at most 800 kB', () => {
  it('800 kB is 819200 bytes', () => expect(AVATAR_MAX_BYTES).toBe(819_200));
  it.each([
    ['image/jpeg', 1000, null],
    ['image/jpg', 1000, null],
    ['image/png', AVATAR_MAX_BYTES, null],
    ['image/gif', 10, null],
    ['IMAGE/PNG', 10, null],
    ['image/png', AVATAR_MAX_BYTES + 1, 'size'],
    ['image/png', 0, 'size'],
    ['image/webp', 1000, 'type'],
    ['image/svg+xml', 1000, 'type'],
    ['application/pdf', 1000, 'type'],
    ['', 1000, 'type'],
  ] as const)('%s, %i bytes → %s', (type, size, rejection) => {
    expect(avatarRejection({ type, size })).toBe(rejection);
    expect(isAllowedAvatar({ type, size })).toBe(rejection === null);
  });

  it('any allowed type is accepted exactly up to the limit', () => {
    fc.assert(
      fc.property(
        fc.constantFrom('image/jpeg', 'image/png', 'image/gif'),
        fc.integer({ min: 1, max: 2 * AVATAR_MAX_BYTES }),
        (type, size) => {
          expect(isAllowedAvatar({ type, size })).toBe(size <= AVATAR_MAX_BYTES);
        },
      ),
    );
  });
});
