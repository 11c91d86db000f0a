import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { MailMessage } from '../src/adapters/mail/mail-sender';
import type { Db } from '../src/db/client';
import { mailOutbox } from '../src/db/schema';
import { createMailWorker } from '../src/modules/mail/mail-worker';
import {
  caseSetup,
  caseApi,
  caseInStatus,
  demoSessions,
  type CaseSetup,
} from './support/cases-fixtures';
import { statementsSentDuring } from './support/sent-statements';
import { startTestApp, type TestApp } from './support/test-app';

/**
 * A move writes its history row, audit row, notifications and mails in the transaction of the
 * status change, and nothing of it when any step fails; and it stays a handful of statements
 * (docs/performance.md "Moves").
 */
let t: TestApp;
let db: Db;
let setup: CaseSetup;
let api: ReturnType<typeof caseApi>;

const rowsOf = async <T>(query: ReturnType<typeof sql>) =>
  ((await db.execute(query)) as unknown as { rows: T[] }).rows;

/** Everything a move of the case writes, as comparable values. */
async function footprint(caseId: number) {
  const [row] = await rowsOf<Record<string, unknown>>(sql`
    select (select case_status from cases where id = ${caseId}) as status,
           (select modified_at::text from cases where id = ${caseId}) as modified,
           (select count(*)::int from case_events where case_id = ${caseId}) as events,
           (select count(*)::int from audit_log
             where entity = 'case' and entity_id = ${String(caseId)}) as audits,
           (select count(*)::int from notifications where case_id = ${caseId}) as notifications,
           (select count(*)::int from mail_outbox) as mails,
           (select string_agg(concat_ws('|', user_id, list_group, case_status, modified_at), ','
                              order by user_id)
              from case_viewers where case_id = ${caseId}) as viewers,
           (select string_agg(concat_ws('|', list_group, case_status, n), ',' order by 1)
              from (select list_group, case_status, sum(n) as n from case_list_counts
                     group by 1, 2 having sum(n) <> 0) c) as counts`);
  return row!;
}

beforeAll(async () => {
  t = await startTestApp();
  db = t.app.database.db;
  api = caseApi(t.app);
  const s = await demoSessions(t.app);
  setup = caseSetup(t.app, s);
  // The mails stay in the outbox as the move wrote them (a sent mail's row is updated later).
  await t.app.mailWorker.stop();
});
afterAll(async () => {
  await t?.close();
});

describe('a move is one transaction', () => {
  it('writes the status, history, audit, notification and mail with one transaction id', async () => {
    const id = await caseInStatus(setup, 'new');
    const before = await footprint(id);
    const moved = await api(setup.supervisor, 'POST', `${id}/move`, { action: 'submit' });
    expect(moved.statusCode).toBe(200);
    const after = await footprint(id);
    expect(after).toMatchObject({
      status: 'checkingout',
      events: Number(before.events) + 1,
      audits: Number(before.audits) + 1,
      // The owner is told (the actor never is), and mailed by the demo doctor's preferences.
      notifications: Number(before.notifications) + 1,
      mails: Number(before.mails) + 1,
    });
    // xmin is the id of the transaction that wrote a row version: the same for every row.
    const writers = await rowsOf<{ source: string; xid: string }>(sql`
      select 'case' as source, xmin::text as xid from cases where id = ${id}
      union all
      select 'history', xmin::text from (select xmin from case_events where case_id = ${id}
                                          order by id desc limit 1) e
      union all
      select 'audit', xmin::text from (select xmin from audit_log
                                         where entity = 'case' and entity_id = ${String(id)}
                                         order by id desc limit 1) a
      union all
      select 'notification', xmin::text from (select xmin from notifications where case_id = ${id}
                                                order by id desc limit 1) n
      union all
      select 'mail', xmin::text from (select xmin from mail_outbox order by id desc limit 1) m
      union all
      select 'viewer', xmin::text from case_viewers where case_id = ${id}`);
    expect(new Set(writers.map((w) => w.source))).toEqual(
      new Set(['case', 'history', 'audit', 'notification', 'mail', 'viewer']),
    );
    expect(new Set(writers.map((w) => w.xid)).size).toBe(1);
  });

  it('leaves nothing behind when its last write fails', async () => {
    const id = await caseInStatus(setup, 'new');
    const before = await footprint(id);
    // The status update comes after the history, audit, notification and mail: make it fail.
    await db.execute(
      sql.raw(`
      create or replace function test_refuse_move() returns trigger language plpgsql as $$
      begin
        if new.id = ${id} and new.case_status <> old.case_status then
          raise exception 'refused by the test';
        end if;
        return new;
      end $$;
      create trigger test_refuse_move before update on cases
        for each row execute function test_refuse_move();`),
    );
    try {
      const moved = await api(setup.supervisor, 'POST', `${id}/move`, { action: 'submit' });
      expect(moved.statusCode).toBe(500);
    } finally {
      await db.execute(sql.raw('drop trigger test_refuse_move on cases'));
    }
    expect(await footprint(id)).toEqual(before);
    // The case still moves once the fault is gone.
    const moved = await api(setup.supervisor, 'POST', `${id}/move`, { action: 'submit' });
    expect(moved.statusCode).toBe(200);
    expect((await footprint(id)).status).toBe('checkingout');
  });

  it('leaves nothing behind when the mail cannot be queued', async () => {
    const id = await caseInStatus(setup, 'new');
    const before = await footprint(id);
    await db.execute(
      sql.raw(`
      create or replace function test_refuse_mail() returns trigger language plpgsql as $$
      begin raise exception 'refused by the test'; end $$;
      create trigger test_refuse_mail before insert on mail_outbox
        for each row execute function test_refuse_mail();`),
    );
    try {
      const moved = await api(setup.supervisor, 'POST', `${id}/move`, { action: 'submit' });
      expect(moved.statusCode).toBe(500);
    } finally {
      await db.execute(sql.raw('drop trigger test_refuse_mail on mail_outbox'));
    }
    expect(await footprint(id)).toEqual(before);
  });
});

