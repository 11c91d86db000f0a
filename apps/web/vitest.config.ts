import { defineConfig } from 'vitest/config';
import react from '@vitejs/plugin-react';

export default defineConfig({
  plugins: [react()],
  test: {
    name: 'web',
    environment: 'jsdom',
    include: ['src/**/*.test.{ts,tsx}'],
    setupFiles: ['./src/test/setup.ts'],
    css: false,
    // Files share their worker's jsdom and module graph instead of loading React, Mantine and the
    // catalogues again per file: the tier takes less than half the CPU. Each test cleans up after
    // itself (test/setup.ts: DOM, toasts, storage); no test mocks a module.
    isolate: false,
    // Three workers share two cores in CI: jsdom renders of whole pages can take seconds there.
    testTimeout: 20_000,
  },
});
