/**
 * Both payment sandboxes for local trials and browser journeys (`npm run sandbox` at the root;
 * scripts/e2e-server.mjs for the journeys), then point the server at them (PAYPAL_API_URL,
 * PAGBANK_API_URL) with the same credentials.
 */
import { startPagbankSandbox } from './pagbank-sandbox';
import { startPaypalSandbox } from './paypal-sandbox';

function portFrom(name: string, fallback: number): number {
  const raw = process.env[name];
  if (raw === undefined || raw === '') return fallback;
  const port = Number(raw);
  if (!Number.isInteger(port) || port < 0 || port > 65_535) {
    throw new Error(`${name} must be a port number, got "${raw}"`);
  }
  return port;
}

async function main(): Promise<void> {
  const env = process.env;
  const host = env.SANDBOX_HOST || '127.0.0.1';
  const paypalCredentials = {
    clientId: env.PAYPAL_CLIENT_ID || 'sandbox-client',
    clientSecret: env.PAYPAL_CLIENT_SECRET || 'sandbox-secret',
    webhookId: env.PAYPAL_WEBHOOK_ID || 'WH-SANDBOX',
  };
  const pagbankToken = env.PAGBANK_TOKEN || 'sandbox-token';
  const paypal = await startPaypalSandbox({
    port: portFrom('PAYPAL_SANDBOX_PORT', 3201),
    host,
    ...paypalCredentials,
  });
  const pagbank = await startPagbankSandbox({
    port: portFrom('PAGBANK_SANDBOX_PORT', 3202),
    host,
    token: pagbankToken,
  });
  console.log(
    `PayPal sandbox:  ${paypal.url}  (PAYPAL_API_URL; client ${paypalCredentials.clientId}, webhook ${paypalCredentials.webhookId})`,
  );
  console.log(`PagBank sandbox: ${pagbank.url}  (PAGBANK_API_URL)`);

  let stopping = false;
  const stop = (signal: NodeJS.Signals) => {
    if (stopping) return;
    stopping = true;
    console.log(`${signal}: stopping the payment sandboxes`);
    void Promise.all([paypal.close(), pagbank.close()]).then(() => process.exit(0));
  };
  process.once('SIGINT', stop);
  process.once('SIGTERM', stop);
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
