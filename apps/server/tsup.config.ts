import { cpSync, rmSync } from 'node:fs';
import { defineConfig } from 'tsup';

/**
 * The server as one ESM bundle with @dentflow/domain inlined, migrations copied next to it
 * (dist/migrations). The payment providers' local sandboxes are a separate workspace
 * (tools/payment-sandbox) and never part of this bundle.
 */
export default defineConfig({
  entry: { main: 'src/main.ts' },
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
