/**
 * Client cache: a case is replaced only when its modifiedAt differs; a product is fetched
 * only if not cached and replaces the cached copy only if newer; repeated fetches of one product
 * share one pending request.
 */

const time = (iso: string | null | undefined) => {
  const ms = iso ? Date.parse(iso) : NaN;
  return Number.isNaN(ms) ? null : ms;
};

export function shouldReplaceCase(
  cached: { modifiedAt: string | null } | null | undefined,
  incoming: { modifiedAt: string | null },
): boolean {
  return !cached || cached.modifiedAt !== incoming.modifiedAt;
}

export const shouldFetchProduct = (cached: unknown) => cached === null || cached === undefined;

export function shouldReplaceProduct(
  cached: { modifiedAt: string | null } | null | undefined,
  incoming: { modifiedAt: string | null },
): boolean {
  if (!cached) return true;
  const before = time(cached.modifiedAt);
  const after = time(incoming.modifiedAt);
  if (after === null) return false;
  return before === null || after > before;
}

/** Merges an incoming record into a cache keyed by id, following a replacement rule. */
export function mergeById<T extends { id: number }>(
  cache: ReadonlyMap<number, T>,
  incoming: readonly T[],
  shouldReplace: (cached: T | undefined, next: T) => boolean,
): Map<number, T> {
  const next = new Map(cache);
  for (const record of incoming) {
    if (shouldReplace(next.get(record.id), record)) next.set(record.id, record);
  }
  return next;
}

/** Shares one pending request per key: repeat calls while it runs get the same promise. */
export function createPendingRequests<K, V>() {
  const pending = new Map<K, Promise<V>>();
  return {
    run(key: K, request: () => Promise<V>): Promise<V> {
      const running = pending.get(key);
      if (running) return running;
      const promise = request().finally(() => pending.delete(key));
      pending.set(key, promise);
      return promise;
    },
    get size() {
      return pending.size;
    },
  };
}
