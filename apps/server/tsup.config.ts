import { cpSync, rmSync } from 'node:fs';
import { defineConfig } from 'tsup';

/** One ESM bundle with @dentflow/domain inlined; migrations copied next to it (dist/migrations). */
export default defineConfig({
  entry: ['src/main.ts'],
  format: ['esm'],
  platform: 'node',
  target: 'node20',
  outDir: 'dist',
  clean: true,
  sourcemap: true,
  noExternal: [/^@dentflow\//],
  async onSuccess() {
    rmSync('dist/migrations', { recursive: true, force: true });
    cpSync('src/db/migrations', 'dist/migrations', { recursive: true });
  },
});
