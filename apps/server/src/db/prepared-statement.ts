import {
  Column,
  DrizzleQueryError,
  SQL,
  Subquery,
  fillPlaceholders,
  is,
  noopDecoder,
} from 'drizzle-orm';
import { NodePgPreparedQuery } from 'drizzle-orm/node-postgres';
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
 *
 * `planEachCall` sends the statement unnamed, so PostgreSQL plans it at each call for its tables
 * as they are then (it is still built only once). For a table that an install starts with empty
 * and that grows in bursts, such as the mail queue: a named statement's plan, made while the
 * table held ten rows, reads the whole table, and keeps reading it as it grows by thousands of
 * rows until autovacuum next analyses it.
 */
export function preparedStatement<Result, Args extends unknown[] = []>(
  name: string | ((...args: Args) => string),
  build: (db: DbOrTx, ...args: Args) => Preparable<Result>,
  options: { planEachCall?: boolean } = {},
) {
  return (db: DbOrTx, values: Record<string, unknown>, ...args: Args): Promise<Result> => {
    const statementName = typeof name === 'string' ? name : name(...args);
    const connection = driverClientOf(db);
    let built = builtPerConnection.get(connection);
    if (!built) builtPerConnection.set(connection, (built = new Map()));
    let statement = built.get(statementName) as Prepared<Result> | undefined;
    if (!statement) {
      statement = prepareSelect(build(db, ...args), options.planEachCall ? '' : statementName);
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

/** What the fast path reads of drizzle's node-postgres prepared select (its own fields). */
interface NodePgPrepared {
  fields?: { path: string[]; field: unknown }[];
  params: unknown[];
  queryConfig?: { text: string };
  client?: { query(config: object, values: unknown[]): Promise<{ rows: unknown[][] }> };
  joinsNotNullableMap?: Record<string, boolean>;
  customResultMapper?: unknown;
}

/**
 * A prepared select run as drizzle runs it, minus drizzle's per-call work: its tracing wrappers
 * and cache check, and its generic row mapping (a `reduce` over the fields with class checks for
 * every value): without them a case read costs a tenth less server CPU, a list page a fifth less
 * (docs/performance.md). The rows are mapped by a function written for this select's fields,
 * with the same decoders (dates, numbers) and the same nested shape. Anything the fast path does
 * not cover — PGlite, a left join that may turn a joined table's object into null, a custom
 * mapper — runs through drizzle's own `execute`.
 */
export function prepareSelect<Result>(query: Preparable<Result>, name: string): Prepared<Result> {
  const prepared = query.prepare(name);
  const internals = prepared as unknown as NodePgPrepared;
  const { fields, queryConfig, client, joinsNotNullableMap } = internals;
  const mayNullifyJoins = Object.values(joinsNotNullableMap ?? {}).some((notNull) => !notNull);
  if (
    !is(prepared, NodePgPreparedQuery) ||
    !fields ||
    !queryConfig ||
    !client ||
    internals.customResultMapper ||
    mayNullifyJoins
  ) {
    return prepared;
  }
  const mapRow = rowMapperOf(fields);
  return {
    async execute(values = {}) {
      const params = fillPlaceholders(internals.params, values);
      let result;
      try {
        result = await client.query(queryConfig, params);
      } catch (error) {
        // As drizzle wraps it: the error handler reads the driver's error from its cause.
        throw new DrizzleQueryError(queryConfig.text, params, error as Error);
      }
      return result.rows.map(mapRow) as Result;
    },
  };
}

type Decoder = { mapFromDriverValue(value: unknown): unknown };

/** A decoder that returns the driver's value as it is needs no call. */
const isIdentity = (decoder: Decoder) =>
  decoder === noopDecoder || decoder.mapFromDriverValue === Column.prototype.mapFromDriverValue;

/**
 * The row mapper of a select's fields, as drizzle's `mapResultRow` maps them (null stays null,
 * else the field's decoder), written out as one object literal so each row is built in one go.
 */
function rowMapperOf(fields: NonNullable<NodePgPrepared['fields']>): (row: unknown[]) => unknown {
  const decoders: Decoder[] = [];
  type Tree = Map<string, Tree | string>;
  const tree: Tree = new Map();
  fields.forEach(({ path, field }, index) => {
    const decoder = decoderOf(field);
    const read = isIdentity(decoder)
      ? `row[${index}]`
      : `(row[${index}] === null ? null : d[${decoders.push(decoder) - 1}].mapFromDriverValue(row[${index}]))`;
    let node = tree;
    path.slice(0, -1).forEach((chunk) => {
      let child = node.get(chunk);
      if (typeof child !== 'object') node.set(chunk, (child = new Map()));
      node = child;
    });
    node.set(path[path.length - 1]!, read);
  });
  const literal = (node: Tree): string =>
    `{${[...node]
      .map(
        ([key, value]) =>
          `${JSON.stringify(key)}: ${typeof value === 'string' ? value : literal(value)}`,
      )
      .join(', ')}}`;
  // The source holds only field names (quoted by JSON.stringify) and indexes.
  return new Function('d', `return (row) => (${literal(tree)});`)(decoders) as (
    row: unknown[],
  ) => unknown;
}

/** The decoder drizzle's `mapResultRow` picks for a field (a column, or an SQL's `decoder`). */
function decoderOf(field: unknown): Decoder {
  type WithDecoder = { decoder: Decoder };
  if (is(field, Column)) return field;
  if (is(field, SQL)) return (field as unknown as WithDecoder).decoder;
  if (is(field, Subquery)) return (field._.sql as unknown as WithDecoder).decoder;
  return ((field as SQL.Aliased).sql as unknown as WithDecoder).decoder;
}
