import { lazy, type ComponentType, type LazyExoticComponent } from 'react';
import { CHUNK_LOAD_TIMEOUT_MS } from '@dentflow/domain';

/** A script chunk that does not load within 120 s raises a chunk-load error. */

export class ChunkLoadError extends Error {
  constructor() {
    super('Loading a part of the application timed out');
    this.name = 'ChunkLoadError';
  }
}

export function withChunkTimeout<T>(
  load: () => Promise<T>,
  timeoutMs = CHUNK_LOAD_TIMEOUT_MS,
): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    const timer = setTimeout(() => reject(new ChunkLoadError()), timeoutMs);
    load().then(
      (value) => {
        clearTimeout(timer);
        resolve(value);
      },
      (error: unknown) => {
        clearTimeout(timer);
        reject(error instanceof Error ? error : new ChunkLoadError());
      },
    );
  });
}

type ExportedComponent<M, K extends keyof M> =
  M[K] extends ComponentType<infer P> ? ComponentType<P> : never;

export type LazyRoute<M, K extends keyof M> = LazyExoticComponent<ExportedComponent<M, K>> & {
  /** Starts loading the chunk now (once); resolves with the component. */
  preload: () => Promise<ExportedComponent<M, K>>;
};

/** A thenable that hands its value to `then` synchronously (React.lazy accepts any thenable). */
function settledNow<T>(value: T): Promise<T> {
  const thenable = { then: (onFulfilled: (value: T) => unknown) => onFulfilled(value) };
  return thenable as unknown as Promise<T>;
}

/**
 * React.lazy for a module's named export, with the chunk time-out and a `preload` that starts the
 * download before the route renders. A component whose chunk has already arrived renders at once:
 * React.lazy suspends on its first render even then (its promise settles a microtask later), and a
 * Suspense fallback shown holds the content back (React waits 300 ms after a fallback), so the
 * loaded module is handed over through a thenable that settles synchronously.
 */
export function lazyRoute<M, K extends keyof M>(load: () => Promise<M>, name: K): LazyRoute<M, K> {
  type C = ExportedComponent<M, K>;
  let loaded: C | undefined;
  let pending: Promise<C> | undefined;
  const preload = (): Promise<C> => {
    pending ??= withChunkTimeout(load).then(
      (module) => (loaded = module[name] as C),
      (error: unknown) => {
        // A failed download may be tried again by the next preload or render.
        pending = undefined;
        throw error;
      },
    );
    return pending;
  };
  const component = lazy(() =>
    loaded ? settledNow({ default: loaded }) : preload().then((value) => ({ default: value })),
  );
  return Object.assign(component, { preload });
}
