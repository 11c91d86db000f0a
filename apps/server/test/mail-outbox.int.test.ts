import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { asc, eq, inArray, sql } from 'drizzle-orm';
import Fastify, { type FastifyBaseLogger } from 'fastify';
import pg from 'pg';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { createMailSender, type MailSender } from '../src/adapters/mail/mail-sender';
import { openDatabase, type Database, type Db } from '../src/db/client';
import { cases, mailOutbox, notifications, patients, users } from '../src/db/schema';
import { enqueueMail } from '../src/modules/mail/mail-outbox';
import { createMailWorker, type MailWorkerOptions } from '../src/modules/mail/mail-worker';
import {
  createTestDatabase,
  json,
  lastLinkTo,
  startSmtpPeer,
  startTestApp,
  type SmtpPeer,
  type TestApp,
} from './support/test-app';

const PUBLIC_URL = 'http://dentflow.test';

const notice = (recipient: string, caseId = 12) => ({
  recipient,
  template: 'notification',
  language: 'en',
  params: {
    eventType: 9,
    caseId,
    patientName: 'Ana Lima',
    actorName: 'Bruno Costa',
    path: `/case/${caseId}?tab=history`,
  },
});

async function rowsOf(db: Db) {
  return db.select().from(mailOutbox).orderBy(asc(mailOutbox.id));
}

/** Polls `check` until it holds (or fails the test after `timeoutMs`). */
async function waitFor(check: () => boolean | Promise<boolean>, timeoutMs = 5000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error('condition not met in time');
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}

/** Unfolds header lines so a long subject reads as one line. */
const unfolded = (raw: string) => raw.replace(/\r?\n[ \t]+/g, ' ');

/**
 * One server instance without HTTP: its own connection pool on `databaseUrl` (PGlite in
 * `pgliteDir` when absent), a mail sender and a mail worker (not started unless asked).
 */
async function startInstance(options: {
  databaseUrl?: string;
  pgliteDir?: string;
  smtpUrl?: string;
  outboxDir?: string;
  sender?: MailSender;
  worker?: MailWorkerOptions;
}) {
  const log: FastifyBaseLogger = Fastify({ logger: { level: 'silent' } }).log;
  const database: Database = await openDatabase({
    databaseUrl: options.databaseUrl,
    pgliteDir: options.pgliteDir ?? join(tmpdir(), 'unused-pglite'),
  });
  const mail =
    options.sender ??
    createMailSender({
      smtpUrl: options.smtpUrl,
      from: 'Dentflow <no-reply@dentflow.test>',
      outboxDir: options.outboxDir ?? join(tmpdir(), 'unused-outbox'),
      logger: log,
      logLinks: false,
    });
  const worker = createMailWorker(
    {
      db: database.db,
      mail,
      log,
      config: { publicUrl: PUBLIC_URL, databaseUrl: options.databaseUrl },
    },
    options.worker,
  );
  return {
    db: database.db,
    log,
    worker,
    async close() {
      await worker.stop();
      await mail.close();
      await database.close();
    },
  };
}
type Instance = Awaited<ReturnType<typeof startInstance>>;

