import { describe, expect, it } from 'vitest';
import {
  createPendingRequests,
  mergeById,
  shouldFetchProduct,
  shouldReplaceCase,
  shouldReplaceProduct,
} from './cache-rules';

const t1 = '2025-01-01T10:00:00.000Z';
const t2 = '2025-01-01T11:00:00.000Z';

describe('a case is replaced only when its modifiedAt differs', () => {
  it.each([
    [null, t1, true],
    [t1, t1, false],
    [t1, t2, true],
    [t2, t1, true], // differs, even if older: the server's copy wins
  ])('cached %s, incoming %s → %s', (cached, incoming, replace) =>
    expect(
      shouldReplaceCase(cached === null ? null : { modifiedAt: cached }, { modifiedAt: incoming }),
    ).toBe(replace),
  );
});

describe('a product is fetched only if not cached and replaced only if newer', () => {
  it.each([
    [undefined, true],
    [null, true],
    [{ id: 1 }, false],
  ])('cached %j → fetch %s', (cached, fetch) => expect(shouldFetchProduct(cached)).toBe(fetch));

  it.each([
    [null, t1, true],
    [t1, t2, true],
    [t2, t1, false],
    [t1, t1, false],
    [t1, null, false],
    [null, null, false],
  ])('cached %s, incoming %s → %s', (cached, incoming, replace) => {
    const cachedRecord =
      cached === null && incoming === null
        ? { modifiedAt: null }
        : cached === null
          ? null
          : { modifiedAt: cached };
    expect(shouldReplaceProduct(cachedRecord, { modifiedAt: incoming })).toBe(replace);
  });

  it('merges by id with a rule', () => {
    const cache = new Map([[1, { id: 1, modifiedAt: t2, v: 'cached' }]]);
    const merged = mergeById(
      cache,
      [
        { id: 1, modifiedAt: t1, v: 'old' },
        { id: 2, modifiedAt: t1, v: 'new' },
      ],
      shouldReplaceProduct,
    );
    expect(merged.get(1)?.v).toBe('cached');
    expect(merged.get(2)?.v).toBe('new');
    expect(cache.size).toBe(1);
  });
});

describe('repeat calls for the same product share one pending request', () => {
  it('shares, then forgets once settled', async () => {
    const pending = createPendingRequests<number, string>();
    let calls = 0;
    const release: (() => void)[] = [];
    const fetcher = () => {
      const n = ++calls;
      return new Promise<string>((resolve) => release.push(() => resolve(`p${n}`)));
    };
    const first = pending.run(1, fetcher);
    const second = pending.run(1, fetcher);
    expect(second).toBe(first);
    expect(pending.size).toBe(1);
    release.forEach((r) => r());
    expect(await Promise.all([first, second])).toEqual(['p1', 'p1']);
    expect(calls).toBe(1);
    expect(pending.size).toBe(0);
    const third = pending.run(1, fetcher);
    release[1]?.();
    expect(await third).toBe('p2');
  });

  it('a failure is shared and then forgotten', async () => {
    const pending = createPendingRequests<number, string>();
    await expect(pending.run(1, () => Promise.reject(new Error('down')))).rejects.toThrow('down');
    expect(pending.size).toBe(0);
  });
});
