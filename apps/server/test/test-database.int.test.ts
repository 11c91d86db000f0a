import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  ADMIN_PG_URL,
  createTestDatabase,
  dropStaleTemplates,
  startTestApp,
  TEMPLATE_PREFIX,
  TEMPLATE_READY_MARK,
  templateFingerprint,
  templateName,
  withTemplateLock,
  type TestApp,
} from './support/test-app';

/** The test databases: copies of a migrated, seeded template (support/test-app.ts). */

const cleanups: (() => Promise<void>)[] = [];
// These tests are about the copies, also in a run that turned them off (TEST_DB_TEMPLATE=off).
const turnedOff = process.env.TEST_DB_TEMPLATE;
beforeAll(() => {
  delete process.env.TEST_DB_TEMPLATE;
});
afterAll(async () => {
  if (turnedOff !== undefined) process.env.TEST_DB_TEMPLATE = turnedOff;
  for (const cleanup of cleanups.reverse()) await cleanup();
});

async function adminQuery<T extends pg.QueryResultRow>(text: string, values: unknown[] = []) {
  const admin = new pg.Client({ connectionString: ADMIN_PG_URL });
  await admin.connect();
  try {
    return (await admin.query<T>(text, values)).rows;
  } finally {
    await admin.end();
  }
}

async function queryIn<T extends pg.QueryResultRow>(url: string, text: string) {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return (await client.query<T>(text)).rows;
  } finally {
    await client.end();
  }
}

async function count(t: TestApp, table: string) {
  const [row] = await queryIn<{ n: number }>(
    t.config.databaseUrl!,
    `select count(*)::int as n from ${table}`,
  );
  return row!.n;
}

const journalEntries = (
  JSON.parse(
    readFileSync(
      join(import.meta.dirname, '..', 'src', 'db', 'migrations', 'meta', '_journal.json'),
      'utf8',
    ),
  ) as { entries: unknown[] }
).entries.length;

describe('test databases', () => {
  it('gives every app its own copy of the seeded template', async () => {
    const [a, b] = await Promise.all([startTestApp(), startTestApp()]);
    cleanups.push(
      () => a.close(),
      () => b.close(),
    );
    expect(a.config.databaseUrl).not.toBe(b.config.databaseUrl);
    expect(await count(a, 'users')).toBeGreaterThanOrEqual(8);
    expect(await count(a, 'cases')).toBeGreaterThan(0);
    await queryIn(a.config.databaseUrl!, 'delete from announcements');
    expect(await count(a, 'announcements')).toBe(0);
    expect(await count(b, 'announcements')).toBeGreaterThan(0);
  });

  it('honours SEED_DEMO=false: migrated, reference data, no demo data', async () => {
    const t = await startTestApp({ SEED_DEMO: 'false' });
    cleanups.push(() => t.close());
    expect(await count(t, 'users')).toBe(0);
    expect(await count(t, 'cases')).toBe(0);
    expect(await count(t, 'product_categories')).toBe(8);
    expect(await count(t, 'drizzle.__drizzle_migrations')).toBe(journalEntries);
  });

  it('keeps the template closed to connections and marked ready', async () => {
    const t = await startTestApp();
    cleanups.push(() => t.close());
    const name = templateName(templateFingerprint(), 'demo');
    const [row] = await adminQuery<{ datallowconn: boolean; comment: string }>(
      `select datallowconn, shobj_description(oid, 'pg_database') as comment
         from pg_database where datname = $1`,
      [name],
    );
    expect(row?.datallowconn).toBe(false);
    expect(row?.comment.startsWith(TEMPLATE_READY_MARK)).toBe(true);
    const url = new URL(ADMIN_PG_URL);
    url.pathname = `/${name}`;
    await expect(queryIn(url.toString(), 'select 1')).rejects.toThrow(/not currently accepting/);
  });

  it('builds a missing template once while several files ask for copies at the same time', async () => {
    const fingerprint = `race${randomBytes(4).toString('hex')}`;
    cleanups.push(() =>
      withTemplateLock(async (admin) => {
        await admin.query(`DROP DATABASE IF EXISTS "${templateName(fingerprint, 'bare')}"`);
      }),
    );
    const copies = await Promise.all(
      Array.from({ length: 4 }, () => createTestDatabase({ template: 'bare', fingerprint })),
    );
    cleanups.push(...copies.map((copy) => () => copy.drop()));
    for (const copy of copies) {
      const [migrations] = await queryIn<{ n: number }>(
        copy.url,
        'select count(*)::int as n from drizzle.__drizzle_migrations',
      );
      expect(migrations?.n).toBe(journalEntries);
      const [categories] = await queryIn<{ n: number }>(
        copy.url,
        'select count(*)::int as n from product_categories',
      );
      expect(categories?.n).toBe(8);
    }
    const templates = await adminQuery(`select 1 from pg_database where datname like $1`, [
      `${TEMPLATE_PREFIX}${fingerprint}%`,
    ]);
    expect(templates).toHaveLength(1);
  });

  it('drops old and half-built templates of other sources, keeps recent and current ones', async () => {
    // Its own name prefix, so real templates (and the runs using them) are not involved.
    const prefix = `dentflow_tmpltest_${randomBytes(4).toString('hex')}_`;
    const names = {
      old: `${prefix}old_demo`,
      half: `${prefix}half_demo`,
      recent: `${prefix}recent_demo`,
      current: `${prefix}cur_bare`,
    };
    const admin = new pg.Client({ connectionString: ADMIN_PG_URL });
    await admin.connect();
    try {
      for (const name of Object.values(names)) await admin.query(`CREATE DATABASE "${name}"`);
      const mark = (name: string, at: Date) =>
        admin.query(`COMMENT ON DATABASE "${name}" IS '${TEMPLATE_READY_MARK}${at.toISOString()}'`);
      await mark(names.old, new Date(Date.now() - 2 * 3600_000));
      await mark(names.recent, new Date());
      await dropStaleTemplates(admin, 'cur', prefix);
      const { rows } = await admin.query<{ datname: string }>(
        'select datname from pg_database where datname like $1 order by datname',
        [`${prefix}%`],
      );
      expect(rows.map((row) => row.datname)).toEqual([names.current, names.recent].sort());
    } finally {
      for (const name of Object.values(names)) {
        await admin.query(`DROP DATABASE IF EXISTS "${name}"`);
      }
      await admin.end();
    }
  });

  it('creates an empty database when copies are turned off (TEST_DB_TEMPLATE=off)', async () => {
    process.env.TEST_DB_TEMPLATE = 'off';
    try {
      const database = await createTestDatabase({ template: 'demo' });
      cleanups.push(() => database.drop());
      const tables = await queryIn(
        database.url,
        "select 1 from information_schema.tables where table_schema = 'public'",
      );
      expect(tables).toHaveLength(0);
    } finally {
      delete process.env.TEST_DB_TEMPLATE;
    }
  });
});
