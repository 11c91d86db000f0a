import { describe, expect, it } from 'vitest';
import { frameBox, STL_COLORS, stlLayersFor, stlRoleOf, unionBox } from './stl-scene';

const file = (
  id: number,
  bucketName: string,
  attachmentType: string,
  filename: string | null,
  status = 'public',
) => ({ id, bucketName, attachmentType, filename, status, deletedAt: null });

describe('which STL files the 3D viewer loads', () => {
  it.each([
    [file(1, 'exams', 'upperJawStl', 'upper.stl'), 'upperJaw'],
    [file(1, 'exams', 'lowerJawStl', 'LOWER.STL'), 'lowerJaw'],
    [file(1, 'exams', 'object', 'guide.stl'), 'object'],
    [file(1, 'exams', 'generic', 'scan.stl'), 'object'],
    [file(1, 'planning', 'generic', 'plan.stl'), 'planning'],
    [file(1, 'planning', 'generic', 'report.pdf'), null],
    [file(1, 'exams', 'dicom', 'ct.zip'), null],
    [file(1, 'exams', 'upperJawStl', 'scans.zip'), null],
    [file(1, 'photoProtocol', 'generic', 'x.stl'), null],
  ])('%j → %s', (candidate, role) => {
    expect(stlRoleOf(candidate)).toBe(role);
  });

  it('shows both jaws and the latest planning together, each in its own colour', () => {
    const files = [
      file(1, 'exams', 'upperJawStl', 'upper-old.stl'),
      file(2, 'exams', 'lowerJawStl', 'lower.stl'),
      file(3, 'exams', 'upperJawStl', 'upper-new.stl'),
      file(4, 'planning', 'generic', 'plan-v1.stl', 'publish'),
      file(5, 'planning', 'generic', 'plan-v2.stl', 'publish'),
      file(6, 'exams', 'object', 'other.stl'),
      file(7, 'photoProtocol', 'naturalSmile', 'smile.jpg'),
    ];
    const layers = stlLayersFor(files, 2);
    expect(layers.map((layer) => [layer.id, layer.role, layer.color])).toEqual([
      [3, 'upperJaw', STL_COLORS.upperJaw],
      [2, 'lowerJaw', STL_COLORS.lowerJaw],
      [5, 'planning', STL_COLORS.planning],
    ]);
    // The planning is drawn translucent over the scans.
    expect(layers[2]!.opacity).toBeLessThan(1);
    expect(new Set(layers.map((layer) => layer.color)).size).toBe(3);
  });

  it('adds the opened file even when it is an older version or an object', () => {
    const files = [
      file(1, 'exams', 'upperJawStl', 'upper-old.stl'),
      file(3, 'exams', 'upperJawStl', 'upper-new.stl'),
      file(6, 'exams', 'object', 'other.stl'),
    ];
    expect(stlLayersFor(files, 6).map((layer) => layer.id)).toEqual([3, 6]);
    expect(stlLayersFor(files, 1).map((layer) => layer.id)).toEqual([1, 3]);
  });

  it('skips files still uploading or deleted', () => {
    const files = [
      file(1, 'exams', 'upperJawStl', 'upper.stl', 'uploading'),
      { ...file(2, 'exams', 'lowerJawStl', 'lower.stl'), deletedAt: '2026-01-01T00:00:00Z' },
    ];
    expect(stlLayersFor(files, 1)).toEqual([]);
  });
});

describe('camera framing', () => {
  const box = (min: [number, number, number], max: [number, number, number]) => ({
    min: { x: min[0], y: min[1], z: min[2] },
    max: { x: max[0], y: max[1], z: max[2] },
  });

  it('unites the boxes of the visible models, ignoring empty ones', () => {
    expect(unionBox([box([0, 0, 0], [10, 5, 2]), box([-5, 2, -1], [3, 8, 1]), null])).toEqual(
      box([-5, 0, -1], [10, 8, 2]),
    );
    // three.js marks an empty box with min > max.
    expect(unionBox([box([Infinity, Infinity, Infinity], [-Infinity, -Infinity, -Infinity])])).toBe(
      null,
    );
    expect(unionBox([])).toBe(null);
  });

  it('looks at the centre from the front, far enough for the whole model to fit', () => {
    const framing = frameBox(box([-30, -20, -10], [30, 20, 10]), 40, 1.5, 1);
    expect(framing.target).toEqual({ x: 0, y: 0, z: 0 });
    expect(framing.position.x).toBe(0);
    expect(framing.position.y).toBe(0);
    const radius = Math.hypot(60, 40, 20) / 2;
    // The vertical field of view is the narrower one on a landscape screen.
    expect(framing.distance).toBeCloseTo(radius / Math.sin((20 * Math.PI) / 180), 6);
    expect(framing.position.z).toBeCloseTo(framing.distance, 6);
    expect(framing.near).toBeLessThan(framing.distance - radius);
    expect(framing.far).toBeGreaterThan(framing.distance + radius);
  });

  it('backs off further on a narrow (portrait phone) screen', () => {
    const model = box([-30, -20, -10], [30, 20, 10]);
    const landscape = frameBox(model, 40, 16 / 9);
    const portrait = frameBox(model, 40, 9 / 19.5);
    expect(portrait.distance).toBeGreaterThan(landscape.distance * 1.5);
  });

  it('frames an off-centre model around its own centre', () => {
    const framing = frameBox(box([100, 200, 300], [110, 210, 310]), 40, 1);
    expect(framing.target).toEqual({ x: 105, y: 205, z: 305 });
    expect(framing.position.z).toBeGreaterThan(305);
  });
});
