import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    name: 'server',
    include: ['src/**/*.test.ts', 'test/**/*.test.ts'],
    environment: 'node',
    pool: 'forks',
    // Files share their worker's loaded server code (each still builds its own app on its own
    // database): the tier takes far less CPU than loading the server again per file.
    isolate: false,
    testTimeout: 30_000,
    hookTimeout: 60_000,
  },
});
