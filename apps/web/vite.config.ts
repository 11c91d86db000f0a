import { cpSync, createReadStream } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { defineConfig, type Plugin, type Rolldown } from 'vite';
import react from '@vitejs/plugin-react';

/**
 * dwv (the DICOM viewer) starts its image decoders as workers from `assets/workers/*.min.js`
 * relative to the page's base URL (index.html sets `<base href="/">`), and Vite does not see
 * them: serve them in dev and copy them into the build.
 */
function dwvWorkers(): Plugin {
  const workersDir = join(dirname(createRequire(import.meta.url).resolve('dwv')), 'assets/workers');
  return {
    name: 'dwv-workers',
    configureServer(server) {
      server.middlewares.use('/assets/workers', (request, response, next) => {
        const name = (request.url ?? '').replace(/^\//, '').split('?')[0] ?? '';
        if (!/^[\w.-]+\.worker\.min\.js$/.test(name)) return next();
        response.setHeader('Content-Type', 'text/javascript');
        createReadStream(join(workersDir, name))
          .on('error', () => next())
          .pipe(response);
      });
    },
    writeBundle(options) {
      cpSync(workersDir, join(options.dir ?? 'dist', 'assets/workers'), { recursive: true });
    },
  };
}

/**
 * Fewer, larger chunks. Left to itself the bundler gives every set of lazy modules that shares a
 * module a chunk of its own: a returning user's first case list fetched 108 files, many under
 * 1 KB. Each file is a request and a module for the browser to fetch, compile and link, which
 * costs more than its bytes (on this project's test machine, 100 one-line modules took 1.7 s to
 * load with the CPU slowed four times, one took 0.3 s; docs/performance.md, "Browser"). So:
 * - `app`: what the entry imports statically joins the entry chunk: every page loads it anyway;
 * - `floating-ui`: positioning code for menus and popovers, only needed after login, in a chunk
 *   of its own so that it is not merged into one that the login page loads;
 * - `icons`: the icons the lazy pages use, each a few hundred bytes, in one chunk.
 */
const CHUNK_GROUPS: Rolldown.CodeSplittingGroup[] = [
  { name: 'app', tags: ['$initial'], priority: 3 },
  { name: 'floating-ui', test: /node_modules[\\/]@floating-ui[\\/]/, priority: 2 },
  { name: 'icons', test: /node_modules[\\/]@tabler[\\/]icons-react[\\/]/, priority: 1 },
];

// The dev server proxies the API to the Fastify server (`npm run dev -w @dentflow/server`).
export default defineConfig({
  plugins: [react(), dwvWorkers()],
  server: {
    port: 5173,
    proxy: { '/api': { target: 'http://localhost:3000', changeOrigin: true, ws: true } },
  },
  preview: {
    proxy: { '/api': { target: 'http://localhost:3000', changeOrigin: true, ws: true } },
  },
  build: {
    outDir: 'dist',
    emptyOutDir: true,
    sourcemap: false,
    // dist/.vite/manifest.json: the chunk graph scripts/route-budget.mjs checks the routes' budgets on.
    manifest: true,
    rollupOptions: {
      // @dentflow/domain is pure (no I/O, only functions, schemas and constants), so a
      // module of it that a chunk does not use can be dropped even though it builds zod schemas
      // at load time. This keeps zod out of the login route.
      output: {
        codeSplitting: {
          includeDependenciesRecursively: false,
          groups: CHUNK_GROUPS,
        },
      },
      treeshake: {
        moduleSideEffects: (id: string) => !/[\\/]packages[\\/]domain[\\/]src[\\/]/.test(id),
      },
    },
  },
});
