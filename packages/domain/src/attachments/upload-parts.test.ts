import { describe, expect, it } from 'vitest';
import {
  DEFAULT_UPLOAD_PART_BYTES,
  isResumableBucket,
  MAX_UPLOAD_PARTS,
  partUrlPool,
  planUploadParts,
  remainingUploadParts,
  uploadPartRange,
} from './upload-parts';

const MB = 1024 * 1024;
const GB = 1024 * MB;

describe('planUploadParts', () => {
  it.each([
    // file size, preferred part size → part size, part count
    [0, 16 * MB, 16 * MB, 1],
    [1, 16 * MB, 16 * MB, 1],
    [16 * MB, 16 * MB, 16 * MB, 1],
    [16 * MB + 1, 16 * MB, 16 * MB, 2],
    [GB, DEFAULT_UPLOAD_PART_BYTES, 16 * MB, 64],
    [GB + 1, 16 * MB, 16 * MB, 65],
    [300 * MB, 5 * MB, 5 * MB, 60],
    [1000, 256, 256, 4],
    // More than MAX_UPLOAD_PARTS parts: the part size grows to fit.
    [MAX_UPLOAD_PARTS * 10 + 1, 10, 11, 9091],
    [200 * GB, 16 * MB, 21_474_837, MAX_UPLOAD_PARTS],
    [MAX_UPLOAD_PARTS * 10, 10, 10, MAX_UPLOAD_PARTS],
  ])('%i bytes in parts of %i → %i × %i', (fileSize, preferred, partSize, partCount) => {
    expect(planUploadParts(fileSize, preferred)).toEqual({ partSize, partCount });
  });

  it.each([
    [-1, 10],
    [1.5, 10],
    [10, 0],
    [10, -5],
    [10, Number.NaN],
  ])('refuses file size %d with part size %d', (fileSize, partSize) => {
    expect(() => planUploadParts(fileSize, partSize)).toThrow(RangeError);
  });
});

describe('uploadPartRange', () => {
  const fileSize = 1000;
  const plan = planUploadParts(fileSize, 256);
  it.each([
    [1, { start: 0, end: 256, size: 256 }],
    [2, { start: 256, end: 512, size: 256 }],
    [4, { start: 768, end: 1000, size: 232 }],
    [0, null],
    [5, null],
    [-1, null],
    [1.5, null],
    [Number.NaN, null],
  ])('part %d → %j', (part, range) => {
    expect(uploadPartRange(plan, fileSize, part)).toEqual(range);
  });

  it('the parts cover the file exactly once', () => {
    const sizes = [1, 255, 256, 257, 5 * 256, 5 * 256 + 3];
    for (const size of sizes) {
      const parts = planUploadParts(size, 256);
      let next = 0;
      for (let part = 1; part <= parts.partCount; part++) {
        const range = uploadPartRange(parts, size, part)!;
        expect(range.start).toBe(next);
        expect(range.size).toBeGreaterThan(0);
        next = range.end;
      }
      expect(next).toBe(size);
    }
  });
});

describe('remainingUploadParts (resume)', () => {
  const plan = { partSize: 10, partCount: 5 };
  it.each([
    [[], [1, 2, 3, 4, 5]],
    [
      [1, 2],
      [3, 4, 5],
    ],
    [
      [5, 3, 1],
      [2, 4],
    ],
    [[1, 2, 3, 4, 5], []],
    // Numbers outside the plan (a stale record) do not count.
    [
      [0, 6, 99, 2],
      [1, 3, 4, 5],
    ],
    [
      [2, 2, 2],
      [1, 3, 4, 5],
    ],
  ])('sent %j → %j', (sent, remaining) => {
    expect(remainingUploadParts(plan, sent)).toEqual(remaining);
  });
});

describe('isResumableBucket', () => {
  it.each([
    ['exams', true],
    ['planning', true],
    ['photoProtocol', false],
    ['avatar', false],
    ['productThumbnail', false],
  ] as const)('%s → %s', (bucket, resumable) => {
    expect(isResumableBucket(bucket)).toBe(resumable);
  });
});

describe('partUrlPool', () => {
  /** A pool over a server that answers every part's URL, recording each call's parts. */
  function poolWithCalls(fail?: (parts: number[]) => boolean) {
    const calls: number[][] = [];
    const pool = partUrlPool(async (parts) => {
      calls.push(parts);
      if (fail?.(parts)) throw new Error('offline');
      return parts.map((partNumber) => ({ partNumber, url: `/part/${partNumber}` }));
    });
    return { pool, calls };
  }

  /** Takes the URLs of `count` parts in turn, as the workers sharing one queue do. */
  async function takeInTurn(pool: ReturnType<typeof partUrlPool>, count: number) {
    const queue = Array.from({ length: count }, (_, index) => index + 1);
    const urls: string[] = [];
    for (let part = queue.shift(); part !== undefined; part = queue.shift()) {
      urls.push(await pool.take(part, queue));
    }
    return urls;
  }

  it.each([
    // parts → the calls made, each call's part numbers
    [1, [[1]]],
    [3, [[1, 2, 3]]],
    [4, [[1, 2, 3], [4]]],
    [
      8,
      [
        [1, 2, 3],
        [4, 5, 6],
        [7, 8],
      ],
    ],
    [
      64,
      Array.from({ length: 22 }, (_, call) =>
        [1, 2, 3].map((n) => call * 3 + n).filter((n) => n <= 64),
      ),
    ],
  ])('%i parts: the URLs of the next three parts in one call', async (count, expected) => {
    const { pool, calls } = poolWithCalls();
    const urls = await takeInTurn(pool, count);
    expect(urls).toEqual(Array.from({ length: count }, (_, index) => `/part/${index + 1}`));
    expect(calls).toEqual(expected);
  });

  it('asks ahead when a part starts, before the next part needs its URL', () => {
    const { pool, calls } = poolWithCalls();
    void pool.take(1, [2, 3, 4, 5]);
    void pool.take(2, [3, 4, 5]);
    expect(calls).toEqual([[1, 2, 3]]);
    void pool.take(3, [4, 5]);
    // Part 4's URL is on its way while parts 1–3 are still sending.
    expect(calls).toEqual([
      [1, 2, 3],
      [4, 5],
    ]);
  });

  it('a failed call fails its takers; a part tried again asks for its own fresh URL', async () => {
    // The network is down for the call that asks ahead for parts 4 to 6.
    const { pool, calls } = poolWithCalls((parts) => parts.length > 1 && parts.includes(4));
    expect(await takeInTurn(pool, 3)).toEqual(['/part/1', '/part/2', '/part/3']);
    await expect(pool.take(4, [5, 6])).rejects.toThrow('offline');
    await expect(pool.take(5, [6])).rejects.toThrow('offline');
    await expect(pool.fresh(4)).resolves.toBe('/part/4');
    expect(calls).toEqual([[1, 2, 3], [4, 5, 6], [4]]);
  });

  it('refuses an answer without the part asked for', async () => {
    const pool = partUrlPool(async () => [{ partNumber: 9, url: '/part/9' }]);
    await expect(pool.take(1, [])).rejects.toThrow('no URL for part 1');
  });
});
