import { defineConfig, devices } from '@playwright/test';
import { CHROMIUM_LAUNCH } from './e2e/support/chromium';
import { E2E_BASE_URL, E2E_PORT } from './e2e/support/environment';

// Each shard of `scripts/e2e.sh` runs its own server and database and writes its own results.
const RUN = process.env.E2E_RUN ?? 'playwright';
const BROWSER = { ...devices['Desktop Chrome'], locale: 'en-US' };
/** Specs that time the browser against a budget (first-card.spec.ts). */
const QUIET_SPECS = /first-card\.spec\.ts$/;

export default defineConfig({
  testDir: './e2e',
  outputDir: `../../test-results/${RUN}`,
  fullyParallel: false,
  workers: 1,
  retries: process.env.CI ? 1 : 0,
  timeout: 60_000,
  expect: { timeout: 10_000 },
  reporter: [['list'], ['json', { outputFile: `../../test-results/${RUN}.json` }]],
  use: {
    baseURL: E2E_BASE_URL,
    trace: 'retain-on-failure',
    screenshot: 'only-on-failure',
    launchOptions: CHROMIUM_LAUNCH,
  },
  projects: [
    { name: 'chromium', use: BROWSER, testIgnore: QUIET_SPECS },
    // Wall-clock budgets: run alone after the shards (scripts/e2e.sh), not beside another shard.
    { name: 'quiet', use: BROWSER, testMatch: QUIET_SPECS },
  ],
  webServer: {
    command: 'node ../../scripts/e2e-server.mjs',
    url: `${E2E_BASE_URL}/api/health`,
    reuseExistingServer: !process.env.CI,
    timeout: 120_000,
    env: { E2E_PORT: String(E2E_PORT) },
    stdout: 'pipe',
    stderr: 'pipe',
  },
});
