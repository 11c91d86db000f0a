import { afterEach, describe, expect, it, vi } from 'vitest';
import { createQueryClient } from '../../../lib/query-client';
import { mockFetch, ok } from '../../../test/fetch-mock';
import { caseDetail } from '../test-fixtures';
import { caseKeys, keepUnchangedCase, storeCase } from './case-cache';
import { caseQueryOptions } from './get-case';

describe('client cache rule: a case is replaced only when its modifiedAt differs', () => {
  afterEach(() => vi.unstubAllGlobals());

  it.each([
    ['same modifiedAt, other content', '2026-11-20T10:00:00.000Z', false],
    ['a newer modifiedAt', '2026-11-20T11:00:00.000Z', true],
    ['an older modifiedAt (still different)', '2026-11-19T09:00:00.000Z', true],
  ])('%s → replaced: %s', (_name, modifiedAt, replaced) => {
    const cached = caseDetail();
    const incoming = caseDetail({ modifiedAt, observation: 'changed' });
    expect(keepUnchangedCase(cached, incoming) === incoming).toBe(replaced);
  });

  it('takes the incoming case when nothing is cached', () => {
    const incoming = caseDetail();
    expect(keepUnchangedCase(undefined, incoming)).toBe(incoming);
  });

  it('keeps the cached object when a refetch answers the same modifiedAt', async () => {
    let observation = 'first';
    let modifiedAt = '2026-11-20T10:00:00.000Z';
    mockFetch(() => ok(caseDetail({ observation, modifiedAt })));
    const queryClient = createQueryClient();
    const first = await queryClient.fetchQuery(caseQueryOptions(42));
    observation = 'second (same modifiedAt)';
    await queryClient.refetchQueries({ queryKey: caseKeys.detail(42) });
    const afterSame = queryClient.getQueryData(caseKeys.detail(42));
    expect(afterSame).toBe(first);
    expect((afterSame as { observation: string }).observation).toBe('first');

    modifiedAt = '2026-11-20T12:00:00.000Z';
    await queryClient.refetchQueries({ queryKey: caseKeys.detail(42) });
    expect(queryClient.getQueryData(caseKeys.detail(42))).toMatchObject({
      observation: 'second (same modifiedAt)',
      modifiedAt,
    });
  });

  it('storeCase follows the same rule for a mutation answer', () => {
    mockFetch(() => ok({}));
    const queryClient = createQueryClient();
    const cached = caseDetail();
    queryClient.setQueryData(caseKeys.detail(42), cached);
    storeCase(queryClient, caseDetail({ observation: 'x' }));
    expect(queryClient.getQueryData(caseKeys.detail(42))).toBe(cached);
    storeCase(
      queryClient,
      caseDetail({ observation: 'y', modifiedAt: '2026-11-21T00:00:00.000Z' }),
    );
    expect(queryClient.getQueryData(caseKeys.detail(42))).toMatchObject({ observation: 'y' });
  });
});
