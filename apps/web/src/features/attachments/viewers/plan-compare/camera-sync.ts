/**
 * Side by side, the two views' cameras move together: whichever the user orbits, zooms or pans,
 * the other takes the same pose. Applying a pose makes the follower's controls report a change
 * too; that echo must not travel back, or the two would chase each other.
 */

export type Triple = [number, number, number];

export interface CameraPose {
  position: Triple;
  target: Triple;
  up: Triple;
}

export interface CameraLink {
  /** Adds a view; `apply` moves its camera to a pose. Returns the function that removes it. */
  join(id: string, apply: (pose: CameraPose) => void): () => void;
  /** A view's camera moved: every other view follows (ignored while a pose is being applied). */
  moved(id: string, pose: CameraPose): void;
}

export function createCameraLink(): CameraLink {
  const views = new Map<string, (pose: CameraPose) => void>();
  let applying = false;
  return {
    join(id, apply) {
      views.set(id, apply);
      return () => {
        if (views.get(id) === apply) views.delete(id);
      };
    },
    moved(id, pose) {
      if (applying) return;
      applying = true;
      try {
        for (const [other, apply] of views) if (other !== id) apply(pose);
      } finally {
        applying = false;
      }
    },
  };
}
