import { describe, expect, it } from 'vitest';
import { formatLocation } from './geo-location';

describe('formatLocation', () => {
  it.each([
    [-23.5505199, -46.6333094, '-23.55052, -46.63331'],
    [0, 0, '0.00000, 0.00000'],
    [90, 180, '90.00000, 180.00000'],
    [91, 0, null],
    [0, -181, null],
    [Number.NaN, 0, null],
  ])('%f, %f → %s', (lat, lng, expected) => expect(formatLocation(lat, lng)).toBe(expected));
});
