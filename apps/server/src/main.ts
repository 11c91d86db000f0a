import { buildApp } from './app';
import { ConfigError, loadConfig } from './config';

/** Starts the server: validated config, listen, graceful shutdown on SIGTERM/SIGINT. */
async function main(): Promise<void> {
  let config;
  try {
    config = loadConfig();
  } catch (error) {
    if (error instanceof ConfigError) {
      console.error(error.message);
      process.exit(1);
    }
    throw error;
  }
  const app = await buildApp(config);
  let closing = false;
  /**
   * 1. `/api/ready` answers 503 at once while the instance still serves, for SHUTDOWN_DRAIN_MS,
   *    so the balancer's health checks take it out of rotation; 2. it stops accepting, the
   *    sockets are told to reconnect (elsewhere), the jobs and the mail worker stop after their
   *    current item, and the requests in flight get up to SHUTDOWN_TIMEOUT_MS to finish.
   */
  const shutdown = (signal: string) => {
    if (closing) return;
    closing = true;
    const { drainMs, timeoutMs } = config.shutdown;
    app.lifecycle.startDraining();
    app.log.info({ signal, drainMs, timeoutMs }, 'shutting down: draining');
    const stop = async () => {
      await new Promise((resolve) => setTimeout(resolve, drainMs));
      app.log.info('shutting down: closing');
      const force = setTimeout(() => {
        app.log.error({ timeoutMs }, 'shutdown timed out: requests still in flight were cut');
        app.server.closeAllConnections();
        process.exit(1);
      }, timeoutMs);
      force.unref();
      await app.close();
    };
    stop().then(
      () => {
        app.log.info('shut down');
        process.exit(0);
      },
      (error: unknown) => {
        app.log.error({ err: error }, 'error while shutting down');
        process.exit(1);
      },
    );
  };
  process.on('SIGTERM', () => shutdown('SIGTERM'));
  process.on('SIGINT', () => shutdown('SIGINT'));
  await app.listen({ port: config.port, host: config.host });
  app.log.info(
    { url: config.publicUrl, database: app.database.driver, mail: app.mail.kind },
    'Dentflow is running',
  );
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
