import { describe, expect, it } from 'vitest';
import {
  canCompare,
  comparablePlans,
  defaultCompareWith,
  jawScans,
  orderPair,
  type CompareCandidate,
} from './compare-pair';

const plan = (id: number, extra: Partial<CompareCandidate> = {}): CompareCandidate => ({
  id,
  bucketName: 'planning',
  attachmentType: 'generic',
  filename: `plan-${id}.stl`,
  status: 'publish',
  deletedAt: null,
  ...extra,
});
const scan = (id: number, attachmentType: string, filename = `scan-${id}.stl`) => ({
  ...plan(id),
  bucketName: 'exams',
  attachmentType,
  filename,
  status: 'public',
});

describe('which planning files the compare viewer offers', () => {
  it('keeps STL planning files only, older first, skipping deleted and uploading ones', () => {
    const files = [
      plan(5),
      plan(2),
      plan(3, { filename: 'report.pdf' }),
      plan(4, { deletedAt: '2026-01-01T00:00:00Z' }),
      plan(6, { status: 'uploading' }),
      scan(1, 'upperJawStl'),
    ];
    expect(comparablePlans(files).map((file) => file.id)).toEqual([2, 5]);
    expect(canCompare(files, 5)).toBe(true);
    expect(canCompare(files, 1)).toBe(false);
    expect(canCompare([plan(2), scan(1, 'upperJawStl')], 2)).toBe(false);
  });

  it('orders by version before upload order', () => {
    const files = [plan(9, { version: 1 }), plan(3, { version: 2 })];
    expect(comparablePlans(files).map((file) => file.id)).toEqual([9, 3]);
    const { older, newer } = orderPair(files[1]!, files[0]!);
    expect([older.id, newer.id]).toEqual([9, 3]);
  });
});

describe('the pair the compare viewer opens with', () => {
  it.each([
    ['the previous version', [plan(1), plan(2), plan(3, { previousVersionId: 1 })], 3, 1],
    ['the version that answers it', [plan(1), plan(2, { previousVersionId: 1 }), plan(3)], 1, 2],
    ['the latest file before it without versions', [plan(1), plan(2), plan(3)], 3, 2],
    ['the next file when it is the first', [plan(4), plan(7), plan(9)], 4, 7],
    ['nothing for a file that is not a planning STL', [plan(1), scan(2, 'upperJawStl')], 2, null],
    [
      'the latest usable file before it when its previous version is deleted',
      [plan(1, { deletedAt: 'x' }), plan(2), plan(3, { previousVersionId: 1 })],
      3,
      2,
    ],
  ])('%s', (_, files, opened, expected) => {
    expect(defaultCompareWith(files, opened)).toBe(expected);
  });
});

describe('the scans under the plan', () => {
  it('are the latest upper- and lower-jaw STL scans', () => {
    const files = [
      scan(1, 'upperJawStl'),
      scan(2, 'upperJawStl'),
      scan(3, 'lowerJawStl'),
      scan(4, 'lowerJawStl', 'lower.zip'),
      scan(5, 'object'),
      plan(6),
    ];
    expect(jawScans(files).map((file) => file.id)).toEqual([2, 3]);
  });
});
