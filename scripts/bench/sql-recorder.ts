/**
 * Loaded into the product server with `--import` by the bench's capture step only (never into
 * the measured server): every statement a request sends through `pg` is appended to the file
 * BENCH_SQL_RECORD, labelled with the request's `x-bench-capture` header. The bare server then
 * replays exactly these statements, so both servers run the same SQL for the same caller.
 * Statements outside a labelled request (the mail worker, the periodic jobs) are not recorded.
 */
import { AsyncLocalStorage } from 'node:async_hooks';
import { appendFileSync } from 'node:fs';
import { Server, type IncomingMessage } from 'node:http';
import pg from 'pg';

const file = process.env.BENCH_SQL_RECORD;
const currentLabel = new AsyncLocalStorage<string>();

if (file) {
  const emit = Server.prototype.emit as (this: Server, ...args: unknown[]) => boolean;
  Server.prototype.emit = function (this: Server, ...args: unknown[]) {
    const [event, request] = args;
    const label =
      event === 'request' ? (request as IncomingMessage).headers['x-bench-capture'] : undefined;
    if (typeof label === 'string') {
      return currentLabel.run(label, () => emit.apply(this, args));
    }
    return emit.apply(this, args);
  } as typeof Server.prototype.emit;

  const query = pg.Client.prototype.query;
  pg.Client.prototype.query = function (this: pg.Client, ...args: unknown[]) {
    const label = currentLabel.getStore();
    const [first, second] = args as [
      string | { text: string; name?: string; rowMode?: string; values?: unknown[] },
      unknown,
    ];
    if (label && first) {
      const config: { text: string; name?: string; rowMode?: string; values?: unknown[] } =
        typeof first === 'string' ? { text: first } : first;
      const values = Array.isArray(second) ? second : config.values;
      appendFileSync(
        file,
        `${JSON.stringify({ label, name: config.name, rowMode: config.rowMode, text: config.text, values: values ?? [] })}\n`,
      );
    }
    return (query as (...rest: unknown[]) => unknown).apply(this, args);
  } as typeof query;
}