describe('mails of the app go through the outbox', () => {
  let t: TestApp | undefined;
  let peer: SmtpPeer | undefined;
  afterEach(async () => {
    await t?.close();
    await peer?.close();
    t = undefined;
    peer = undefined;
  });

  it('writes a committed account mail once to the .eml outbox and erases its token from the row', async () => {
    t = await startTestApp();
    const db = t.app.database.db;
    const response = await t.app.inject({
      method: 'POST',
      url: '/api/v1/auth/forgotPassword',
      payload: { email: 'doctor@dentflow.local' },
    });
    expect(json(response)).toEqual({ obj: { sent: true } });

    const mails = await t.outbox();
    expect(mails).toHaveLength(1);
    const token = lastLinkTo(mails, 'doctor@dentflow.local', 'resetPassword');
    const [row] = await rowsOf(db);
    expect(row).toMatchObject({ template: 'resetPassword', status: 'sent', attempts: 0 });
    expect(row!.sentAt).toBeInstanceOf(Date);
    expect(row!.params).not.toHaveProperty('token');
    expect(JSON.stringify(row)).not.toContain(token);

    // Nothing is sent again, whoever runs next.
    expect(await t.app.mailWorker.runOnce()).toEqual({ sent: 0, failed: 0 });
    expect(await t.outbox()).toHaveLength(1);
    // The mailed link works.
    const reset = await t.app.inject({
      method: 'POST',
      url: '/api/v1/auth/resetPassword',
      payload: { token, password: 'Another123', confirmPassword: 'Another123' },
    });
    expect(reset.statusCode).toBe(200);
  });

  it('never sends a mail whose transaction rolled back', async () => {
    t = await startTestApp();
    const db = t.app.database.db;
    await expect(
      db.transaction(async (tx) => {
        await enqueueMail(tx, notice('rolled.back@example.com'));
        throw new Error('the change was refused');
      }),
    ).rejects.toThrow('the change was refused');
    expect(await t.app.mailWorker.runOnce()).toEqual({ sent: 0, failed: 0 });
    expect(await t.outbox()).toEqual([]);
    expect(await rowsOf(db)).toEqual([]);
  });

  it('delivers a committed mail once over SMTP, woken by the commit, in the row language', async () => {
    peer = await startSmtpPeer();
    t = await startTestApp({ SMTP_URL: peer.url });
    const db = t.app.database.db;
    await db.transaction(async (tx) => {
      await enqueueMail(tx, notice('ana@example.com'));
      await enqueueMail(tx, { ...notice('bia@example.com'), language: 'ptBR' });
    });
    // No idle() yet: the commit's notification alone wakes the worker.
    await waitFor(() => peer!.received.length === 2);
    await t.app.mail.idle();
    expect(await t.app.mailWorker.runOnce()).toEqual({ sent: 0, failed: 0 });
    expect(peer.received).toHaveLength(2);

    const en = unfolded(peer.received.find((mail) => mail.to[0] === 'ana@example.com')!.raw);
    expect(en).toContain('Subject: New activity on case #12 (Ana Lima): Status changed');
    expect(en).toContain('By Bruno Costa.');
    expect(en).toContain('http://dentflow.test/case/12?tab=history');
    const pt = unfolded(peer.received.find((mail) => mail.to[0] === 'bia@example.com')!.raw);
    expect(pt).toContain('Nova atividade no caso #12 (Ana Lima): Status alterado');
    expect((await rowsOf(db)).map((row) => row.status)).toEqual(['sent', 'sent']);
  });
});

describe('a crash after the commit and before the delivery', () => {
  let database: { url: string; drop(): Promise<void> };
  let peer: SmtpPeer;
  const apps: TestApp[] = [];
  beforeAll(async () => {
    database = await createTestDatabase({ template: 'demo' });
    peer = await startSmtpPeer();
  });
  afterAll(async () => {
    for (const app of apps) await app.close();
    await peer?.close();
    await database?.drop();
  });
  const start = async () => {
    const app = await startTestApp({ SMTP_URL: peer.url }, { databaseUrl: database.url });
    apps.push(app);
    return app;
  };

  it('loses nothing: the next start delivers the mail, once, with a working link', async () => {
    const first = await start();
    await first.app.mailWorker.stop(); // the process "dies" before its worker delivers
    const response = await first.app.inject({
      method: 'POST',
      url: '/api/v1/auth/forgotPassword',
      payload: { email: 'doctor@dentflow.local' },
    });
    expect(response.statusCode).toBe(200);
    await first.app.mail.idle();
    await first.close();
    expect(peer.received).toHaveLength(0);

    const second = await start();
    await second.app.mail.idle();
    expect(peer.received).toHaveLength(1);
    const token = lastLinkTo(
      peer.received.map((mail) => mail.raw),
      'doctor@dentflow.local',
      'resetPassword',
    );
    const reset = await second.app.inject({
      method: 'POST',
      url: '/api/v1/auth/resetPassword',
      payload: { token, password: 'Another123', confirmPassword: 'Another123' },
    });
    expect(reset.statusCode).toBe(200);

    // A third instance finds nothing left to send.
    const third = await start();
    await third.app.mail.idle();
    expect(peer.received).toHaveLength(1);
  });

  it('a mail committed on an instance whose worker is down is delivered by another instance', async () => {
    const [a, b] = [await start(), await start()];
    await a.app.mailWorker.stop();
    const before = peer.received.length;
    await enqueueMail(a.app.database.db, notice('other.instance@example.com'));
    // B's worker is woken by A's commit (LISTEN/NOTIFY), without anyone calling B.
    await waitFor(() => peer.received.length === before + 1);
    await b.app.mail.idle();
    expect(peer.received.slice(before).map((mail) => mail.to)).toEqual([
      ['other.instance@example.com'],
    ]);
  });
});

