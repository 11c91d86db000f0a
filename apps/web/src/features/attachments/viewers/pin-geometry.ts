/**
 * Between the scene and the model: pins and measuring points are stored in the model's own
 * coordinates (the STL's millimetres), whatever transform the viewer puts on the mesh to show
 * it. Matrices are 4×4, column-major (three.js `Matrix4.elements`). Pure, tested without WebGL.
 */

export type Vec3Tuple = [number, number, number];
export type Matrix4Elements = readonly number[];

/** A point through a matrix (with the perspective divide, 1 for affine matrices). */
function transformPoint(m: Matrix4Elements, [x, y, z]: Vec3Tuple): Vec3Tuple {
  const w = m[3]! * x + m[7]! * y + m[11]! * z + m[15]! || 1;
  return [
    (m[0]! * x + m[4]! * y + m[8]! * z + m[12]!) / w,
    (m[1]! * x + m[5]! * y + m[9]! * z + m[13]!) / w,
    (m[2]! * x + m[6]! * y + m[10]! * z + m[14]!) / w,
  ];
}

/** The inverse of an affine matrix (rotation, scale, translation), or null when singular. */
function invertAffine(m: Matrix4Elements): Matrix4Elements | null {
  const [a, b, c, , d, e, f, , g, h, i] = m as number[];
  const det = a! * (e! * i! - f! * h!) - d! * (b! * i! - c! * h!) + g! * (b! * f! - c! * e!);
  if (Math.abs(det) < 1e-12) return null;
  // The inverse of the 3×3 part (column-major), by cofactors.
  const r = [
    (e! * i! - f! * h!) / det,
    (c! * h! - b! * i!) / det,
    (b! * f! - c! * e!) / det,
    (f! * g! - d! * i!) / det,
    (a! * i! - c! * g!) / det,
    (c! * d! - a! * f!) / det,
    (d! * h! - e! * g!) / det,
    (b! * g! - a! * h!) / det,
    (a! * e! - b! * d!) / det,
  ];
  const [tx, ty, tz] = [m[12]!, m[13]!, m[14]!];
  return [
    r[0]!,
    r[1]!,
    r[2]!,
    0,
    r[3]!,
    r[4]!,
    r[5]!,
    0,
    r[6]!,
    r[7]!,
    r[8]!,
    0,
    -(r[0]! * tx + r[3]! * ty + r[6]! * tz),
    -(r[1]! * tx + r[4]! * ty + r[7]! * tz),
    -(r[2]! * tx + r[5]! * ty + r[8]! * tz),
    1,
  ];
}

const normalize = ([x, y, z]: Vec3Tuple): Vec3Tuple => {
  const length = Math.hypot(x, y, z) || 1;
  return [x / length, y / length, z / length];
};

/** A scene point on the mesh → the model's coordinates (`meshMatrix`: the mesh's world matrix). */
export function worldToModel(meshMatrix: Matrix4Elements, point: Vec3Tuple): Vec3Tuple {
  const inverse = invertAffine(meshMatrix);
  return inverse ? transformPoint(inverse, point) : point;
}

/** A model point → the scene (where its marker is drawn). */
export const modelToWorld = (meshMatrix: Matrix4Elements, point: Vec3Tuple): Vec3Tuple =>
  transformPoint(meshMatrix, point);

/** A face normal of the hit (in the mesh's own space, as three.js gives it) → a unit vector. */
export const faceNormalToModel = (normal: Vec3Tuple): Vec3Tuple => normalize(normal);

/** Rounded for storage: a micrometre is far below a scanner's resolution. */
export const roundMm = (point: Vec3Tuple, digits = 4): Vec3Tuple =>
  point.map((value) => Number(value.toFixed(digits))) as Vec3Tuple;
