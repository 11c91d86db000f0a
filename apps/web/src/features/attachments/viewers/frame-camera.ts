import type { PerspectiveCamera } from 'three';
import type { OrbitControls } from 'three/examples/jsm/controls/OrbitControls.js';
import type { Framing } from './stl-scene';

/** Puts the camera and its orbit controls where `framing` says (both viewers frame alike). */
export function applyFraming(
  camera: PerspectiveCamera,
  controls: OrbitControls,
  framing: Framing,
): void {
  camera.position.set(framing.position.x, framing.position.y, framing.position.z);
  camera.near = framing.near;
  camera.far = framing.far;
  camera.up.set(0, 1, 0);
  camera.updateProjectionMatrix();
  controls.target.set(framing.target.x, framing.target.y, framing.target.z);
  controls.minDistance = framing.distance / 20;
  controls.maxDistance = framing.distance * 10;
  controls.update();
}

/** Calls `drawn` once the frame after now has been painted; answers the cancel. */
export function afterNextPaint(drawn: () => void): () => void {
  let second = 0;
  const first = requestAnimationFrame(() => {
    second = requestAnimationFrame(drawn);
  });
  return () => {
    cancelAnimationFrame(first);
    cancelAnimationFrame(second);
  };
}
