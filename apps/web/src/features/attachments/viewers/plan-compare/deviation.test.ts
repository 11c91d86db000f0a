import { describe, expect, it } from 'vitest';
import { computeDeviation, weldPositions } from './deviation';
import { archPair, heightField } from './test-meshes';

describe('distinct vertices of a triangle soup', () => {
  it('finds each shared vertex once and maps every corner to it', () => {
    // 2×1 grid: 4 triangles, 12 corners, 6 distinct vertices.
    const soup = heightField(2, 1, 1, () => 0);
    const { unique, indexOf } = weldPositions(soup);
    expect(unique.length / 3).toBe(6);
    expect(indexOf.length).toBe(12);
    for (let corner = 0; corner < 12; corner++) {
      const u = indexOf[corner]!;
      expect([...unique.subarray(u * 3, u * 3 + 3)]).toEqual([
        ...soup.subarray(corner * 3, corner * 3 + 3),
      ]);
    }
  });
});

describe('deviation of the newer mesh from the older one', () => {
  it('measures 1 mm at every vertex of a plane shifted 1 mm along its normal', () => {
    const older = heightField(10, 10, 1, () => 0);
    const newer = heightField(10, 10, 1, () => 1);
    const { distances, max, measured } = computeDeviation(older, newer);
    expect(measured).toBe(121);
    expect(distances.length).toBe(newer.length / 3);
    for (const distance of distances) expect(distance).toBeCloseTo(1, 5);
    expect(max).toBeCloseTo(1, 5);
  });

  it('measures 0 for the same mesh and the true distance where it bulges', () => {
    const older = heightField(8, 8, 1, () => 0);
    // One vertex (4, 4) raised 0.5 mm: only it moves away from the older plane.
    const newer = heightField(8, 8, 1, (x, y) => (x === 4 && y === 4 ? 0.5 : 0));
    const { distances, max } = computeDeviation(older, newer);
    expect(max).toBeCloseTo(0.5, 5);
    for (let vertex = 0; vertex < distances.length; vertex++) {
      const raised = newer[vertex * 3] === 4 && newer[vertex * 3 + 1] === 4;
      expect(distances[vertex]).toBeCloseTo(raised ? 0.5 : 0, 5);
    }
  });

  it('reports progress from 0 to 1, never backwards', () => {
    const soup = heightField(120, 120, 0.5, (x, y) => Math.sin(x) * Math.cos(y));
    const seen: number[] = [];
    computeDeviation(soup, soup, (fraction) => seen.push(fraction));
    expect(seen.length).toBeGreaterThan(2);
    expect(seen.at(-1)).toBe(1);
    for (let i = 1; i < seen.length; i++) expect(seen[i]!).toBeGreaterThanOrEqual(seen[i - 1]!);
  });

  it('maps a 200,000-triangle jaw in under 2 s of processor time', () => {
    const { older, newer } = archPair();
    expect(newer.length / 9).toBeGreaterThanOrEqual(200_000);
    // Processor time, not wall time: the test tiers share two cores with other test files,
    // which would stretch the wall time of the same work (scripts/deviation-bench.ts measures
    // it alone).
    const started = process.cpuUsage();
    const { max, measured } = computeDeviation(older, newer);
    const used = process.cpuUsage(started);
    const ms = (used.user + used.system) / 1000;
    console.info(`deviation map: ${measured} vertices, ${ms.toFixed(0)} ms of processor time`);
    expect(max).toBeGreaterThan(0.59);
    expect(max).toBeLessThan(0.61);
    expect(ms).toBeLessThan(2000);
  });
});
