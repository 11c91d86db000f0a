import { DOUBLE_TAP_WINDOW_MS } from '@dentflow/domain';

/**
 * Double-tap detection: a tap counts as the second of a pair when it comes within the window
 * (spec: 500 ms) of the previous one and near it; a third tap starts a new pair.
 */
export function createDoubleTapDetector(windowMs = DOUBLE_TAP_WINDOW_MS, maxDistancePx = 40) {
  let last: { time: number; x: number; y: number } | null = null;
  return (tap: { time: number; x: number; y: number }): boolean => {
    const isDouble =
      last !== null &&
      tap.time - last.time <= windowMs &&
      tap.time >= last.time &&
      Math.hypot(tap.x - last.x, tap.y - last.y) <= maxDistancePx;
    last = isDouble ? null : tap;
    return isDouble;
  };
}

export const MIN_ZOOM = 1;
export const MAX_ZOOM = 5;
/** The zoom a double-tap toggles to. */
export const DOUBLE_TAP_ZOOM = 2.5;

export const clampZoom = (scale: number) => Math.min(MAX_ZOOM, Math.max(MIN_ZOOM, scale));

/** Pinch: the zoom scales with the distance between the two fingers. */
export function pinchZoom(startScale: number, startDistance: number, distance: number): number {
  if (startDistance <= 0) return clampZoom(startScale);
  return clampZoom(startScale * (distance / startDistance));
}

/** A horizontal swipe long enough and mostly sideways: next (left) or previous (right). */
export function swipeDirection(
  dx: number,
  dy: number,
  minDistancePx = 50,
): 'next' | 'previous' | null {
  if (Math.abs(dx) < minDistancePx || Math.abs(dx) < Math.abs(dy) * 1.5) return null;
  return dx < 0 ? 'next' : 'previous';
}

/** Index after moving by one, wrapping around. */
export const stepIndex = (index: number, count: number, step: 1 | -1) =>
  count === 0 ? 0 : (index + step + count) % count;
