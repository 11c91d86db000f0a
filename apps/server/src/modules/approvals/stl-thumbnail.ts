import { deflateSync } from 'node:zlib';

/**
 * A small picture of an STL plan for the approval certificate, drawn on the server in plain
 * JavaScript (no GL, no native code): the triangles are parsed, turned to a fixed three-quarter
 * view, projected orthographically and rasterised with a z-buffer and Lambert shading, then
 * written as a PNG with node:zlib.
 */

/** The triangles' corners, nine numbers per triangle; null when the bytes are no STL. */
export function parseStl(bytes: Buffer): Float32Array | null {
  if (bytes.length >= 84) {
    const count = bytes.readUInt32LE(80);
    if (84 + count * 50 === bytes.length) {
      const out = new Float32Array(count * 9);
      for (let t = 0; t < count; t++) {
        const base = 84 + t * 50 + 12; // after the facet normal
        for (let i = 0; i < 9; i++) out[t * 9 + i] = bytes.readFloatLE(base + i * 4);
      }
      return out;
    }
  }
  const text = bytes.toString('latin1');
  if (!/^\s*solid/.test(text)) return null;
  const numbers: number[] = [];
  const vertex = /vertex\s+(\S+)\s+(\S+)\s+(\S+)/g;
  for (let match = vertex.exec(text); match; match = vertex.exec(text)) {
    numbers.push(Number(match[1]), Number(match[2]), Number(match[3]));
  }
  const whole = numbers.length - (numbers.length % 9);
  if (whole === 0 || numbers.some((n) => !Number.isFinite(n))) return null;
  return Float32Array.from(numbers.slice(0, whole));
}

const BACKGROUND = [255, 255, 255] as const;
const SURFACE = [214, 222, 235] as const;
/** Towards the viewer, up and to the left. */
const LIGHT = normalize([-0.35, 0.45, 0.82]);

function normalize(v: readonly number[]): [number, number, number] {
  const length = Math.hypot(v[0]!, v[1]!, v[2]!) || 1;
  return [v[0]! / length, v[1]! / length, v[2]! / length];
}

/** A three-quarter view from above: turned 30° about z, then tilted 55° about x. */
function viewOf(x: number, y: number, z: number): [number, number, number] {
  const a = (30 * Math.PI) / 180;
  const b = (-55 * Math.PI) / 180;
  const x1 = x * Math.cos(a) - y * Math.sin(a);
  const y1 = x * Math.sin(a) + y * Math.cos(a);
  return [x1, y1 * Math.cos(b) - z * Math.sin(b), y1 * Math.sin(b) + z * Math.cos(b)];
}

