import { existsSync, mkdirSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import { pg_trgm } from '@electric-sql/pglite/contrib/pg_trgm';
import { sql } from 'drizzle-orm';
import { drizzle as drizzlePg } from 'drizzle-orm/node-postgres';
import { migrate as migratePg } from 'drizzle-orm/node-postgres/migrator';
import type { PgDatabase, PgQueryResultHKT, PgTransaction } from 'drizzle-orm/pg-core';
import { drizzle as drizzlePglite } from 'drizzle-orm/pglite';
import { migrate as migratePglite } from 'drizzle-orm/pglite/migrator';
import type { ExtractTablesWithRelations } from 'drizzle-orm';
import pg from 'pg';
import { moduleDir } from '../paths';
import * as schema from './schema';

export type Schema = typeof schema;
/** The driver-neutral database type: every repository works on both pg and PGlite through it. */
export type Db = PgDatabase<PgQueryResultHKT, Schema>;
export type Tx = PgTransaction<PgQueryResultHKT, Schema, ExtractTablesWithRelations<Schema>>;
/** A repository accepts either the database or an open transaction. */
export type DbOrTx = Db | Tx;

export interface Database {
  db: Db;
  driver: 'pg' | 'pglite';
  /** True when the database answers a trivial query. */
  ping(): Promise<boolean>;
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

/** PostgreSQL when a URL is given, else PGlite file-backed in `pgliteDir`. Migrations run here. */
export async function openDatabase(options: {
  databaseUrl: string | undefined;
  pgliteDir: string;
  /** Errors of idle pooled connections (database restart, terminated session). */
  onIdleConnectionError?: (error: Error) => void;
}): Promise<Database> {
  const migrationsDir = migrationsFolder();
  if (options.databaseUrl) {
    const pool = new pg.Pool({ connectionString: options.databaseUrl, max: 10 });
    // Without a listener an idle connection's error (e.g. PostgreSQL restarting) would crash
    // the process; the pool drops that connection and opens a new one when needed.
    pool.on('error', (error) => options.onIdleConnectionError?.(error));
    const db = drizzlePg(pool, { schema });
    try {
      await migratePg(db, { migrationsFolder: migrationsDir });
    } catch (error) {
      await pool.end();
      throw error;
    }
    return {
      db: db as unknown as Db,
      driver: 'pg',
      ping: () => ping(db as unknown as Db),
      close: () => pool.end(),
    };
  }
  mkdirSync(dirname(options.pgliteDir), { recursive: true });
  // pg_trgm: the case search's trigram index (migration 0003) must exist on both drivers.
  const client = await PGlite.create({ dataDir: options.pgliteDir, extensions: { pg_trgm } });
  const db = drizzlePglite(client, { schema });
  try {
    await migratePglite(db, { migrationsFolder: migrationsDir });
  } catch (error) {
    await client.close();
    throw error;
  }
  return {
    db: db as unknown as Db,
    driver: 'pglite',
    ping: () => ping(db as unknown as Db),
    close: () => client.close(),
  };
}

async function ping(db: Db): Promise<boolean> {
  try {
    await db.execute(sql`select 1`);
    return true;
  } catch {
    return false;
  }
}
