import { describe, expect, it } from 'vitest';
import { DOUBLE_TAP_WINDOW_MS } from '@dentflow/domain';
import {
  clampZoom,
  createDoubleTapDetector,
  isTap,
  MAX_ZOOM,
  pinchZoom,
  stepIndex,
  swipeDirection,
  type PressTrace,
} from './gestures';

const tap = (time: number, x = 100, y = 100) => ({ time, x, y });

describe('double-tap detection (window 500 ms)', () => {
  it('uses the spec window by default', () => {
    expect(DOUBLE_TAP_WINDOW_MS).toBe(500);
  });

  it.each([
    ['two taps 200 ms apart', [0, 200], [false, true]],
    ['two taps exactly 500 ms apart', [0, 500], [false, true]],
    ['two taps 501 ms apart', [0, 501], [false, false]],
    // The third tap starts a new pair instead of zooming back at once.
    ['three quick taps', [0, 100, 200], [false, true, false]],
    ['four quick taps: two pairs', [0, 100, 200, 300], [false, true, false, true]],
    ['a slow tap then a quick pair', [0, 900, 1000], [false, false, true]],
  ])('%s', (_name, times, expected) => {
    const isDouble = createDoubleTapDetector();
    expect(times.map((time) => isDouble(tap(time)))).toEqual(expected);
  });

  it('ignores a second tap far from the first (two fingers tapping apart)', () => {
    const isDouble = createDoubleTapDetector();
    expect(isDouble(tap(0, 10, 10))).toBe(false);
    expect(isDouble(tap(100, 300, 300))).toBe(false);
    expect(isDouble(tap(200, 305, 300))).toBe(true);
  });
});

describe('zoom and swipe', () => {
  it('pinch zoom scales with the finger distance, clamped to 1..5', () => {
    expect(pinchZoom(1, 100, 200)).toBe(2);
    expect(pinchZoom(2, 100, 50)).toBe(1);
    expect(pinchZoom(1, 100, 50)).toBe(1);
    expect(pinchZoom(3, 100, 1000)).toBe(MAX_ZOOM);
    expect(pinchZoom(2, 0, 100)).toBe(2);
    expect(clampZoom(0.2)).toBe(1);
  });

  it.each([
    [-120, 10, 'next'],
    [120, -10, 'previous'],
    [-30, 0, null],
    [-80, 70, null],
    [0, 200, null],
  ] as const)('swipe dx=%d dy=%d → %s', (dx, dy, expected) => {
    expect(swipeDirection(dx, dy)).toBe(expected);
  });

  it('steps between photos, wrapping around', () => {
    expect(stepIndex(0, 3, 1)).toBe(1);
    expect(stepIndex(2, 3, 1)).toBe(0);
    expect(stepIndex(0, 3, -1)).toBe(2);
    expect(stepIndex(0, 0, 1)).toBe(0);
  });
});

describe('isTap (pin and measure picks)', () => {
  const press = (patch: Partial<PressTrace> = {}): PressTrace => ({
    downAt: 1000,
    upAt: 1120,
    down: { x: 100, y: 100 },
    up: { x: 102, y: 101 },
    pointers: 1,
    ...patch,
  });

  it.each<[string, Partial<PressTrace>, boolean]>([
    ['a short press that stayed put', {}, true],
    ['a press that moved 6 px at most', { up: { x: 106, y: 100 } }, true],
    ['a drag (orbit)', { up: { x: 140, y: 100 } }, false],
    ['a long press', { upAt: 1600 }, false],
    ['two fingers (orbit or zoom)', { pointers: 2 }, false],
    ['an up before its down (clock skew)', { upAt: 900 }, false],
  ])('%s → %s', (_name, patch, expected) => {
    expect(isTap(press(patch))).toBe(expected);
  });
});