/** RGB pixels (`size`×`size`) of the triangles, or null when there is nothing to draw. */
export function renderTriangles(triangles: Float32Array, size: number): Uint8Array | null {
  const count = Math.floor(triangles.length / 9);
  if (count === 0) return null;
  const view = new Float32Array(count * 9);
  let minX = Infinity;
  let maxX = -Infinity;
  let minY = Infinity;
  let maxY = -Infinity;
  for (let i = 0; i < count * 3; i++) {
    const [x, y, z] = viewOf(triangles[i * 3]!, triangles[i * 3 + 1]!, triangles[i * 3 + 2]!);
    view[i * 3] = x;
    view[i * 3 + 1] = y;
    view[i * 3 + 2] = z;
    minX = Math.min(minX, x);
    maxX = Math.max(maxX, x);
    minY = Math.min(minY, y);
    maxY = Math.max(maxY, y);
  }
  const span = Math.max(maxX - minX, maxY - minY);
  if (!Number.isFinite(span) || span <= 0) return null;
  const margin = size * 0.06;
  const scale = (size - 2 * margin) / span;
  const offsetX = (size - (maxX - minX) * scale) / 2;
  const offsetY = (size - (maxY - minY) * scale) / 2;
  const pixels = new Uint8Array(size * size * 3);
  for (let p = 0; p < size * size; p++) pixels.set(BACKGROUND, p * 3);
  const depth = new Float32Array(size * size).fill(-Infinity);
  const sx = new Float32Array(3);
  const sy = new Float32Array(3);
  const sz = new Float32Array(3);
  for (let t = 0; t < count; t++) {
    for (let k = 0; k < 3; k++) {
      const i = t * 9 + k * 3;
      sx[k] = offsetX + (view[i]! - minX) * scale;
      // Screen rows grow downwards.
      sy[k] = size - (offsetY + (view[i + 1]! - minY) * scale);
      sz[k] = view[i + 2]!;
    }
    const ux = view[t * 9 + 3]! - view[t * 9]!;
    const uy = view[t * 9 + 4]! - view[t * 9 + 1]!;
    const uz = view[t * 9 + 5]! - view[t * 9 + 2]!;
    const vx = view[t * 9 + 6]! - view[t * 9]!;
    const vy = view[t * 9 + 7]! - view[t * 9 + 1]!;
    const vz = view[t * 9 + 8]! - view[t * 9 + 2]!;
    const normal = normalize([uy * vz - uz * vy, uz * vx - ux * vz, ux * vy - uy * vx]);
    // Two-sided: meshes are not always wound consistently.
    const lambert = Math.abs(normal[0] * LIGHT[0] + normal[1] * LIGHT[1] + normal[2] * LIGHT[2]);
    const shade = 0.25 + 0.75 * lambert;
    const area = (sx[1]! - sx[0]!) * (sy[2]! - sy[0]!) - (sx[2]! - sx[0]!) * (sy[1]! - sy[0]!);
    if (area === 0) continue;
    const x0 = Math.max(0, Math.floor(Math.min(sx[0]!, sx[1]!, sx[2]!)));
    const x1 = Math.min(size - 1, Math.ceil(Math.max(sx[0]!, sx[1]!, sx[2]!)));
    const y0 = Math.max(0, Math.floor(Math.min(sy[0]!, sy[1]!, sy[2]!)));
    const y1 = Math.min(size - 1, Math.ceil(Math.max(sy[0]!, sy[1]!, sy[2]!)));
    for (let py = y0; py <= y1; py++) {
      for (let px = x0; px <= x1; px++) {
        const cx = px + 0.5;
        const cy = py + 0.5;
        const w0 = ((sx[1]! - cx) * (sy[2]! - cy) - (sx[2]! - cx) * (sy[1]! - cy)) / area;
        const w1 = ((sx[2]! - cx) * (sy[0]! - cy) - (sx[0]! - cx) * (sy[2]! - cy)) / area;
        const w2 = 1 - w0 - w1;
        if (w0 < 0 || w1 < 0 || w2 < 0) continue;
        const z = w0 * sz[0]! + w1 * sz[1]! + w2 * sz[2]!;
        const p = py * size + px;
        if (z <= depth[p]!) continue;
        depth[p] = z;
        pixels[p * 3] = Math.round(SURFACE[0] * shade);
        pixels[p * 3 + 1] = Math.round(SURFACE[1] * shade);
        pixels[p * 3 + 2] = Math.round(SURFACE[2] * shade);
      }
    }
  }
  return pixels;
}

const CRC_TABLE = Array.from({ length: 256 }, (_, n) => {
  let c = n;
  for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
  return c >>> 0;
});

function crc32(bytes: Buffer): number {
  let c = 0xffffffff;
  for (const byte of bytes) c = CRC_TABLE[(c ^ byte) & 0xff]! ^ (c >>> 8);
  return (c ^ 0xffffffff) >>> 0;
}

function chunk(type: string, data: Buffer): Buffer {
  const length = Buffer.alloc(4);
  length.writeUInt32BE(data.length);
  const body = Buffer.concat([Buffer.from(type, 'latin1'), data]);
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(body));
  return Buffer.concat([length, body, crc]);
}

/** An 8-bit RGB PNG of `width`×`height` pixels. */
export function encodePng(pixels: Uint8Array, width: number, height: number): Buffer {
  const header = Buffer.alloc(13);
  header.writeUInt32BE(width, 0);
  header.writeUInt32BE(height, 4);
  header[8] = 8; // bit depth
  header[9] = 2; // truecolour
  const rows = Buffer.alloc(height * (width * 3 + 1));
  for (let y = 0; y < height; y++) {
    // Filter byte 0 (none) before each row.
    Buffer.from(pixels.buffer, pixels.byteOffset + y * width * 3, width * 3).copy(
      rows,
      y * (width * 3 + 1) + 1,
    );
  }
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk('IHDR', header),
    chunk('IDAT', deflateSync(rows)),
    chunk('IEND', Buffer.alloc(0)),
  ]);
}

/** The PNG thumbnail of an STL file, or null when it has nothing to draw. */
export function stlThumbnail(bytes: Buffer, size = 240): Buffer | null {
  const triangles = parseStl(bytes);
  const pixels = triangles && renderTriangles(triangles, size);
  return pixels ? encodePng(pixels, size, size) : null;
}
