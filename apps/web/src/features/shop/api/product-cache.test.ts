import { describe, expect, it, vi } from 'vitest';
import type { ShopProduct } from '@dentflow/domain';
import { createProductCache } from './product-cache';
import { shopProduct } from '../test-fixtures';

const deferred = <T>() => {
  let resolve!: (value: T) => void;
  const promise = new Promise<T>((r) => (resolve = r));
  return { promise, resolve };
};

describe('product cache', () => {
  it('does not fetch a product the cache already holds', async () => {
    const fetchProduct = vi.fn<(id: number) => Promise<ShopProduct>>();
    const cache = createProductCache(fetchProduct);
    cache.seed([shopProduct({ id: 5, name: 'From the list' })]);
    expect((await cache.get(5)).name).toBe('From the list');
    expect(fetchProduct).not.toHaveBeenCalled();
  });

  it('fetches a missing product once for concurrent requests, then serves it from the cache', async () => {
    const answer = deferred<ShopProduct>();
    const fetchProduct = vi.fn((_id: number) => answer.promise);
    const cache = createProductCache(fetchProduct);
    const first = cache.get(9);
    const second = cache.get(9);
    expect(fetchProduct).toHaveBeenCalledTimes(1);
    answer.resolve(shopProduct({ id: 9, name: 'Fetched' }));
    expect((await first).name).toBe('Fetched');
    expect((await second).name).toBe('Fetched');
    expect((await cache.get(9)).name).toBe('Fetched');
    expect(fetchProduct).toHaveBeenCalledTimes(1);
  });

  it('a failed fetch is not cached: the next request tries again', async () => {
    const fetchProduct = vi
      .fn<(id: number) => Promise<ShopProduct>>()
      .mockRejectedValueOnce(new Error('offline'))
      .mockResolvedValueOnce(shopProduct({ id: 3 }));
    const cache = createProductCache(fetchProduct);
    await expect(cache.get(3)).rejects.toThrow('offline');
    expect((await cache.get(3)).id).toBe(3);
    expect(fetchProduct).toHaveBeenCalledTimes(2);
  });

  it('replaces the cached copy only with a newer one', () => {
    const cache = createProductCache(vi.fn());
    cache.seed([shopProduct({ id: 1, name: 'v2', modifiedAt: '2026-02-01T00:00:00.000Z' })]);
    cache.seed([shopProduct({ id: 1, name: 'v1', modifiedAt: '2026-01-01T00:00:00.000Z' })]);
    expect(cache.peek(1)?.name).toBe('v2');
    cache.seed([shopProduct({ id: 1, name: 'same', modifiedAt: '2026-02-01T00:00:00.000Z' })]);
    expect(cache.peek(1)?.name).toBe('v2');
    cache.seed([shopProduct({ id: 1, name: 'v3', modifiedAt: '2026-03-01T00:00:00.000Z' })]);
    expect(cache.peek(1)?.name).toBe('v3');
  });
});
