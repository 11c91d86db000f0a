import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { JobOutcome } from '../src/jobs/job-runner';
import { caseInStatus, createUser, demoSessions, setDeadline } from './support/cases-fixtures';
import { createTestDatabase, startTestApp, type TestApp } from './support/test-app';

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Runs the job now, waiting out a run already under way here (the one at start-up). */
async function runWhenIdle(t: TestApp, job: string): Promise<JobOutcome> {
  for (let i = 0; i < 200; i++) {
    const outcome = await t.app.jobs.runNow(job);
    if (outcome !== 'busy') return outcome;
    await sleep(50);
  }
  throw new Error(`${job} stayed busy`);
}

async function query<T extends pg.QueryResultRow>(
  url: string,
  text: string,
  values: unknown[] = [],
) {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return (await client.query<T>(text, values)).rows;
  } finally {
    await client.end();
  }
}

describe('periodic jobs across instances', () => {
  let a: TestApp;
  let b: TestApp;
  let url: string;

  beforeAll(async () => {
    a = await startTestApp();
    url = a.config.databaseUrl!;
    // A second instance on the same database.
    b = await startTestApp({}, { databaseUrl: url });
    await runWhenIdle(a, 'deadline-near');
    await runWhenIdle(b, 'deadline-near');
  }, 60_000);
  afterAll(async () => {
    await b?.close();
    await a?.close();
  });

  it('runs a job on one instance at a time: the other skips the tick, one review opens', async () => {
    const sessions = await demoSessions(a.app);
    const owner = await createUser(a.app, ['doctor']);
    const caseId = await caseInStatus(
      {
        app: a.app,
        owner,
        supervisor: sessions.supervisor,
        planner: sessions.planner,
        printer: sessions.printer,
      },
      'execute',
    );
    await setDeadline(a.app.database.db, caseId, new Date(Date.now() + 3_600_000));
    const before = {
      a: a.app.jobs.counts()['deadline-near']!,
      b: b.app.jobs.counts()['deadline-near']!,
    };
    const [mark] = await query<{ notification: number; mail: number }>(
      url,
      'SELECT (SELECT coalesce(max(id), 0) FROM notifications) AS notification, (SELECT coalesce(max(id), 0) FROM mail_outbox) AS mail',
    );

    // Hold the case row, so instance A's run (holding the job's lock) waits inside the job.
    const blocker = new pg.Client({ connectionString: url });
    await blocker.connect();
    await blocker.query('BEGIN');
    await blocker.query('SELECT id FROM cases WHERE id = $1 FOR UPDATE', [caseId]);
    const first = a.app.jobs.runNow('deadline-near');
    for (let i = 0; i < 100; i++) {
      const [waiting] = await query<{ n: string }>(
        url,
        "SELECT count(*) AS n FROM pg_stat_activity WHERE datname = current_database() AND wait_event_type = 'Lock'",
      );
      if (Number(waiting!.n) > 0) break;
      await sleep(50);
    }

    // Instance B's tick at the same moment: the lock is taken, it skips at once.
    const second = await Promise.race([
      b.app.jobs.runNow('deadline-near'),
      sleep(3000).then(() => 'still waiting'),
    ]);
    await blocker.query('COMMIT');
    await blocker.end();
    expect(second).toBe('contended');
    expect(await first).toBe('ran');

    const reviews = await query<{ n: string }>(
      url,
      'SELECT count(*) AS n FROM case_reviews WHERE case_id = $1 AND reason_id = 3 AND solved_at IS NULL',
      [caseId],
    );
    expect(Number(reviews[0]!.n)).toBe(1);
    // What one review causes: one notification per recipient, at most one mail each.
    const notified = await query<{ user_id: number; n: string }>(
      url,
      'SELECT user_id, count(*) AS n FROM notifications WHERE case_id = $1 AND id > $2 GROUP BY user_id',
      [caseId, mark!.notification],
    );
    for (const row of notified) expect(Number(row.n), `user ${row.user_id}`).toBe(1);
    const mails = await query<{ recipient: string; n: string }>(
      url,
      'SELECT recipient, count(*) AS n FROM mail_outbox WHERE id > $1 GROUP BY recipient',
      [mark!.mail],
    );
    for (const row of mails) expect(Number(row.n), row.recipient).toBe(1);

    const after = {
      a: a.app.jobs.counts()['deadline-near']!,
      b: b.app.jobs.counts()['deadline-near']!,
    };
    expect(after.a.runs - before.a.runs).toBe(1);
    expect(after.b.contended - before.b.contended).toBe(1);
    expect(after.b.runs - before.b.runs).toBe(0);

    // Once the lock is free, the next tick runs and finds nothing left to do.
    expect(await b.app.jobs.runNow('deadline-near')).toBe('ran');
    const again = await query<{ n: string }>(
      url,
      'SELECT count(*) AS n FROM case_reviews WHERE case_id = $1 AND reason_id = 3',
      [caseId],
    );
    expect(Number(again[0]!.n)).toBe(1);
  }, 60_000);

  it('gives every periodic job one runner with counts', () => {
    expect(Object.keys(a.app.jobs.counts()).sort()).toEqual([
      'chat-digest',
      'deadline-near',
      'file-cleanup',
    ]);
  });
});

describe('start-up against an empty database', () => {
  it('lets one of three instances starting at once migrate and seed; the others wait', async () => {
    const empty = await createTestDatabase();
    const reference = await createTestDatabase({ template: 'demo' });
    const apps: TestApp[] = [];
    try {
      const started = await Promise.allSettled(
        [1, 2, 3].map(() => startTestApp({}, { databaseUrl: empty.url })),
      );
      for (const result of started) if (result.status === 'fulfilled') apps.push(result.value);
      expect(started.map((result) => result.status)).toEqual([
        'fulfilled',
        'fulfilled',
        'fulfilled',
      ]);
      const counts = (databaseUrl: string) =>
        query<{ users: string; products: string; cases: string; migrations: string }>(
          databaseUrl,
          `SELECT (SELECT count(*) FROM users) AS users, (SELECT count(*) FROM products) AS products,
             (SELECT count(*) FROM cases) AS cases,
             (SELECT count(*) FROM drizzle.__drizzle_migrations) AS migrations`,
        );
      const seeded = await counts(empty.url);
      expect(seeded).toEqual(await counts(reference.url));
      expect(Number(seeded[0]!.users)).toBeGreaterThan(0);
    } finally {
      await Promise.all(apps.map((app) => app.close()));
      await empty.drop();
      await reference.drop();
    }
  }, 120_000);
});
