import { describe, expect, it } from 'vitest';
import { isOneOf } from './one-of';

const COLOURS = ['green', 'white'] as const;
const STEPS = [1, 2, 3] as const;

describe('isOneOf', () => {
  it.each([
    [COLOURS, 'green', true],
    [COLOURS, 'Green', false],
    [COLOURS, undefined, false],
    [STEPS, 2, true],
    [STEPS, '2', false],
    [STEPS, 4, false],
  ] as const)('%j has %j → %s', (list, value, expected) => {
    expect(isOneOf(list, value)).toBe(expected);
  });
});
