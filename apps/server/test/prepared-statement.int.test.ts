import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { isQueryError, openDatabase, type Database, type DbOrTx } from '../src/db/client';
import { tableRowFromJson } from '../src/db/json-rows';
import { prepareSelect, preparedStatement } from '../src/db/prepared-statement';
import { auditLog, users } from '../src/db/schema';
import { createTestDatabase } from './support/test-app';

/**
 * `preparedStatement` builds a statement once per driver connection and runs it with each call's
 * values, on the database and inside transactions, on both drivers; `tableRowFromJson` maps a
 * row carried as JSON exactly as drizzle maps the selected row.
 */
const POOL_SIZE = 4;
let pgDatabase: Database;
let dropPg: () => Promise<void>;
let pglite: Database;
const pgliteDir = mkdtempSync(join(tmpdir(), 'dentflow-prepared-'));

beforeAll(async () => {
  const created = await createTestDatabase({ template: 'bare' });
  dropPg = created.drop;
  pgDatabase = await openDatabase({
    databaseUrl: created.url,
    pgliteDir: '',
    poolMax: POOL_SIZE,
  });
  pglite = await openDatabase({ databaseUrl: undefined, pgliteDir: join(pgliteDir, 'db') });
}, 120_000);
afterAll(async () => {
  await pgDatabase?.close();
  await dropPg?.();
  await pglite?.close();
  rmSync(pgliteDir, { recursive: true, force: true });
});

/** An audit row per action, and a statement reading one back by action, counting its builds. */
function auditByAction() {
  let builds = 0;
  const statement = preparedStatement(
    (withIp: boolean) => `test_audit_by_action_${withIp ? 'ip' : 'plain'}`,
    (db: DbOrTx, withIp: boolean) => {
      builds += 1;
      return db
        .select({ action: auditLog.action, details: auditLog.details, at: auditLog.at })
        .from(auditLog)
        .where(
          withIp
            ? sql`${auditLog.action} = ${sql.placeholder('action')} and ${auditLog.ip} is not null`
            : eq(auditLog.action, sql.placeholder('action')),
        );
    },
  );
  return { statement, builds: () => builds };
}

async function seedAudit(db: DbOrTx, count: number) {
  await db.insert(auditLog).values(
    Array.from({ length: count }, (_, i) => ({
      actorUserId: null,
      action: `test.prepared.${i}`,
      entity: 'test',
      details: { index: i, nested: { at: '2026-11-26' } },
      ip: i % 2 === 0 ? '127.0.0.1' : null,
    })),
  );
}

describe('preparedStatement planned at each call (PostgreSQL)', () => {
  it('is built once, but no connection keeps it as a named statement with a cached plan', async () => {
    const { db } = pgDatabase;
    await db
      .insert(auditLog)
      .values(
        [0, 1, 2].map((i) => ({ actorUserId: null, action: `test.planned.${i}`, entity: 'test' })),
      );
    let builds = 0;
    const build = (database: DbOrTx) => {
      builds += 1;
      return database
        .select({ action: auditLog.action })
        .from(auditLog)
        .where(eq(auditLog.action, sql.placeholder('action')));
    };
    const named = preparedStatement('test_audit_named', build);
    const planned = preparedStatement('test_audit_planned', build, { planEachCall: true });
    const kept = await db.transaction(async (tx) => {
      for (let i = 0; i < 3; i += 1) {
        expect(await planned(tx, { action: `test.planned.${i}` })).toEqual([
          { action: `test.planned.${i}` },
        ]);
        await named(tx, { action: `test.planned.${i}` });
      }
      const result = (await tx.execute(
        sql`select name from pg_prepared_statements where name like 'test_audit_%'`,
      )) as unknown as { rows: { name: string }[] };
      return result.rows.map((row) => row.name);
    });
    expect(kept).toEqual(['test_audit_named']);
    expect(builds).toBe(2);
  });
});

