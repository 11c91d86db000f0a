import { describe, expect, it } from 'vitest';
import {
  DEFAULT_UPLOAD_PART_BYTES,
  isResumableBucket,
  MAX_UPLOAD_PARTS,
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
