import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    // Vitest defaults to one worker less than the cores: a single worker on the 2-core CI
    // machine. Server files mostly wait on PostgreSQL, so a third worker still gains time.
    maxWorkers: 3,
    projects: [
      'packages/domain/vitest.config.ts',
      'apps/server/vitest.config.ts',
      'apps/web/vitest.config.ts',
    ],
  },
});