describe.each([
  ['PostgreSQL', () => pgDatabase, POOL_SIZE + 1],
  // PGlite's transactions each have their own driver object: built per transaction there.
  ['PGlite', () => pglite, Number.POSITIVE_INFINITY],
])('preparedStatement on %s', (_driver, database, maxBuilds) => {
  it('answers each call with its own values, on the database and in transactions', async () => {
    const { db } = database();
    await seedAudit(db, 12);
    const { statement, builds } = auditByAction();
    const direct = await Promise.all(
      Array.from({ length: 12 }, (_, i) => statement(db, { action: `test.prepared.${i}` }, false)),
    );
    expect(direct.map((rows) => rows.map((row) => row.action))).toEqual(
      Array.from({ length: 12 }, (_, i) => [`test.prepared.${i}`]),
    );
    const inTransactions = await Promise.all(
      Array.from({ length: 24 }, (_, i) =>
        db.transaction((tx) => statement(tx, { action: `test.prepared.${i % 12}` }, false)),
      ),
    );
    expect(inTransactions.map((rows) => rows[0]?.details)).toEqual(
      Array.from({ length: 24 }, (_, i) => ({ index: i % 12, nested: { at: '2026-11-26' } })),
    );
    expect(inTransactions.every(([row]) => row?.at instanceof Date)).toBe(true);
    // The pool once, then each of its connections once: never once per call.
    expect(builds()).toBeLessThanOrEqual(Math.min(maxBuilds, 1 + 24));
  });

  it('keeps one statement per form: each form answers with its own text', async () => {
    const { db } = database();
    const { statement } = auditByAction();
    const withIp = await statement(db, { action: 'test.prepared.2' }, true);
    const withoutIpRow = await statement(db, { action: 'test.prepared.3' }, true);
    const plain = await statement(db, { action: 'test.prepared.3' }, false);
    expect(withIp).toHaveLength(1);
    expect(withoutIpRow).toHaveLength(0);
    expect(plain).toHaveLength(1);
  });
});

describe.each([
  ['PostgreSQL', () => pgDatabase, true],
  ['PGlite', () => pglite, false],
])('prepareSelect on %s', (_driver, database, fastPath) => {
  /** Whole tables, nested objects, decoded and raw SQL values, nulls: drizzle's own mapping. */
  const mixedSelect = (db: DbOrTx) =>
    db
      .select({
        row: auditLog,
        nested: {
          index: sql<number>`(${auditLog.details} ->> 'index')`.mapWith(Number),
          at: auditLog.at,
          ipOrNull: auditLog.ip,
        },
        texts: sql<string[]>`array[${auditLog.action}, ${sql.placeholder('extra')}::text]`,
        nothing: sql<null>`null`,
      })
      .from(auditLog)
      .where(sql`${auditLog.action} like 'test.prepared.%'`)
      .orderBy(auditLog.id);

  it('maps every row as drizzle maps it', async () => {
    const { db } = database();
    await seedAudit(db, 4);
    const expected = await mixedSelect(db).prepare('test_mixed_drizzle').execute({ extra: 'x' });
    const statement = prepareSelect(mixedSelect(db), 'test_mixed_fast');
    expect(Object.getPrototypeOf(statement) === Object.prototype).toBe(fastPath);
    const rows = await statement.execute({ extra: 'x' });
    expect(rows.length).toBeGreaterThanOrEqual(4);
    expect(rows).toEqual(expected);
    expect(rows[0]!.row.at).toBeInstanceOf(Date);
    expect(typeof rows[0]!.nested.index).toBe('number');
  });

  it('leaves a left join to drizzle: a joined table without a row becomes null', async () => {
    const { db } = database();
    const joined = () =>
      db
        .select({ action: auditLog.action, actor: { id: users.id, name: users.displayName } })
        .from(auditLog)
        .leftJoin(users, eq(users.id, auditLog.actorUserId))
        .where(eq(auditLog.action, 'test.prepared.1'));
    const rows = await prepareSelect(joined(), 'test_left_join').execute();
    expect(rows.length).toBeGreaterThan(0);
    expect(rows).toEqual(rows.map(() => ({ action: 'test.prepared.1', actor: null })));
  });

  it("fails as drizzle fails: the driver's error as the cause", async () => {
    const { db } = database();
    const failing = prepareSelect(
      db.select({ n: sql<number>`1 / ${sql.placeholder('zero')}::int` }).from(auditLog),
      'test_division_by_zero',
    );
    const error = await failing.execute({ zero: 0 }).catch((e: unknown) => e);
    expect(isQueryError(error)).toBe(true);
    expect(((error as Error).cause as { code?: string }).code).toBe('22012');
  });
});

describe('tableRowFromJson', () => {
  it('maps a row carried as to_json like drizzle maps the selected row', async () => {
    const { db } = pgDatabase;
    const [selected] = await db
      .select()
      .from(auditLog)
      .where(eq(auditLog.action, 'test.prepared.4'));
    const {
      rows: [carried],
    } = (await db.execute(
      sql`select to_json(a) as json from audit_log a where a.action = 'test.prepared.4'`,
    )) as unknown as { rows: { json: Record<string, unknown> }[] };
    expect(tableRowFromJson(auditLog, carried!.json)).toEqual(selected);
  });
});
