import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Db } from '../src/db/client';
import { caseApi, caseInStatus, createUser, demoSessions } from './support/cases-fixtures';
import { startTestApp, type Session, type TestApp } from './support/test-app';

/**
 * The list indexes kept by triggers (migration 0003): `case_viewers` must always equal the
 * relations derived from cases, case_users and case_services, and `case_list_counts` the count of
 * listed cases, after every kind of change the API makes (and direct SQL the API never makes).
 */
let t: TestApp;
let db: Db;
let u: Record<string, Session>;
let api: ReturnType<typeof caseApi>;

const rowsOf = async <T>(query: ReturnType<typeof sql>) => {
  const result = (await db.execute(query)) as unknown as { rows: T[] };
  return result.rows;
};

/** What the triggers keep, next to what they should keep, as comparable sorted lists. */
async function viewerDrift() {
  const kept = await rowsOf<{ row: string }>(sql`
    select concat_ws('|', case_id, user_id, list_group, case_status, case_archived, modified_at) as row
      from case_viewers order by 1`);
  const derived = await rowsOf<{ row: string }>(sql`
    select concat_ws('|', c.id, r.user_id, c.list_group, c.case_status, c.case_archived, c.modified_at) as row
      from cases c
      join (select id as case_id, owner_id as user_id from cases
            union select case_id, user_id from case_users
            union select case_id, planner_id from case_services where planner_id is not null) r
        on r.case_id = c.id
     order by 1`);
  return { kept: kept.map((r) => r.row), derived: derived.map((r) => r.row) };
}

async function countDrift() {
  const kept = await rowsOf<{ row: string }>(sql`
    select concat_ws('|', list_group, case_status, sum(n)) as row from case_list_counts
     group by list_group, case_status having sum(n) <> 0 order by 1`);
  const derived = await rowsOf<{ row: string }>(sql`
    select concat_ws('|', list_group, case_status, count(*)) as row from cases
     where list_group is not null and not case_archived
     group by list_group, case_status order by 1`);
  return { kept: kept.map((r) => r.row), derived: derived.map((r) => r.row) };
}

async function expectInSync() {
  const viewers = await viewerDrift();
  expect(viewers.kept).toEqual(viewers.derived);
  const counts = await countDrift();
  expect(counts.kept).toEqual(counts.derived);
}

beforeAll(async () => {
  t = await startTestApp();
  db = t.app.database.db;
  api = caseApi(t.app);
  u = { ...(await demoSessions(t.app)), planner2: await createUser(t.app, ['planner']) };
});

afterAll(async () => {
  await t.close();
});

