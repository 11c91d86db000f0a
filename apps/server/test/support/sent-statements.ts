import pg from 'pg';

/** A statement node-postgres sent: on which pooled connection, under which name, its text. */
export interface SentStatement {
  connection: pg.Client;
  name: string | undefined;
  text: string;
}

/** Every statement sent through node-postgres while `run` runs, in the order sent. */
export async function statementsSentDuring(run: () => Promise<unknown>): Promise<SentStatement[]> {
  const sent: SentStatement[] = [];
  const original = pg.Client.prototype.query;
  pg.Client.prototype.query = function (this: pg.Client, ...args: unknown[]) {
    const query = args[0] as string | { text?: string; name?: string };
    sent.push(
      typeof query === 'string'
        ? { connection: this, name: undefined, text: query }
        : { connection: this, name: query.name, text: query.text ?? '' },
    );
    return (original as (...a: unknown[]) => unknown).apply(this, args);
  } as typeof original;
  try {
    await run();
  } finally {
    pg.Client.prototype.query = original;
  }
  return sent;
}
