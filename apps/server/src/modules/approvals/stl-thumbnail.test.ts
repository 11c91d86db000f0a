import { inflateSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { encodePng, parseStl, renderTriangles, stlThumbnail } from './stl-thumbnail';

const ascii = Buffer.from(
  'solid t\nfacet normal 0 0 1\nouter loop\nvertex 0 0 0\nvertex 10 0 0\nvertex 0 10 0\nendloop\nendfacet\nendsolid t\n',
);

function binary(triangles: number[][]): Buffer {
  const out = Buffer.alloc(84 + 50 * triangles.length);
  out.writeUInt32LE(triangles.length, 80);
  triangles.forEach((corners, t) =>
    corners.forEach((value, i) => out.writeFloatLE(value, 84 + t * 50 + 12 + i * 4)),
  );
  return out;
}

describe('parseStl', () => {
  it.each([
    ['ASCII', ascii, [0, 0, 0, 10, 0, 0, 0, 10, 0]],
    ['binary', binary([[0, 0, 0, 1, 0, 0, 0, 1, 0]]), [0, 0, 0, 1, 0, 0, 0, 1, 0]],
    ['not an STL', Buffer.from('hello world'), null],
    ['a solid without vertices', Buffer.from('solid x\nendsolid x\n'), null],
  ])('%s', (_name, bytes, expected) => {
    const parsed = parseStl(bytes);
    expect(parsed === null ? null : [...parsed]).toEqual(expected);
  });
});

describe('renderTriangles', () => {
  it('shades the mesh over a white background', () => {
    const size = 32;
    const pixels = renderTriangles(parseStl(ascii)!, size)!;
    const colours = new Set<string>();
    for (let p = 0; p < size * size; p++) colours.add(pixels.subarray(p * 3, p * 3 + 3).join());
    expect(colours.has('255,255,255')).toBe(true);
    expect(colours.size).toBeGreaterThan(1);
  });

  it('draws nothing from degenerate input', () => {
    expect(renderTriangles(new Float32Array(0), 16)).toBeNull();
    expect(renderTriangles(new Float32Array(9), 16)).toBeNull();
  });
});

describe('encodePng', () => {
  it('writes a PNG whose rows read back', () => {
    const pixels = Uint8Array.from([255, 0, 0, 0, 255, 0, 0, 0, 255, 9, 9, 9]);
    const png = encodePng(pixels, 2, 2);
    expect(png.subarray(0, 8)).toEqual(Buffer.from([137, 80, 78, 71, 13, 10, 26, 10]));
    expect(png.readUInt32BE(16)).toBe(2);
    expect(png.readUInt32BE(20)).toBe(2);
    const idatLength = png.readUInt32BE(33);
    const rows = inflateSync(png.subarray(41, 41 + idatLength));
    expect([...rows]).toEqual([0, 255, 0, 0, 0, 255, 0, 0, 0, 0, 255, 9, 9, 9]);
  });

  it('stlThumbnail answers null for bytes it cannot draw', () => {
    expect(stlThumbnail(Buffer.from('nothing'))).toBeNull();
    expect(stlThumbnail(ascii, 24)?.readUInt32BE(16)).toBe(24);
  });
});
