/**
 * The pure parts of the 3D viewer: which files it shows together, their colours, and how the
 * camera frames them. Kept apart from three.js so they are tested without WebGL.
 */

export type StlRole = 'upperJaw' | 'lowerJaw' | 'planning' | 'object';

/** Scans in soft, distinct tones; the planning in a strong colour, drawn over them. */
export const STL_COLORS: Record<StlRole, string> = {
  upperJaw: '#e9d8b4',
  lowerJaw: '#b9d3ea',
  planning: '#2fb380',
  object: '#c7b3f5',
};
/** The planning is translucent so the scans under it stay readable. */
export const STL_OPACITY: Record<StlRole, number> = {
  upperJaw: 1,
  lowerJaw: 1,
  planning: 0.75,
  object: 1,
};
const ROLE_ORDER: StlRole[] = ['upperJaw', 'lowerJaw', 'object', 'planning'];

interface StlCandidate {
  id: number;
  bucketName: string;
  attachmentType: string;
  filename: string | null;
  status: string;
  deletedAt?: string | null;
}

const isStlName = (filename: string | null) => /\.stl$/i.test(filename ?? '');

/** A file's place in the 3D view; only real .stl files (a jaw scan may also be a zip). */
export function stlRoleOf(file: StlCandidate): StlRole | null {
  if (!isStlName(file.filename)) return null;
  if (file.bucketName === 'exams' && file.attachmentType === 'upperJawStl') return 'upperJaw';
  if (file.bucketName === 'exams' && file.attachmentType === 'lowerJawStl') return 'lowerJaw';
  if (file.bucketName === 'planning') return 'planning';
  if (file.bucketName === 'exams') return 'object';
  return null;
}

export interface StlLayer<T extends StlCandidate = StlCandidate> {
  id: number;
  role: StlRole;
  color: string;
  opacity: number;
  attachment: T;
  /** Shown when the viewer opens (the others can be toggled on). */
  visible: boolean;
}

/**
 * What the viewer loads for the opened file: the latest upper and lower jaw scans together, the
 * opened file (whatever it is) and, with the scans, the latest planning STL over them. Other
 * objects are listed only when opened. Uploading or deleted files are skipped.
 */
export function stlLayersFor<T extends StlCandidate>(
  files: readonly T[],
  openedId: number,
): StlLayer<T>[] {
  const usable = files.filter((file) => !file.deletedAt && file.status !== 'uploading');
  const latest = (role: StlRole) =>
    usable.filter((file) => stlRoleOf(file) === role).sort((a, b) => b.id - a.id)[0];
  const chosen = new Map<number, T>();
  for (const role of ['upperJaw', 'lowerJaw', 'planning'] as const) {
    const file = latest(role);
    if (file) chosen.set(file.id, file);
  }
  const opened = usable.find((file) => file.id === openedId);
  if (opened && stlRoleOf(opened)) chosen.set(opened.id, opened);
  return [...chosen.values()]
    .map((file) => {
      const role = stlRoleOf(file)!;
      return {
        id: file.id,
        role,
        color: STL_COLORS[role],
        opacity: STL_OPACITY[role],
        attachment: file,
        visible: true,
      };
    })
    .sort((a, b) => ROLE_ORDER.indexOf(a.role) - ROLE_ORDER.indexOf(b.role) || a.id - b.id);
}

export interface Vec3 {
  x: number;
  y: number;
  z: number;
}
export interface Box3Like {
  min: Vec3;
  max: Vec3;
}

/** The union of boxes (the visible models); null when there is none or all are empty. */
export function unionBox(boxes: readonly (Box3Like | null | undefined)[]): Box3Like | null {
  const valid = boxes.filter(
    (box): box is Box3Like =>
      !!box && box.min.x <= box.max.x && box.min.y <= box.max.y && box.min.z <= box.max.z,
  );
  if (valid.length === 0) return null;
  return {
    min: {
      x: Math.min(...valid.map((b) => b.min.x)),
      y: Math.min(...valid.map((b) => b.min.y)),
      z: Math.min(...valid.map((b) => b.min.z)),
    },
    max: {
      x: Math.max(...valid.map((b) => b.max.x)),
      y: Math.max(...valid.map((b) => b.max.y)),
      z: Math.max(...valid.map((b) => b.max.z)),
    },
  };
}

export interface Framing {
  target: Vec3;
  position: Vec3;
  near: number;
  far: number;
  /** The distance from the target, for the zoom limits. */
  distance: number;
}

/**
 * Camera framing for a box: looking at its centre from the front (+z, a dental scan's occlusal
 * plane faces the viewer after the model's usual orientation), far enough that the bounding
 * sphere fits both the vertical and the horizontal field of view, with a small margin.
 */
export function frameBox(
  box: Box3Like,
  fovDegrees: number,
  aspect: number,
  margin = 1.15,
): Framing {
  const target = {
    x: (box.min.x + box.max.x) / 2,
    y: (box.min.y + box.max.y) / 2,
    z: (box.min.z + box.max.z) / 2,
  };
  const radius =
    Math.max(
      Math.hypot(box.max.x - box.min.x, box.max.y - box.min.y, box.max.z - box.min.z) / 2,
      1e-3,
    ) * margin;
  const vertical = (fovDegrees * Math.PI) / 180;
  const horizontal = 2 * Math.atan(Math.tan(vertical / 2) * Math.max(aspect, 1e-3));
  const distance = radius / Math.sin(Math.min(vertical, horizontal) / 2);
  return {
    target,
    position: { x: target.x, y: target.y, z: target.z + distance },
    near: Math.max(distance / 100, 0.01),
    far: distance * 100,
    distance,
  };
}
