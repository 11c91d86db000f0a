import { BufferAttribute, BufferGeometry, type Box3 } from 'three';
import { AVERAGE, MeshBVH } from 'three-mesh-bvh';

/**
 * The deviation map's computation: for each vertex of the newer mesh, its distance in mm to the
 * closest point of the older mesh's surface. Plain typed arrays in and out, so the same code
 * runs in the Web Worker and in tests.
 */

export interface Welded {
  /** x, y, z of each distinct vertex. */
  unique: Float32Array;
  /** For each input vertex, the index of its distinct vertex. */
  indexOf: Uint32Array;
}

/**
 * The distinct vertices of a triangle soup. An STL repeats a vertex once per triangle around it
 * (about six times on a scan), with the same float bits each time: hashing the bits finds the
 * repeats exactly and fast (an open-addressing table, no strings).
 */
export function weldPositions(positions: Float32Array): Welded {
  const count = positions.length / 3;
  const bits = new Uint32Array(positions.buffer, positions.byteOffset, positions.length);
  let size = 1;
  while (size < count * 2) size <<= 1;
  const mask = size - 1;
  // Slot → distinct index + 1 (0 = empty).
  const table = new Uint32Array(size);
  const indexOf = new Uint32Array(count);
  const firstOf: number[] = [];
  for (let vertex = 0; vertex < count; vertex++) {
    const x = bits[vertex * 3]!;
    const y = bits[vertex * 3 + 1]!;
    const z = bits[vertex * 3 + 2]!;
    let slot = (Math.imul(x, 73856093) ^ Math.imul(y, 19349663) ^ Math.imul(z, 83492791)) & mask;
    for (;;) {
      const entry = table[slot]!;
      if (entry === 0) {
        firstOf.push(vertex);
        table[slot] = firstOf.length;
        indexOf[vertex] = firstOf.length - 1;
        break;
      }
      const other = firstOf[entry - 1]!;
      if (bits[other * 3] === x && bits[other * 3 + 1] === y && bits[other * 3 + 2] === z) {
        indexOf[vertex] = entry - 1;
        break;
      }
      slot = (slot + 1) & mask;
    }
  }
  const unique = new Float32Array(firstOf.length * 3);
  firstOf.forEach((vertex, index) =>
    unique.set(positions.subarray(vertex * 3, vertex * 3 + 3), index * 3),
  );
  return { unique, indexOf };
}

export interface DeviationResult {
  /** The distance in mm of each vertex of the newer mesh (same order as its positions). */
  distances: Float32Array;
  /** The largest distance found. */
  max: number;
  /** How many distinct vertices were measured. */
  measured: number;
}

/** Progress is reported about this often (in distinct vertices). */
const PROGRESS_STEP = 8192;
/** Share of the progress bar the BVH build takes (the queries take the rest). */
const BUILD_SHARE = 0.2;
/** Closer than this (1 µm) counts as on the surface: the search stops there. */
const ON_SURFACE_SQ = 1e-6;

const squared = (x: number, y: number, z: number) => x * x + y * y + z * z;

/**
 * Squared distance from p to the triangle abc (Ericson, Real-Time Collision Detection 5.1.5),
 * on plain numbers: it runs for every candidate triangle of every vertex.
 */
export function pointTriangleDistanceSq(
  p: ArrayLike<number>,
  t: ArrayLike<number>,
  ia: number,
  ib: number,
  ic: number,
): number {
  const px = p[0]!,
    py = p[1]!,
    pz = p[2]!;
  const ax = t[ia]!,
    ay = t[ia + 1]!,
    az = t[ia + 2]!;
  const abx = t[ib]! - ax,
    aby = t[ib + 1]! - ay,
    abz = t[ib + 2]! - az;
  const acx = t[ic]! - ax,
    acy = t[ic + 1]! - ay,
    acz = t[ic + 2]! - az;
  const apx = px - ax,
    apy = py - ay,
    apz = pz - az;
  const d1 = abx * apx + aby * apy + abz * apz;
  const d2 = acx * apx + acy * apy + acz * apz;
  if (d1 <= 0 && d2 <= 0) return squared(apx, apy, apz);
  const bpx = px - t[ib]!,
    bpy = py - t[ib + 1]!,
    bpz = pz - t[ib + 2]!;
  const d3 = abx * bpx + aby * bpy + abz * bpz;
  const d4 = acx * bpx + acy * bpy + acz * bpz;
  if (d3 >= 0 && d4 <= d3) return squared(bpx, bpy, bpz);
  const vc = d1 * d4 - d3 * d2;
  if (vc <= 0 && d1 >= 0 && d3 <= 0) {
    const v = d1 / (d1 - d3);
    return squared(apx - v * abx, apy - v * aby, apz - v * abz);
  }
  const cpx = px - t[ic]!,
    cpy = py - t[ic + 1]!,
    cpz = pz - t[ic + 2]!;
  const d5 = abx * cpx + aby * cpy + abz * cpz;
  const d6 = acx * cpx + acy * cpy + acz * cpz;
  if (d6 >= 0 && d5 <= d6) return squared(cpx, cpy, cpz);
  const vb = d5 * d2 - d1 * d6;
  if (vb <= 0 && d2 >= 0 && d6 <= 0) {
    const w = d2 / (d2 - d6);
    return squared(apx - w * acx, apy - w * acy, apz - w * acz);
  }
  const va = d3 * d6 - d5 * d4;
  if (va <= 0 && d4 - d3 >= 0 && d5 - d6 >= 0) {
    const w = (d4 - d3) / (d4 - d3 + (d5 - d6));
    const bcx = t[ic]! - t[ib]!,
      bcy = t[ic + 1]! - t[ib + 1]!,
      bcz = t[ic + 2]! - t[ib + 2]!;
    return squared(bpx - w * bcx, bpy - w * bcy, bpz - w * bcz);
  }
  const denominator = 1 / (va + vb + vc);
  const v = vb * denominator;
  const w = vc * denominator;
  return squared(apx - abx * v - acx * w, apy - aby * v - acy * w, apz - abz * v - acz * w);
}

