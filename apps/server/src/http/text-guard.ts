import { MESSAGE, isStorableText } from '@dentflow/domain';
import type { FastifyInstance } from 'fastify';
import { validationError } from './app-error';

/** The paths of every string in `value` that breaks the domain's storable-text rule. */
function unstorablePaths(value: unknown, path: string, found: string[]): string[] {
  if (typeof value === 'string') {
    if (!isStorableText(value)) found.push(path);
  } else if (Array.isArray(value)) {
    value.forEach((item, index) =>
      unstorablePaths(item, path ? `${path}.${index}` : String(index), found),
    );
  } else if (value && typeof value === 'object') {
    for (const [key, item] of Object.entries(value)) {
      unstorablePaths(item, path ? `${path}.${key}` : key, found);
    }
  }
  return found;
}

/**
 * Refuses, on every route and before its schema runs, input text the database cannot store, so
 * such input is a translated 400 on the field and never a failed query (a 500) or a partial write.
 */
export function registerTextGuard(app: FastifyInstance): void {
  app.addHook('preValidation', async (request) => {
    const paths = [
      ...unstorablePaths(request.params, '', []),
      ...unstorablePaths(request.query, '', []),
      ...unstorablePaths(request.body, '', []),
    ];
    if (paths.length > 0) {
      throw validationError(
        Object.fromEntries(paths.map((path) => [path, MESSAGE.invalidCharacters])),
      );
    }
  });
}
