import { describe, expect, it } from 'vitest';
import { isOneOf } from './one-of';

const COLOURS = ['green', 'white'] as const;
const STEPS = [1, 2, 3] as const;

describe('isOneOf', () => {
  it.each([
    ['green', true],
    ['Green', false],
    [undefined, false],
  ])('colours has %j → %s', (value, expected) => {
    expect(isOneOf(COLOURS, value)).toBe(expected);
  });

  it.each([
    [2, true],
    ['2', false],
    [4, false],
  ])('steps has %j → %s', (value, expected) => {
    expect(isOneOf(STEPS, value)).toBe(expected);
  });
});
