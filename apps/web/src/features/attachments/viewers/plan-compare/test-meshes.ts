/**
 * Generated meshes for the deviation map's test and benchmark: triangle soups (three vertices per
 * triangle, as the STL loader gives them).
 */

/** A height field z = height(x, y) over a `columns`×`rows` grid of `step` mm. */
export function heightField(
  columns: number,
  rows: number,
  step: number,
  height: (x: number, y: number) => number,
): Float32Array {
  const soup = new Float32Array(columns * rows * 2 * 9);
  let offset = 0;
  const put = (i: number, j: number) => {
    const x = i * step;
    const y = j * step;
    soup[offset++] = x;
    soup[offset++] = y;
    soup[offset++] = height(x, y);
  };
  for (let j = 0; j < rows; j++) {
    for (let i = 0; i < columns; i++) {
      put(i, j);
      put(i + 1, j);
      put(i + 1, j + 1);
      put(i, j);
      put(i + 1, j + 1);
      put(i, j + 1);
    }
  }
  return soup;
}

/**
 * A full arch's worth of mesh: a 63 × 63 mm field of cusps (317 × 316 quads, 200,344
 * triangles, about 100,000 distinct vertices), and a revision of it changed by up to 0.6 mm.
 */
export function archPair(): { older: Float32Array; newer: Float32Array } {
  const cusps = (x: number, y: number) => 3 * Math.sin(x / 4) * Math.cos(y / 5);
  return {
    older: heightField(317, 316, 0.2, cusps),
    newer: heightField(317, 316, 0.2, (x, y) => cusps(x, y) + 0.6 * Math.sin(x / 9) ** 2),
  };
}
