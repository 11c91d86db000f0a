import { fileURLToPath } from 'node:url';
import path from 'node:path';

export const E2E_PORT = Number(process.env.E2E_PORT ?? 3100);
/** The local PayPal sandbox the server under test talks to (scripts/e2e-server.mjs). */
export const E2E_PAYPAL_PORT = Number(process.env.E2E_PAYPAL_PORT ?? 3201);
export const E2E_BASE_URL = `http://127.0.0.1:${E2E_PORT}`;
/** The fresh database scripts/e2e-server.mjs creates for the server under test. */
const E2E_DATABASE = process.env.E2E_DATABASE ?? 'dentflow_e2e';
/** The server under test writes its outbox here (see scripts/e2e-server.mjs). */
export const E2E_DATA_DIR = path.resolve(
  path.dirname(fileURLToPath(import.meta.url)),
  '../../../../.data-test',
  E2E_DATABASE,
);

export const E2E_DATABASE_URL = (() => {
  const url = new URL(process.env.TEST_PG_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres');
  url.pathname = `/${E2E_DATABASE}`;
  return url.toString();
})();