describe('the mail worker', () => {
  let database: { url: string; drop(): Promise<void> };
  /** Arranges and cleans up; its worker never runs. */
  let shared: Instance;
  let peer: SmtpPeer | undefined;
  const instances: Instance[] = [];
  beforeAll(async () => {
    database = await createTestDatabase({ template: 'demo' });
    shared = await startInstance({ databaseUrl: database.url });
  });
  afterEach(async () => {
    for (const instance of instances.splice(0)) await instance.close();
    await peer?.close();
    peer = undefined;
    await shared.db.delete(mailOutbox);
  });
  afterAll(async () => {
    await shared?.close();
    await database?.drop();
  });
  const instance = async (options: Parameters<typeof startInstance>[0] = {}) => {
    const started = await startInstance({ databaseUrl: database.url, ...options });
    instances.push(started);
    return started;
  };

  it('retries a failed delivery after the backoff and delivers it once the server is back', async () => {
    const probe = await startSmtpPeer();
    const port = Number(new URL(probe.url).port);
    await probe.close(); // the mail server is down
    const backoff = vi.fn((_attempt: number) => 1500);
    const { db, worker, log } = await instance({
      smtpUrl: probe.url,
      worker: { backoffMs: backoff },
    });
    const logged = vi.spyOn(log, 'error');
    await enqueueMail(db, notice('retry@example.com'));

    expect(await worker.runOnce()).toEqual({ sent: 0, failed: 1 });
    const [failed] = await rowsOf(db);
    expect(failed).toMatchObject({ status: 'pending', attempts: 1 });
    expect(failed!.lastError).toContain('ECONNREFUSED');
    expect(failed!.nextAttemptAt.getTime()).toBeGreaterThan(Date.now() + 500);
    expect(backoff).toHaveBeenCalledWith(1);
    expect(logged).toHaveBeenCalledWith(
      expect.objectContaining({ kind: 'notification', attempt: 1, retryInMs: 1500 }),
      'mail not sent',
    );
    expect(JSON.stringify(logged.mock.calls)).not.toContain('retry@');

    peer = await startSmtpPeer({ port }); // back, at the same address
    expect(await worker.runOnce()).toEqual({ sent: 0, failed: 0 }); // not due yet
    expect(peer.received).toHaveLength(0);
    await waitFor(async () => (await worker.runOnce()).sent === 1, 5000);
    expect(await worker.runOnce()).toEqual({ sent: 0, failed: 0 });
    expect(peer.received).toHaveLength(1);
    expect(await rowsOf(db)).toMatchObject([{ status: 'sent', attempts: 1 }]);
  });

  it('gives a mail up after the last attempt, and at once when it cannot be rendered', async () => {
    const { db, worker, log } = await instance({
      smtpUrl: 'smtp://127.0.0.1:1',
      worker: { maxAttempts: 2, backoffMs: () => 0 },
    });
    const logged = vi.spyOn(log, 'error');
    await enqueueMail(db, {
      recipient: 'gone@example.com',
      template: 'resetPassword',
      language: 'en',
      params: { userId: 1, name: 'Ana', token: 'secret-token' },
    });
    await enqueueMail(db, { ...notice('x@example.com'), template: 'noSuchTemplate' });

    expect(await worker.runOnce()).toEqual({ sent: 0, failed: 2 });
    expect(await worker.runOnce()).toEqual({ sent: 0, failed: 1 });
    expect(await worker.runOnce()).toEqual({ sent: 0, failed: 0 });
    const [reset, unknown] = await rowsOf(db);
    expect(reset).toMatchObject({
      status: 'failed',
      attempts: 2,
      params: { userId: 1, name: 'Ana' },
    });
    expect(reset!.params).not.toHaveProperty('token');
    expect(unknown).toMatchObject({ status: 'failed', attempts: 1 });
    expect(unknown!.lastError).toContain('unknown mail template');
    expect(logged).toHaveBeenCalledWith(
      expect.objectContaining({ kind: 'resetPassword', userId: 1, attempt: 2, retryInMs: null }),
      'mail given up',
    );
    expect(JSON.stringify(logged.mock.calls)).not.toContain('secret-token');
  });

  it('counts a send that does not answer within the time-out as failed', async () => {
    const silent: MailSender = {
      kind: 'smtp',
      send: () => new Promise<void>(() => undefined),
      dispatch: () => undefined,
      idle: async () => undefined,
      close: async () => undefined,
    };
    const { db, worker } = await instance({ sender: silent, worker: { sendTimeoutMs: 200 } });
    await enqueueMail(db, notice('slow@example.com'));
    expect(await worker.runOnce()).toEqual({ sent: 0, failed: 1 });
    expect((await rowsOf(db))[0]!.lastError).toContain('MailSendTimeout');
  });

  it("keeps its transaction through a send slower than the server's idle-in-transaction time-out", async () => {
    // The server ends a session idle in a transaction after 300 ms; the send takes 900.
    const alterDatabase = (change: string) =>
      shared.db.execute(
        sql.raw(`alter database "${new URL(database.url).pathname.slice(1)}" ${change}`),
      );
    await alterDatabase(`set idle_in_transaction_session_timeout = '300ms'`);
    try {
      const sent: string[] = [];
      const slow: MailSender = {
        kind: 'smtp',
        send: async (message) => {
          await new Promise((resolve) => setTimeout(resolve, 900));
          sent.push(message.to);
        },
        dispatch: () => undefined,
        idle: async () => undefined,
        close: async () => undefined,
      };
      const { db, worker } = await instance({ sender: slow });
      await enqueueMail(db, notice('patient@example.com'));
      expect(await worker.runOnce()).toEqual({ sent: 1, failed: 0 });
      expect(sent).toEqual(['patient@example.com']);
      expect(await rowsOf(db)).toMatchObject([{ status: 'sent', attempts: 0 }]);
    } finally {
      await alterDatabase('reset idle_in_transaction_session_timeout');
    }
  });

  it('two workers on one database running at once send each of 20 rows exactly once', async () => {
    peer = await startSmtpPeer({ delayMs: 15 });
    const a = await instance({ smtpUrl: peer.url });
    const b = await instance({ smtpUrl: peer.url });
    const recipients = Array.from({ length: 20 }, (_, i) => `r${i}@example.com`);
    await a.db.transaction(async (tx) => {
      for (const recipient of recipients) await enqueueMail(tx, notice(recipient));
    });

    const [fromA, fromB] = await Promise.all([a.worker.runOnce(), b.worker.runOnce()]);
    expect(fromA.sent + fromB.sent).toBe(20);
    expect(fromA.sent).toBeGreaterThan(0);
    expect(fromB.sent).toBeGreaterThan(0);
    const delivered = peer.received.flatMap((mail) => mail.to).sort();
    expect(delivered).toEqual([...recipients].sort());
    expect(await Promise.all([a.worker.runOnce(), b.worker.runOnce()])).toEqual([
      { sent: 0, failed: 0 },
      { sent: 0, failed: 0 },
    ]);
    expect(peer.received).toHaveLength(20);
  });

  it('holds the row while sending; if that worker dies, another delivers it once', async () => {
    peer = await startSmtpPeer();
    let finishSend: (() => void) | undefined;
    const stuck: MailSender = {
      kind: 'smtp',
      send: () => new Promise<void>((resolve) => (finishSend = resolve)),
      dispatch: () => undefined,
      idle: async () => undefined,
      close: async () => undefined,
    };
    const dying = await instance({ sender: stuck });
    const survivor = await instance({ smtpUrl: peer.url });
    await enqueueMail(survivor.db, notice('held@example.com'));

    const dyingRun = dying.worker.runOnce();
    await waitFor(() => finishSend !== undefined);
    // The row is locked for the whole send: the other worker skips it.
    expect(await survivor.worker.runOnce()).toEqual({ sent: 0, failed: 0 });

    // The first worker's process dies: PostgreSQL ends its session and releases the lock.
    const admin = new pg.Client({ connectionString: database.url });
    await admin.connect();
    try {
      const { rowCount } = await admin.query(
        `SELECT pg_terminate_backend(pid) FROM pg_stat_activity
          WHERE datname = current_database() AND pid <> pg_backend_pid()
            AND state LIKE 'idle in transaction%'`,
      );
      expect(rowCount).toBe(1);
    } finally {
      await admin.end();
    }
    await waitFor(async () => (await survivor.worker.runOnce()).sent === 1);
    finishSend!();
    await expect(dyingRun).rejects.toThrow();
    expect(peer.received.map((mail) => mail.to)).toEqual([['held@example.com']]);
    expect(await rowsOf(survivor.db)).toMatchObject([{ status: 'sent', attempts: 0 }]);
  });

  describe('chat digest', () => {
    let db: Db;
    let caseIds: [number, number];
    let patientName: string;
    const ids = { doctor: 0, planner: 0, clinic: 0 };
    const at = (minutesAgo: number) => new Date(Date.now() - minutesAgo * 60_000);

    beforeAll(async () => {
      db = shared.db;
      const found = await db
        .select({ id: cases.id, fname: patients.fname, lname: patients.lname })
        .from(cases)
        .innerJoin(patients, eq(patients.id, cases.patientId))
        .orderBy(asc(cases.id))
        .limit(2);
      expect(found).toHaveLength(2);
      caseIds = [found[0]!.id, found[1]!.id];
      patientName = `${found[0]!.fname} ${found[0]!.lname}`;
      const people = await db
        .select({ id: users.id, nickName: users.nickName })
        .from(users)
        .where(inArray(users.nickName, ['doctor', 'planner', 'clinic']));
      for (const person of people) ids[person.nickName as keyof typeof ids] = person.id;
      // The doctor keeps the defaults (public chat included) and reads Spanish; the planner
      // wants no chat mail; the clinic wants every chat channel and reads English.
      await db
        .update(users)
        .set({
          emailNotifications: null,
          dataInfo: sql`jsonb_set(${users.dataInfo}, '{language}', '"es"')`,
        })
        .where(eq(users.id, ids.doctor));
      await db
        .update(users)
        .set({ emailNotifications: [9, 21] })
        .where(eq(users.id, ids.planner));
      await db
        .update(users)
        .set({
          emailNotifications: [3, 4, 5, 13],
          dataInfo: sql`jsonb_set(${users.dataInfo}, '{language}', '"en"')`,
        })
        .where(eq(users.id, ids.clinic));
    });

    it('sends one digest per user for the unseen chat notifications they want, then none', async () => {
      peer = await startSmtpPeer();
      const { db, worker } = await instance({ smtpUrl: peer.url });
      const [caseA, caseB] = caseIds;
      const row = (userId: number, caseId: number, eventType: number, minutesAgo: number) => ({
        userId,
        caseId,
        eventType,
        createdAt: at(minutesAgo),
        path: `/case/${caseId}?tab=chat&channel=${eventType}`,
      });
      const inserted = await db
        .insert(notifications)
        .values([
          row(ids.doctor, caseA, 3, 15),
          row(ids.doctor, caseA, 3, 12),
          row(ids.doctor, caseB, 3, 11),
          row(ids.doctor, caseA, 4, 20), // internal chat: not among the doctor's email types
          row(ids.doctor, caseA, 9, 20), // not a chat type: mailed on its own, not here
          row(ids.planner, caseA, 3, 30), // the planner wants no chat mail
          row(ids.clinic, caseA, 5, 2), // too recent for a digest
          { ...row(ids.clinic, caseB, 13, 30), viewedAt: at(1) }, // already seen
        ])
        .returning({ id: notifications.id });

      expect(await worker.runDigest()).toEqual({ mails: 1, notifications: 3 });
      expect(await worker.runOnce()).toEqual({ sent: 1, failed: 0 });
      expect(peer.received).toHaveLength(1);
      const [digest] = peer.received;
      expect(digest!.to).toEqual(['doctor@dentflow.local']);
      const raw = unfolded(digest!.raw);
      expect(raw).toContain('Tiene 3 mensajes sin leer en Dentflow');
      expect(raw).toContain(`Chat Público del caso #${caseA} (${patientName}): 2 mensajes nuevos`);
      expect(raw).toMatch(
        new RegExp(`Chat Público del caso #${caseB} \\([^)]+\\): 1 mensaje nuevo`),
      );
      expect(raw).toContain(`http://dentflow.test/case/${caseA}?tab=chat&channel=3`);

      const mailed = await db
        .select({ id: notifications.id, sentAt: notifications.sentAt })
        .from(notifications)
        .where(
          inArray(
            notifications.id,
            inserted.map((n) => n.id),
          ),
        )
        .orderBy(asc(notifications.id));
      expect(mailed.map((n) => n.sentAt !== null)).toEqual([
        true,
        true,
        true,
        false,
        false,
        false,
        false,
        false,
      ]);

      // Nothing twice; the clinic's message joins a digest once it is ten minutes old.
      expect(await worker.runDigest()).toEqual({ mails: 0, notifications: 0 });
      expect(await worker.runDigest(new Date(Date.now() + 9 * 60_000))).toEqual({
        mails: 1,
        notifications: 1,
      });
      expect(await worker.runOnce()).toEqual({ sent: 1, failed: 0 });
      expect(peer.received[1]!.to).toEqual(['clinic@dentflow.local']);
      expect(unfolded(peer.received[1]!.raw)).toContain('You have 1 unread message on Dentflow');
    });

    it('lets one instance at a time build the digests', async () => {
      const a = await instance();
      const b = await instance();
      await a.db.insert(notifications).values(
        [3, 3, 3].map((eventType) => ({
          userId: ids.doctor,
          caseId: caseIds[0],
          eventType,
          createdAt: at(20),
        })),
      );
      const results = await Promise.all([a.worker.runDigest(), b.worker.runDigest()]);
      expect(results.map((r) => r.mails).sort()).toEqual([0, 1]);
      expect(results.reduce((sum, r) => sum + r.notifications, 0)).toBe(3);
      const queued = await rowsOf(a.db);
      expect(queued.filter((mail) => mail.template === 'chatDigest')).toHaveLength(1);
    });
  });
});

