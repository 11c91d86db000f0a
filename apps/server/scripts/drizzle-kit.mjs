// npm installs drizzle-orm under apps/server/node_modules while drizzle-kit is hoisted to the root,
// where drizzle-kit's own `import('drizzle-orm/...')` cannot see it. This resolve hook points those
// imports at the server's copy, then runs drizzle-kit with the given arguments.
import { register } from 'node:module';
import { createRequire } from 'node:module';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';

const serverPackage = new URL('../package.json', import.meta.url).href;
register(
  'data:text/javascript,' +
    encodeURIComponent(`
      export async function resolve(specifier, context, next) {
        if (specifier === 'drizzle-orm' || specifier.startsWith('drizzle-orm/')) {
          return next(specifier, { ...context, parentURL: ${JSON.stringify(serverPackage)} });
        }
        return next(specifier, context);
      }`),
);
const require = createRequire(serverPackage);
const bin = (require.resolve.paths('drizzle-kit') ?? [])
  .map((dir) => join(dir, 'drizzle-kit', 'bin.cjs'))
  .find((file) => existsSync(file));
if (!bin) throw new Error('drizzle-kit is not installed');
// Its CommonJS requires of drizzle-orm need the same directions.
const serverModules = new URL('../node_modules', import.meta.url).pathname;
process.env.NODE_PATH = [serverModules, process.env.NODE_PATH].filter(Boolean).join(':');
require('node:module').Module._initPaths();
await import(pathToFileURL(bin).href);