/**
 * Distances from each vertex of `newer` to the surface of `older` (both triangle soups: x, y, z
 * per vertex, three vertices per triangle, as the STL loader gives them). The BVH is built on the
 * older mesh; each distinct vertex of the newer one is one closest-point search in it.
 *
 * The search is three-mesh-bvh's `shapecast` with the arithmetic inline: its own
 * `closestPointToPoint` builds a triangle object per candidate, about twice as slow on a full
 * arch. Vertices come in mesh order, so the previous vertex's distance plus the step between
 * them bounds the next one's, which prunes most of the tree from the start.
 */
export function computeDeviation(
  older: Float32Array,
  newer: Float32Array,
  onProgress?: (fraction: number) => void,
): DeviationResult {
  const geometry = new BufferGeometry();
  geometry.setAttribute('position', new BufferAttribute(older, 3));
  // Indirect: the BVH sorts its own triangle order instead of writing an index into the geometry.
  const bvh = new MeshBVH(geometry, {
    indirect: true,
    strategy: AVERAGE,
    onProgress: onProgress && ((fraction) => onProgress(fraction * BUILD_SHARE)),
  });
  const { unique, indexOf } = weldPositions(newer);
  const measured = unique.length / 3;
  const byUnique = new Float32Array(measured);
  const point = [0, 0, 0];
  let best = Infinity;
  const search = {
    boundsTraverseOrder: (box: Box3) => boxDistanceSq(point, box),
    intersectsBounds: (_box: Box3, _isLeaf: boolean, score: number | undefined) =>
      (score ?? 0) < best,
    intersectsRange: (offset: number, count: number) => {
      for (let i = offset; i < offset + count; i++) {
        const corner = bvh.resolveTriangleIndex(i) * 9;
        const distance = pointTriangleDistanceSq(point, older, corner, corner + 3, corner + 6);
        if (distance < best) best = distance;
      }
      return best < ON_SURFACE_SQ;
    },
  };
  let max = 0;
  let previousDistance = Infinity;
  for (let index = 0; index < measured; index++) {
    const x = unique[index * 3]!,
      y = unique[index * 3 + 1]!,
      z = unique[index * 3 + 2]!;
    // The bound, squared, with a margin for rounding; Infinity for the first vertex.
    const bound = previousDistance + Math.hypot(x - point[0]!, y - point[1]!, z - point[2]!) + 1e-4;
    point[0] = x;
    point[1] = y;
    point[2] = z;
    best = bound * bound;
    bvh.shapecast(search);
    if (best >= bound * bound) {
      // Nothing within the bound (it always holds one in exact arithmetic): search everything.
      best = Infinity;
      bvh.shapecast(search);
    }
    const distance = Math.sqrt(best);
    byUnique[index] = distance;
    previousDistance = distance;
    if (distance > max) max = distance;
    if (onProgress && index % PROGRESS_STEP === PROGRESS_STEP - 1) {
      onProgress(BUILD_SHARE + ((1 - BUILD_SHARE) * (index + 1)) / measured);
    }
  }
  const distances = new Float32Array(indexOf.length);
  for (let vertex = 0; vertex < indexOf.length; vertex++) {
    distances[vertex] = byUnique[indexOf[vertex]!]!;
  }
  onProgress?.(1);
  return { distances, max, measured };
}

/** Squared distance from a point to an axis-aligned box (0 inside). */
function boxDistanceSq(p: readonly number[], box: Box3): number {
  const dx = Math.max(box.min.x - p[0]!, 0, p[0]! - box.max.x);
  const dy = Math.max(box.min.y - p[1]!, 0, p[1]! - box.max.y);
  const dz = Math.max(box.min.z - p[2]!, 0, p[2]! - box.max.z);
  return dx * dx + dy * dy + dz * dz;
}
