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

/** React.lazy for a module's named export, with the chunk time-out. */
export function lazyRoute<M, K extends keyof M>(
  load: () => Promise<M>,
  name: K,
): LazyExoticComponent<M[K] extends ComponentType<infer P> ? ComponentType<P> : never> {
  return lazy(() => withChunkTimeout(load).then((module) => ({ default: module[name] as never })));
}
