/**
 * The deviation map's colour scale: 0 mm blue, through green and yellow, to red at the scale's
 * top and beyond. The legend draws the same stops, so a colour on the model reads off the bar.
 */

type Rgb = readonly [number, number, number];

/** The stops, evenly spaced from 0 to the scale's top (sRGB, 0–255). */
export const DEVIATION_STOPS: readonly Rgb[] = [
  [33, 102, 243], // blue: unchanged
  [34, 181, 115], // green
  [250, 204, 21], // yellow
  [220, 38, 38], // red: the top of the scale or more
];

/** The tops the user may pick, in mm; the first is the default (a clinically relevant change). */
export const DEVIATION_RANGES_MM = [0.5, 1, 2] as const;

/** The colour of a distance on a scale from 0 to `maxMm` (sRGB, 0–1). */
export function deviationColor(distanceMm: number, maxMm: number): [number, number, number] {
  const fraction =
    Number.isFinite(distanceMm) && maxMm > 0 ? Math.min(Math.max(distanceMm / maxMm, 0), 1) : 1;
  const position = fraction * (DEVIATION_STOPS.length - 1);
  const lower = Math.min(Math.floor(position), DEVIATION_STOPS.length - 2);
  const blend = position - lower;
  const from = DEVIATION_STOPS[lower]!;
  const to = DEVIATION_STOPS[lower + 1]!;
  return [0, 1, 2].map(
    (channel) => (from[channel]! + (to[channel]! - from[channel]!) * blend) / 255,
  ) as [number, number, number];
}

/** sRGB to linear light: three.js blends vertex colours in linear space. */
const toLinear = (value: number) =>
  value <= 0.04045 ? value / 12.92 : ((value + 0.055) / 1.055) ** 2.4;

/** The vertex colours (linear RGB, three per vertex) of a map's distances. */
export function deviationColors(distances: Float32Array, maxMm: number): Float32Array {
  const colors = new Float32Array(distances.length * 3);
  for (let vertex = 0; vertex < distances.length; vertex++) {
    const [r, g, b] = deviationColor(distances[vertex]!, maxMm);
    colors[vertex * 3] = toLinear(r);
    colors[vertex * 3 + 1] = toLinear(g);
    colors[vertex * 3 + 2] = toLinear(b);
  }
  return colors;
}

/** The legend bar's CSS gradient (left 0 mm, right the top). */
export function legendGradient(): string {
  const stops = DEVIATION_STOPS.map(
    ([r, g, b], index) =>
      `rgb(${r}, ${g}, ${b}) ${((index / (DEVIATION_STOPS.length - 1)) * 100).toFixed(0)}%`,
  );
  return `linear-gradient(to right, ${stops.join(', ')})`;
}

export interface LegendTick {
  /** The distance in mm. */
  value: number;
  /** Where on the bar, 0–1. */
  position: number;
  /** The top of the scale: it stands for that distance and more. */
  orMore: boolean;
}

/** Evenly spaced ticks from 0 to the top, at a step of 0.1, 0.25, 0.5 or 1 mm (at most 6). */
export function legendTicks(maxMm: number): LegendTick[] {
  const step = [0.1, 0.25, 0.5, 1, 2, 5].find((candidate) => maxMm / candidate <= 5) ?? maxMm / 5;
  const count = Math.round(maxMm / step);
  return Array.from({ length: count + 1 }, (_, index) => {
    const value = index === count ? maxMm : Math.round(index * step * 1000) / 1000;
    return { value, position: value / maxMm, orMore: index === count };
  });
}