describe('case_viewers and case_list_counts follow every change', () => {
  /** The case fixtures' actors: the demo users of this file's database. */
  const demoSetup = () => ({
    app: t.app,
    owner: u.doctor!,
    supervisor: u.supervisor!,
    planner: u.planner!,
    printer: u.printer!,
  });

  it('holds for the demo seed', async () => {
    expect((await viewerDrift()).kept.length).toBeGreaterThan(0);
    await expectInSync();
  });

  it('holds through a case life: open, members, planners, moves, archive', async () => {
    const setup = demoSetup();
    const id = await caseInStatus(setup, 'finished');
    await expectInSync();
    // A member added, then removed: their row comes and goes.
    const added = await api(u.supervisor!, 'POST', `${id}/users`, {
      userId: u.partner!.profile.id,
      triggerNotification: false,
    });
    expect(added.statusCode).toBe(200);
    const partnerRow = `${id}|${u.partner!.profile.id}|`;
    expect((await viewerDrift()).kept.some((r) => r.startsWith(partnerRow))).toBe(true);
    await expectInSync();
    const removed = await api(u.supervisor!, 'DELETE', `${id}/users/${u.partner!.profile.id}`);
    expect(removed.statusCode).toBe(200);
    expect((await viewerDrift()).kept.some((r) => r.startsWith(partnerRow))).toBe(false);
    await expectInSync();
    const archived = await api(u.doctor!, 'POST', `${id}/archive`);
    expect(archived.statusCode).toBe(200);
    await expectInSync();
    const unarchived = await api(u.doctor!, 'POST', `${id}/unarchive`);
    expect(unarchived.statusCode).toBe(200);
    await expectInSync();
  });

  it('holds when a planner is replaced or a service deleted directly in SQL', async () => {
    const setup = {
      app: t.app,
      owner: u.clinic!,
      supervisor: u.supervisor!,
      planner: u.planner!,
      printer: u.printer!,
    };
    const id = await caseInStatus(setup, 'execute');
    await db.execute(
      sql`update case_services set planner_id = ${u.planner2!.profile.id} where case_id = ${id}`,
    );
    await expectInSync();
    await db.execute(sql`delete from case_users where case_id = ${id}`);
    await expectInSync();
    await db.execute(sql`delete from case_services where case_id = ${id}`);
    await expectInSync();
    await db.execute(sql`update cases set owner_id = ${u.doctor!.profile.id} where id = ${id}`);
    await expectInSync();
    await db.execute(sql`delete from cases where id = ${id}`);
    await expectInSync();
  });

  it('holds through many moves (the counts fold every 64th change) and bulk updates', async () => {
    const setup = demoSetup();
    const id = await caseInStatus(setup, 'new');
    // Each move adds two delta rows; 70 moves pass at least one fold.
    for (let i = 0; i < 35; i++) {
      await db.execute(
        sql`update cases set case_status = 'checkingout', list_group = 'new', modified_at = now() where id = ${id}`,
      );
      await db.execute(
        sql`update cases set case_status = 'new', list_group = 'new', modified_at = now() where id = ${id}`,
      );
    }
    await expectInSync();
    const [size] = await rowsOf<{ rows: number; keys: number }>(sql`
      select count(*)::int as rows, count(distinct (list_group, case_status))::int as keys
        from case_list_counts`);
    expect(size!.rows).toBeLessThanOrEqual(size!.keys + 2 * 64);
    // Many cases in one statement (as a migration would): the row trigger runs for each.
    await db.execute(
      sql`update cases set case_archived = not case_archived, modified_at = modified_at + interval '1 second'
           where owner_id = ${u.doctor!.profile.id}`,
    );
    await expectInSync();
    await db.execute(
      sql`update cases set case_archived = not case_archived where owner_id = ${u.doctor!.profile.id}`,
    );
    await expectInSync();
    const moved = await api(u.doctor!, 'POST', `${id}/move`, { action: 'submit' });
    expect(moved.statusCode).toBe(200);
    await expectInSync();
  });

  it('the cancelled-list migration lists the cancelled cases of an older database', async () => {
    const cancelledCount = async () =>
      (
        JSON.parse((await api(u.doctor!, 'GET', 'counts')).body) as {
          obj: { cancelled: number };
        }
      ).obj.cancelled;
    const seeded = await cancelledCount();
    expect(seeded).toBeGreaterThan(0);
    // As before the migration: cancelled cases in no list group.
    await db.execute(sql`update cases set list_group = null where case_status = 'cancelled'`);
    await expectInSync();
    expect(await cancelledCount()).toBe(0);
    const migration = readFileSync(
      join(import.meta.dirname, '..', 'src', 'db', 'migrations', '0010_cancelled_list.sql'),
      'utf8',
    );
    for (const statement of migration.split('--> statement-breakpoint')) {
      await db.execute(sql.raw(statement));
    }
    await expectInSync();
    expect(await cancelledCount()).toBe(seeded);
  });

  it('the planner sees a case as soon as assigned and loses it when replaced', async () => {
    const setup = demoSetup();
    const id = await caseInStatus(setup, 'checkingout');
    const listed = async (who: Session) => {
      const response = await api(who, 'GET', 'list/checkingout/0?pageSize=100');
      return (JSON.parse(response.body) as { obj: { items: { id: number }[] } }).obj.items.some(
        (item) => item.id === id,
      );
    };
    expect(await listed(u.planner2!)).toBe(false);
    const assigned = await api(u.supervisor!, 'POST', `${id}/planner`, {
      plannerId: u.planner2!.profile.id,
    });
    expect(assigned.statusCode).toBe(200);
    expect(await listed(u.planner2!)).toBe(true);
    await expectInSync();
  });
});
