import { cpSync, createReadStream } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { defineConfig, type Plugin } from 'vite';
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
        // Positioning code for menus and popovers is only needed after login; a group of its own
        // keeps it from being merged into a chunk that the login page loads.
        codeSplitting: {
          includeDependenciesRecursively: false,
          groups: [{ name: 'floating-ui', test: /node_modules[\\/]@floating-ui[\\/]/ }],
        },
      },
      treeshake: {
        moduleSideEffects: (id: string) => !/[\\/]packages[\\/]domain[\\/]src[\\/]/.test(id),
      },
    },
  },
});