describe('the mail worker on PGlite (one process: the row is leased, not held)', () => {
  let dir: string;
  let lite: Instance | undefined;
  beforeAll(() => {
    dir = mkdtempSync(join(tmpdir(), 'dentflow-mail-lite-'));
  });
  afterAll(async () => {
    await lite?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('is woken by a commit, writes the mail once, and ignores a rolled-back one', async () => {
    const outboxDir = join(dir, 'outbox');
    lite = await startInstance({ pgliteDir: join(dir, 'db'), outboxDir });
    await lite.worker.start();
    const files = () => {
      try {
        return readdirSync(outboxDir).filter((file) => file.endsWith('.eml'));
      } catch {
        return [];
      }
    };
    await expect(
      lite.db.transaction(async (tx) => {
        await enqueueMail(tx, notice('never@example.com'));
        throw new Error('refused');
      }),
    ).rejects.toThrow('refused');
    await lite.db.transaction(async (tx) => enqueueMail(tx, notice('lite@example.com')));
    await waitFor(() => files().length === 1);
    await lite.worker.idle();
    expect(await lite.worker.runOnce()).toEqual({ sent: 0, failed: 0 });
    expect(files()).toHaveLength(1);
    expect(await rowsOf(lite.db)).toMatchObject([
      { recipient: 'lite@example.com', status: 'sent' },
    ]);
  });
});
