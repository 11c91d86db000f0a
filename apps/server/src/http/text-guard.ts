import { MESSAGE, isStorableText } from '@dentflow/domain';
import type { FastifyInstance } from 'fastify';
import { AppError, validationError } from './app-error';

/**
 * How deep a request's JSON may nest. The deepest request schema nests a handful of levels; a
 * body nested thousands deep would otherwise overflow the stack of whatever walks it (a 500).
 */
export const INPUT_DEPTH_MAX = 32;

/**
 * A parsed record: a JSON object, or a query string's dictionary (whose prototype is itself an
 * object without a prototype, so that keys like `constructor` are plain keys).
 */
const isPlainObject = (value: object): boolean => {
  const prototype = Object.getPrototypeOf(value) as object | null;
  return (
    prototype === Object.prototype ||
    prototype === null ||
    Object.getPrototypeOf(prototype) === null
  );
};

/**
 * The paths of every string in `root` that breaks the domain's storable-text rule, or 'too deep'
 * when `root` nests deeper than INPUT_DEPTH_MAX. Walks with its own stack, never recursion.
 */
function unstorablePaths(root: unknown, found: string[]): string[] | 'too deep' {
  const stack: { value: unknown; path: string; depth: number }[] = [
    { value: root, path: '', depth: 0 },
  ];
  while (stack.length > 0) {
    const { value, path, depth } = stack.pop()!;
    if (typeof value === 'string') {
      if (!isStorableText(value)) found.push(path);
      continue;
    }
    if (!value || typeof value !== 'object') continue;
    // Only parsed input (plain objects, arrays): a streamed body (an upload part) is bytes, and
    // walking a socket's object graph would call it too deep.
    if (!Array.isArray(value) && !isPlainObject(value)) continue;
    if (depth >= INPUT_DEPTH_MAX) return 'too deep';
    const entries = Array.isArray(value)
      ? value.map((item, index) => [String(index), item] as const)
      : Object.entries(value);
    // Pushed last first, so the paths come out in the input's order.
    for (const [key, item] of entries.reverse()) {
      stack.push({ value: item, path: path ? `${path}.${key}` : key, depth: depth + 1 });
    }
  }
  return found;
}

/**
 * Refuses, on every route and before its schema runs, input text the database cannot store, so
 * such input is a translated 400 on the field and never a failed query (a 500) or a partial write;
 * and input nested deeper than any request needs, as a bad request.
 */
export function registerTextGuard(app: FastifyInstance): void {
  app.addHook('preValidation', async (request) => {
    const paths: string[] = [];
    for (const part of [request.params, request.query, request.body]) {
      if (unstorablePaths(part, paths) === 'too deep') throw new AppError(400, 'BAD_REQUEST');
    }
    if (paths.length > 0) {
      throw validationError(
        Object.fromEntries(paths.map((path) => [path, MESSAGE.invalidCharacters])),
      );
    }
  });
}
