import type { DbOrTx } from './client';

/** What drizzle's `.prepare(name)` gives: the built SQL, run with its placeholders' values. */
interface Prepared<Result> {
  execute(values?: Record<string, unknown>): Promise<Result>;
}

/** A query builder whose SQL does not depend on the call: values come in as `sql.placeholder`s. */
interface Preparable<Result> {
  prepare(name: string): Prepared<Result>;
}

/** Per driver connection (the pool, or a transaction's pooled connection): name → statement. */
const builtPerConnection = new WeakMap<object, Map<string, Prepared<unknown>>>();

/**
 * A statement built once per connection and named, for the hot paths that run inside
 * transactions (a move's lock, recipients and writes). drizzle builds a query's SQL text anew at
 * each call, which costs more server CPU than sending it; a statement defined here is built the
 * first time a connection runs it and then only executed with its values, and PostgreSQL plans a
 * named statement once per connection too (docs/performance.md, "Moves").
 *
 * The cache is keyed by the driver's client behind the handle: the pool for the database, the
 * pooled connection for a node-postgres transaction (the same ten connections serve every
 * transaction), a transaction object for PGlite (one per transaction: built per call there).
 * `name` must name one SQL text: a statement with several shapes gets a name per shape.
 */
export function preparedStatement<Result, Args extends unknown[] = []>(
  name: string | ((...args: Args) => string),
  build: (db: DbOrTx, ...args: Args) => Preparable<Result>,
) {
  return (db: DbOrTx, values: Record<string, unknown>, ...args: Args): Promise<Result> => {
    const statementName = typeof name === 'string' ? name : name(...args);
    const connection = driverClientOf(db);
    let built = builtPerConnection.get(connection);
    if (!built) builtPerConnection.set(connection, (built = new Map()));
    let statement = built.get(statementName) as Prepared<Result> | undefined;
    if (!statement) {
      statement = build(db, ...args).prepare(statementName);
      built.set(statementName, statement);
    }
    return statement.execute(values);
  };
}

/** The driver client a drizzle handle sends through (a field of drizzle's session). */
function driverClientOf(db: DbOrTx): object {
  const client = (db._.session as unknown as { client?: object }).client;
  if (!client) throw new Error('drizzle session without a driver client');
  return client;
}