describe('a move is a handful of statements', () => {
  /** The names of the named (prepared) statements sent, over the whole file. */
  const named = new Set<string>();

  /** Every statement sent while `run` runs, per pooled connection. */
  async function statementsOf(run: () => Promise<unknown>): Promise<string[][]> {
    const byClient = new Map<unknown, string[]>();
    for (const { connection, name, text } of await statementsSentDuring(run)) {
      if (name) named.add(name);
      byClient.set(connection, [...(byClient.get(connection) ?? []), text]);
    }
    return [...byClient.values()];
  }

  /** The statements of the move's transaction (begin … commit) on its pooled connection. */
  async function transactionOf(run: () => Promise<unknown>): Promise<string[]> {
    const [statements] = (await statementsOf(run))
      .map((texts) => texts.slice(texts.indexOf('begin'), texts.indexOf('commit') + 1))
      .filter((texts) => texts[0] === 'begin');
    return statements ?? [];
  }

  // Pinned at 8 and 12 before: the audit and history rows are now CTEs of the case's update,
  // the mails a CTE of the notifications' insert, the recipients' statement also reads the
  // mail's names and the `emails` settings, and the lock reads the case's transaction statuses
  // (what `advancePaidCase` needs after a submit) and its services.
  it('moves a case without notifications in 5 statements, begin and commit included', async () => {
    const id = await caseInStatus(setup, 'checkingout');
    const statements = await transactionOf(() =>
      api(setup.owner, 'POST', `${id}/move`, { action: 'backToNew' }),
    );
    // begin, lock + row + transactions + services, recipients, history + audit + case update, commit.
    expect(statements.length, statements.join('\n')).toBe(5);
  });

  it('sends every statement between begin and commit named (planned once per connection)', async () => {
    const id = await caseInStatus(setup, 'checkingout');
    named.clear();
    await transactionOf(() => api(setup.owner, 'POST', `${id}/move`, { action: 'backToNew' }));
    expect([...named]).toEqual(
      expect.arrayContaining([
        'lock_case_for_change',
        'case_recipients_case_others',
        'case_refresh_status_audited',
      ]),
    );
  });

  it('submits into checkingout in as many: the transactions came with the lock', async () => {
    const id = await caseInStatus(setup, 'new');
    const statements = await transactionOf(() =>
      api(setup.owner, 'POST', `${id}/move`, { action: 'submit' }),
    );
    expect(statements.length, statements.join('\n')).toBe(5);
    expect(statements.join('\n')).not.toMatch(/from "transactions"/);
  });

  it('adds the notification and its mail in 1 more (notifications with their mails)', async () => {
    const id = await caseInStatus(setup, 'checkingout');
    named.clear();
    const statements = await transactionOf(() =>
      api(setup.supervisor, 'POST', `${id}/move`, { action: 'backToNew' }),
    );
    expect(statements.length, statements.join('\n')).toBe(6);
    // Named by its number of notifications and mails: built once per connection too.
    expect([...named]).toContain('notifications_insert_1_1');
  });

  it("delivers the move's mail in one transaction of 4 statements, and looks no further", async () => {
    // Earlier moves of this file left their mails pending (the app's worker is stopped).
    await db.delete(mailOutbox).where(eq(mailOutbox.status, 'pending'));
    const id = await caseInStatus(setup, 'checkingout');
    const moved = await api(setup.supervisor, 'POST', `${id}/move`, { action: 'backToNew' });
    expect(moved.statusCode).toBe(200);
    const sent: MailMessage[] = [];
    const worker = createMailWorker({
      db,
      log: t.app.log,
      config: { publicUrl: 'http://dentflow.test', databaseUrl: 'postgres (row locks)' },
      mail: {
        kind: 'smtp',
        send: async (message) => void sent.push(message),
        dispatch: () => undefined,
        idle: async () => undefined,
        close: async () => undefined,
      },
    });
    let outcome: unknown;
    const statements = (
      await statementsOf(async () => {
        outcome = await worker.runOnce();
      })
    ).flat();
    expect(outcome).toEqual({ sent: 1, failed: 0 });
    expect(sent.map((mail) => mail.to)).toEqual(['doctor@dentflow.local']);
    // begin, the row locked (with the sender name's settings, whether more are due and the
    // lock's time-out), marked sent, commit; was 10 (settings, two time-outs, and a second,
    // empty transaction to find nothing else due), then 5 (the time-out on its own).
    expect(statements.length, statements.join('\n')).toBe(4);
  });
});
