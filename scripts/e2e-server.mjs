// Starts the built server for the Playwright journeys on a fresh PostgreSQL database and a fresh
// data folder (its outbox is where the journeys read verification and reset mail).
import { spawn } from 'node:child_process';
import { rmSync, mkdirSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import pg from 'pg';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const port = process.env.E2E_PORT ?? '3100';
const adminUrl = process.env.TEST_PG_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
// Several checkouts of the project can run their journeys at once on one machine when each sets
// its own E2E_PORT, E2E_DATABASE and sandbox ports.
const database = process.env.E2E_DATABASE ?? 'dentflow_e2e';
// The journeys read this folder's outbox (apps/web/e2e/support/environment.ts names it the same).
const dataDir = path.join(root, '.data-test', database);

rmSync(dataDir, { recursive: true, force: true });
mkdirSync(dataDir, { recursive: true });

const admin = new pg.Client({ connectionString: adminUrl });
await admin.connect();
await admin.query(`DROP DATABASE IF EXISTS ${database} WITH (FORCE)`);
await admin.query(`CREATE DATABASE ${database}`);
await admin.end();

const url = new URL(adminUrl);
url.pathname = `/${database}`;

// PayPal and PagBank are the local sandboxes (no test reaches the internet).
const sandboxPorts = {
  paypal: process.env.E2E_PAYPAL_PORT ?? '3201',
  pagbank: process.env.E2E_PAGBANK_PORT ?? '3202',
};
const providers = {
  PAYPAL_CLIENT_ID: 'sandbox-client',
  PAYPAL_CLIENT_SECRET: 'sandbox-secret',
  PAYPAL_WEBHOOK_ID: 'WH-SANDBOX',
  PAGBANK_TOKEN: 'sandbox-token',
};
// The sandboxes are a private workspace, run from source through tsx (never in the server's dist).
const sandboxMain = path.join(root, 'tools/payment-sandbox/src/main.ts');
const sandbox = spawn(process.execPath, ['--import', import.meta.resolve('tsx'), sandboxMain], {
  stdio: 'inherit',
  env: {
    ...process.env,
    ...providers,
    PAYPAL_SANDBOX_PORT: sandboxPorts.paypal,
    PAGBANK_SANDBOX_PORT: sandboxPorts.pagbank,
  },
});

const server = spawn(process.execPath, [path.join(root, 'apps/server/dist/main.js')], {
  stdio: 'inherit',
  env: {
    ...process.env,
    PORT: port,
    PUBLIC_URL: `http://127.0.0.1:${port}`,
    DATA_DIR: dataDir,
    DATABASE_URL: url.toString(),
    SEED_DEMO: 'true',
    ...providers,
    PAYPAL_API_URL: `http://127.0.0.1:${sandboxPorts.paypal}`,
    PAGBANK_API_URL: `http://127.0.0.1:${sandboxPorts.pagbank}`,
    LOG_LEVEL: process.env.LOG_LEVEL ?? 'warn',
  },
});
for (const signal of ['SIGINT', 'SIGTERM']) {
  process.on(signal, () => {
    sandbox.kill(signal);
    server.kill(signal);
  });
}
server.on('exit', (code) => {
  sandbox.kill('SIGTERM');
  process.exit(code ?? 0);
});
