import { describe, expect, it } from 'vitest';
import {
  approvableVersions,
  chainsAwaitingNewVersion,
  isSupersededVersion,
  nextVersionOf,
  planVersionChains,
  replaceRejection,
  type VersionedFile,
} from './plan-versions';

const file = (patch: Partial<VersionedFile> & { id: number }): VersionedFile => ({
  caseId: 1,
  bucketName: 'planning',
  status: 'publish',
  version: 1,
  chainId: patch.id,
  previousVersionId: null,
  publishedAt: '2026-01-01T00:00:00.000Z',
  supersededAt: null,
  deletedAt: null,
  ...patch,
});

const SUPERSEDED = '2026-01-02T00:00:00.000Z';
const v1 = file({ id: 10, status: 'request_change', supersededAt: SUPERSEDED });
const v2 = file({ id: 11, chainId: 10, version: 2, previousVersionId: 10, status: 'approved' });
const draft = file({
  id: 12,
  chainId: 10,
  version: 3,
  previousVersionId: 11,
  status: 'private',
  publishedAt: null,
});
const other = file({ id: 20, status: 'private', publishedAt: null });
const exam = file({ id: 30, bucketName: 'exams', status: 'public' });

describe('planVersionChains', () => {
  it.each([
    [
      'one published file',
      [file({ id: 1 })],
      [{ chainId: 1, current: 1, draft: null, history: [] }],
    ],
    [
      'a superseded v1 and its v2',
      [v2, v1],
      [{ chainId: 10, current: 11, draft: null, history: [10] }],
    ],
    [
      'a draft after the current version',
      [v1, v2, draft],
      [{ chainId: 10, current: 11, draft: 12, history: [10] }],
    ],
    [
      'an unpublished v1 is a draft',
      [other],
      [{ chainId: 20, current: null, draft: 20, history: [] }],
    ],
    ['inputs and deleted files are not chains', [exam, file({ id: 5, deletedAt: SUPERSEDED })], []],
    [
      'chains by their first version',
      [other, v1, v2],
      [
        { chainId: 10, current: 11, draft: null, history: [10] },
        { chainId: 20, current: null, draft: 20, history: [] },
      ],
    ],
  ])('%s', (_name, files, expected) => {
    expect(
      planVersionChains(files).map((chain) => ({
        chainId: chain.chainId,
        current: chain.current?.id ?? null,
        draft: chain.draft?.id ?? null,
        history: chain.history.map((v) => v.id),
      })),
    ).toEqual(expected);
  });
});

describe('replaceRejection', () => {
  const current = file({ id: 40, status: 'request_change' });
  it.each([
    ['the current version in request_change', current, [current], null],
    ['a published current version', file({ id: 41 }), [], null],
    ['missing', undefined, [], 'notFound'],
    ['still uploading', file({ id: 42, status: 'uploading' }), [], 'notFound'],
    ['deleted', file({ id: 43, deletedAt: SUPERSEDED }), [], 'notFound'],
    ['another case', file({ id: 44, caseId: 2 }), [], 'otherCase'],
    ['an input file', file({ id: 45, bucketName: 'exams' }), [], 'notPlanning'],
    ['never published', file({ id: 46, status: 'private', publishedAt: null }), [], 'notPublished'],
    ['superseded', v1, [v1, v2], 'superseded'],
    [
      'a next version already waiting',
      current,
      [current, file({ id: 47, chainId: 40, previousVersionId: 40, status: 'private' })],
      'nextVersionPending',
    ],
  ] as const)('%s', (_name, target, chain, expected) => {
    expect(replaceRejection(target, 1, chain)).toBe(expected);
  });
});

describe('version helpers', () => {
  it('numbers the next version in the same chain', () => {
    expect(nextVersionOf(v2)).toEqual({ previousVersionId: 11, chainId: 10, version: 3 });
    expect(nextVersionOf(null)).toEqual({ previousVersionId: null, chainId: null, version: 1 });
  });

  it.each([
    [{ supersededAt: SUPERSEDED }, true],
    [{ supersededAt: null }, false],
    [{}, false],
  ])('isSupersededVersion(%o) = %s', (input, expected) => {
    expect(isSupersededVersion(input)).toBe(expected);
  });

  it('offers the chains whose current version awaits a change', () => {
    const waiting = file({ id: 50, status: 'request_change' });
    const answered = file({ id: 60, status: 'request_change' });
    const answer = file({
      id: 61,
      chainId: 60,
      version: 2,
      previousVersionId: 60,
      status: 'private',
      publishedAt: null,
    });
    expect(
      chainsAwaitingNewVersion([waiting, answered, answer, file({ id: 70 })]).map((c) => c.chainId),
    ).toEqual([50]);
  });

  it('approves the current published or approved versions only', () => {
    expect(
      approvableVersions([
        v1,
        v2,
        draft,
        file({ id: 80 }),
        file({ id: 90, status: 'request_change' }),
      ]).map((f) => f.id),
    ).toEqual([11, 80]);
  });
});
