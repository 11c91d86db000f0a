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

/** A pointer press as the viewer saw it go down and come up. */
export interface PressTrace {
  downAt: number;
  upAt: number;
  /** Where it went down and came up (CSS pixels). */
  down: { x: number; y: number };
  up: { x: number; y: number };
  /** The most fingers or buttons held during it. */
  pointers: number;
}

export const TAP_MAX_MS = 500;
export const TAP_MAX_MOVE_PX = 6;

/**
 * A tap (or click): one short press that did not move. A drag orbits the camera and a two-finger
 * gesture orbits or zooms, so neither drops a pin nor picks a measuring point.
 */
export function isTap(press: PressTrace, maxMs = TAP_MAX_MS, maxMovePx = TAP_MAX_MOVE_PX): boolean {
  return (
    press.pointers === 1 &&
    press.upAt >= press.downAt &&
    press.upAt - press.downAt <= maxMs &&
    Math.hypot(press.up.x - press.down.x, press.up.y - press.down.y) <= maxMovePx
  );
}
