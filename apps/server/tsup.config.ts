import { cpSync, rmSync } from 'node:fs';
import { defineConfig } from 'tsup';

/**
 * The server as one ESM bundle with @dentflow/domain inlined, migrations copied next to it
 * (dist/migrations); and the payment providers' local sandbox (browser journeys, local trials).
 */
export default defineConfig({
  entry: { main: 'src/main.ts', 'payment-sandbox': 'src/adapters/payments/sandbox/main.ts' },
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
