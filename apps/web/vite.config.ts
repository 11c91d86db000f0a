import { defineConfig } from 'vite';
import react from '@vitejs/plugin-react';

// The dev server proxies the API to the Fastify server (`npm run dev -w @dentflow/server`).
export default defineConfig({
  plugins: [react()],
  server: {
    port: 5173,
    proxy: { '/api': { target: 'http://localhost:3000', changeOrigin: true } },
  },
  preview: {
    proxy: { '/api': { target: 'http://localhost:3000', changeOrigin: true } },
  },
  build: {
    outDir: 'dist',
    emptyOutDir: true,
    sourcemap: false,
    rollupOptions: {
      // @dentflow/domain is pure (DESIGN §1: no I/O, only functions, schemas and constants), so a
      // module of it that a chunk does not use can be dropped even though it builds zod schemas
      // at load time. This keeps zod out of the login route (DESIGN §11 budget).
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
