import { describe, expect, it } from 'vitest';
import {
  DEVIATION_STOPS,
  deviationColor,
  deviationColors,
  legendGradient,
  legendTicks,
} from './color-scale';

const rgb255 = (color: readonly number[]) => color.map((channel) => Math.round(channel * 255));

describe('deviation colour scale', () => {
  it.each([
    // distance, top of the scale, expected colour (0–255)
    [0, 0.5, DEVIATION_STOPS[0]],
    [0.5 / 3, 0.5, DEVIATION_STOPS[1]],
    [1 / 3, 0.5, DEVIATION_STOPS[2]],
    [0.5, 0.5, DEVIATION_STOPS[3]],
    [3, 0.5, DEVIATION_STOPS[3]],
    [Infinity, 0.5, DEVIATION_STOPS[3]],
    [-1, 0.5, DEVIATION_STOPS[0]],
    [1, 2, [34, 181, 115].map((c, i) => Math.round(c + ([250, 204, 21][i]! - c) * 0.5))],
  ])('%s mm on a 0–%s mm scale → %j', (distance, max, expected) => {
    expect(rgb255(deviationColor(distance, max))).toEqual(expected);
  });

  it('gives three linear-light channels per vertex, red beyond the top', () => {
    const colors = deviationColors(new Float32Array([0, 5]), 0.5);
    expect(colors).toHaveLength(6);
    // sRGB 220 → linear ≈ 0.716; 38 → ≈ 0.019.
    expect(colors[3]).toBeCloseTo(0.716, 2);
    expect(colors[4]).toBeCloseTo(0.019, 2);
  });

  it('draws the legend with the same stops, blue to red', () => {
    const gradient = legendGradient();
    expect(gradient).toMatch(/^linear-gradient\(to right, rgb\(33, 102, 243\) 0%, /);
    expect(gradient).toMatch(/rgb\(220, 38, 38\) 100%\)$/);
  });
});

describe('legend ticks', () => {
  it.each([
    [0.5, [0, 0.1, 0.2, 0.3, 0.4, 0.5]],
    [1, [0, 0.25, 0.5, 0.75, 1]],
    [2, [0, 0.5, 1, 1.5, 2]],
  ])('a 0–%s mm scale is marked at %j mm', (max, values) => {
    const ticks = legendTicks(max);
    expect(ticks.map((tick) => tick.value)).toEqual(values);
    expect(ticks.map((tick) => tick.position)).toEqual(values.map((value) => value / max));
    // Only the top stands for "and more".
    expect(ticks.map((tick) => tick.orMore)).toEqual(values.map((_, i) => i === values.length - 1));
  });
});
