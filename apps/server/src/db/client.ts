import { existsSync, mkdirSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import { pg_trgm } from '@electric-sql/pglite/contrib/pg_trgm';
import { DrizzleQueryError, sql } from 'drizzle-orm';
import { drizzle as drizzlePg } from 'drizzle-orm/node-postgres';
import { migrate as migratePg } from 'drizzle-orm/node-postgres/migrator';
import type { PgDatabase, PgQueryResultHKT, PgTransaction } from 'drizzle-orm/pg-core';
import { drizzle as drizzlePglite } from 'drizzle-orm/pglite';
import { migrate as migratePglite } from 'drizzle-orm/pglite/migrator';
import pg from 'pg';
import { moduleDir } from '../paths';

/**
 * The driver-neutral database type: every repository works on both pg and PGlite through it.
 * Without drizzle's relational API (`db.query.*`, never used): given the schema, drizzle builds a
 * query builder per table for every transaction it opens.
 */
export type Db = PgDatabase<PgQueryResultHKT>;
export type Tx = PgTransaction<PgQueryResultHKT>;
/** A repository accepts either the database or an open transaction. */
export type DbOrTx = Db | Tx;

/**
 * A statement the database refused, as drizzle reports it: the driver's error is its `cause`, and
 * its message holds the statement's parameters (its `name` is plain 'Error', so test the class).
 */
export const isQueryError = (error: unknown): error is Error => error instanceof DrizzleQueryError;

export interface Database {
  db: Db;
  driver: 'pg' | 'pglite';
  /** True when the database answers a trivial query. */
  ping(): Promise<boolean>;
  /** The connection pool's counts (PostgreSQL); undefined for the embedded database. */
  pool(): { total: number; idle: number; waiting: number } | undefined;
  close(): Promise<void>;
}

/**
 * Migrations live next to this file in development (`src/db/migrations`) and are copied next to
 * the bundle (`dist/migrations`) by tsup, so both resolve to `<this module's dir>/migrations`.
 */
export function migrationsFolder(): string {
  const candidates = [join(moduleDir, 'migrations'), join(moduleDir, 'db', 'migrations')];
  const found = candidates.find((dir) => existsSync(join(dir, 'meta', '_journal.json')));
  if (!found) throw new Error(`Migrations not found (looked in ${candidates.join(', ')})`);
  return found;
}

/**
 * The session-level advisory lock held while one instance migrates and seeds: instances that
 * start together against an empty database wait for it, then find the work done.
 */
const STARTUP_LOCK = 4_711_023_000;

/** PostgreSQL when a URL is given, else PGlite file-backed in `pgliteDir`. Migrations run here. */
export async function openDatabase(options: {
  databaseUrl: string | undefined;
  pgliteDir: string;
  /** Errors of idle pooled connections (database restart, terminated session). */
  onIdleConnectionError?: (error: Error) => void;
  /**
   * Runs after the migrations, under the same lock (the first seed): with several instances
   * starting at once, one migrates and prepares while the others wait.
   */
  prepare?: (db: Db) => Promise<void>;
  /** How long a request waits for a pooled connection before it fails (database unreachable). */
  connectionTimeoutMs?: number;
  /** Pool size per instance. */
  poolMax?: number;
}): Promise<Database> {
  const migrationsDir = migrationsFolder();
  if (options.databaseUrl) {
    const pool = new pg.Pool({
      connectionString: options.databaseUrl,
      max: options.poolMax ?? 10,
      // Without it a request waits forever for a connection while PostgreSQL is unreachable.
      connectionTimeoutMillis: options.connectionTimeoutMs ?? 5000,
    });
    // Without a listener an idle connection's error (e.g. PostgreSQL restarting) would crash
    // the process; the pool drops that connection and opens a new one when needed.
    pool.on('error', (error) => options.onIdleConnectionError?.(error));
    // A connection checked out for a transaction gets the same error when PostgreSQL ends it; the
    // query under way rejects on its own (a 503), and an unheard 'error' event would end the process.
    pool.on('connect', (client) => {
      client.on('error', (error) => options.onIdleConnectionError?.(error));
    });
    const db = drizzlePg(pool);
    try {
      await underStartupLock(pool, async () => {
        await migratePg(db, { migrationsFolder: migrationsDir });
        await options.prepare?.(db as unknown as Db);
      });
    } catch (error) {
      await pool.end();
      throw error;
    }
    return {
      db: db as unknown as Db,
      driver: 'pg',
      ping: () => ping(db as unknown as Db),
      pool: () => ({
        total: pool.totalCount,
        idle: pool.idleCount,
        waiting: pool.waitingCount,
      }),
      close: () => pool.end(),
    };
  }
  mkdirSync(dirname(options.pgliteDir), { recursive: true });
  // pg_trgm: the case search's trigram index (migration 0003) must exist on both drivers.
  const client = await PGlite.create({ dataDir: options.pgliteDir, extensions: { pg_trgm } });
  const db = drizzlePglite(client);
  try {
    await migratePglite(db, { migrationsFolder: migrationsDir });
    await options.prepare?.(db as unknown as Db);
  } catch (error) {
    await client.close();
    throw error;
  }
  return {
    db: db as unknown as Db,
    driver: 'pglite',
    ping: () => ping(db as unknown as Db),
    pool: () => undefined,
    close: () => client.close(),
  };
}

/**
 * Holds STARTUP_LOCK on a connection of its own (session level: migrations run on other
 * connections) while `work` runs. If this process dies, PostgreSQL ends the session and the lock
 * with it, so a crashed start never blocks the next one.
 */
async function underStartupLock(pool: pg.Pool, work: () => Promise<void>): Promise<void> {
  const client = await pool.connect();
  let broken = false;
  try {
    await client.query('SELECT pg_advisory_lock($1)', [STARTUP_LOCK]);
    try {
      await work();
    } finally {
      await client.query('SELECT pg_advisory_unlock($1)', [STARTUP_LOCK]).catch(() => {
        broken = true;
      });
    }
  } finally {
    // A connection that may still hold the lock is closed rather than pooled.
    client.release(broken);
  }
}

async function ping(db: Db): Promise<boolean> {
  try {
    await db.execute(sql`select 1`);
    return true;
  } catch {
    return false;
  }
}
