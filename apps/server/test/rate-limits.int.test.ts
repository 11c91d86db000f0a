import type { FastifyInstance, LightMyRequestResponse } from 'fastify';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createRedisCounters } from '../src/adapters/rate-limit/rate-counters';
import {
  caseApi,
  caseInStatus,
  codeOf,
  createUser,
  objOf,
  type CaseSetup,
  VALIDATE_BILLED_LATER,
} from './support/cases-fixtures';
import { createCase } from './support/storage-fixtures';
import { bearer, login, startTestApp, type Session, type TestApp } from './support/test-app';

/**
 * Only what checks a password is limited like a login — per account and per client address —
 * and ordinary case moves get a generous limit per user, so a lab behind one office address
 * works through a batch and concurrent identical moves answer 200 and 409s.
 */

const REDIS_URL = process.env.TEST_REDIS_URL ?? 'redis://127.0.0.1:6379';
const PASSWORD = 'Dentflow123';
/** The limits under test; the rest of the suite runs with generous ones (support/test-app). */
const DEFAULTS = {
  RATE_LIMIT_LOGIN_MAX: '20',
  RATE_LIMIT_CASE_MOVE_MAX: '300',
  RATE_LIMIT_PASSWORD_ACCOUNT_MAX: '10',
  RATE_LIMIT_PASSWORD_ADDRESS_MAX: '20',
};
const TIGHT = {
  ...DEFAULTS,
  RATE_LIMIT_CASE_MOVE_MAX: '3',
  RATE_LIMIT_PASSWORD_ACCOUNT_MAX: '3',
  RATE_LIMIT_PASSWORD_ADDRESS_MAX: '3',
};

const apps: TestApp[] = [];
afterAll(async () => {
  // Last started first: a second instance leaves before the database it shares is dropped.
  for (const t of apps.reverse()) await t.close();
});
async function start(env: Record<string, string>) {
  const t = await startTestApp(env);
  apps.push(t);
  return t;
}

/** A fresh client address per call, so one test's counts never reach another's. */
let addresses = 0;
const nextAddress = () => `10.9.${Math.floor(++addresses / 250)}.${(addresses % 250) + 1}`;

const loginNameOf = (session: Session) =>
  (session.profile.dataGeneral as { nickName: string }).nickName;

const statusesOf = (responses: LightMyRequestResponse[]) => responses.map((r) => r.statusCode);

function approve(
  app: FastifyInstance,
  session: Session,
  caseId: number,
  password: string,
  from: string,
) {
  return app.inject({
    method: 'POST',
    url: `/api/v1/case/${caseId}/move`,
    headers: bearer(session),
    payload: { action: 'approve', password, text: 'ok', serviceIds: [1] },
    remoteAddress: from,
  });
}

function loginFrom(app: FastifyInstance, loginName: string, password: string, from: string) {
  return app.inject({
    method: 'POST',
    url: '/api/v1/auth/login',
    payload: { login: loginName, password },
    remoteAddress: from,
  });
}

function profileCall(
  app: FastifyInstance,
  session: Session,
  route: 'updatePassword' | 'delete',
  password: string,
  from: string,
) {
  return app.inject({
    method: 'POST',
    url: `/api/v1/profile/${route}`,
    headers: bearer(session),
    payload:
      route === 'delete'
        ? { password }
        : {
            currentPassword: password,
            newPassword: 'Another-Passw0rd1',
            confirmPassword: 'Another-Passw0rd1',
          },
    remoteAddress: from,
  });
}

/** Runs one request after another (order matters to a counter). */
async function inTurn(calls: (() => Promise<LightMyRequestResponse>)[]) {
  const responses: LightMyRequestResponse[] = [];
  for (const call of calls) responses.push(await call());
  return responses;
}

describe('ordinary case moves (default limits)', () => {
  let t: TestApp;
  let setup: CaseSetup;
  beforeAll(async () => {
    t = await start(DEFAULTS);
    setup = {
      app: t.app,
      owner: await login(t.app, 'doctor'),
      supervisor: await login(t.app, 'supervisor'),
      planner: await login(t.app, 'planner'),
      printer: await login(t.app, 'printer'),
    };
  });

  it('a supervisor works through 26 moves from one office address, more than a login may', async () => {
    const api = caseApi(t.app);
    const id = await caseInStatus(setup, 'execute');
    const statuses: number[] = [];
    for (let round = 0; round < 13; round++) {
      statuses.push(
        (await api(setup.supervisor, 'POST', `${id}/move`, { action: 'backToNew' })).statusCode,
      );
      expect((await api(setup.owner, 'POST', `${id}/move`, { action: 'submit' })).statusCode).toBe(
        200,
      );
      statuses.push(
        (await api(setup.supervisor, 'POST', `${id}/move`, { action: 'validate' })).statusCode,
      );
    }
    expect(statuses).toEqual(Array(26).fill(200));
  }, 60_000);

  it('5 identical validate moves at once: one 200 and 409s, never 429', async () => {
    const api = caseApi(t.app);
    const id = await caseInStatus(setup, 'checkingout');
    await api(setup.supervisor, 'POST', `${id}/planner`, { plannerId: setup.planner.profile.id });
    const answers = await Promise.all(
      [1, 2, 3, 4, 5].map(() => api(setup.supervisor, 'POST', `${id}/move`, VALIDATE_BILLED_LATER)),
    );
    expect(statusesOf(answers).sort()).toEqual([200, 409, 409, 409, 409]);
    for (const refused of answers.filter((a) => a.statusCode === 409)) {
      expect(['INVALID_TRANSITION', 'CASE_CHANGED']).toContain(codeOf(refused));
    }
    expect(objOf(await api(setup.supervisor, 'GET', `${id}/get`)).caseStatus).toBe('execute');
  }, 30_000);
});

describe('tight limits', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await start(TIGHT);
  });

  it('moves are counted per user, not per address', async () => {
    const supervisor = await createUser(t.app, ['supervisor']);
    const colleague = await createUser(t.app, ['supervisor']);
    const office = nextAddress();
    const move = (session: Session) =>
      t.app.inject({
        method: 'POST',
        url: '/api/v1/case/1/move',
        headers: bearer(session),
        payload: { action: 'close' },
        remoteAddress: office,
      });
    const mine = await inTurn([1, 2, 3, 4].map(() => () => move(supervisor)));
    expect(statusesOf(mine).slice(0, 3)).not.toContain(429);
    expect(mine[3]!.statusCode).toBe(429);
    expect(codeOf(mine[3]!)).toBe('RATE_LIMITED');
    expect((await move(colleague)).statusCode).not.toBe(429);
  });

  it('approve: wrong passwords are limited per account, from any number of addresses', async () => {
    const owner = await createUser(t.app, ['doctor']);
    const caseId = await createCase(t.app.database.db, { ownerId: owner.profile.id });
    const wrong = await inTurn(
      [1, 2, 3, 4].map(() => () => approve(t.app, owner, caseId, 'wrong', nextAddress())),
    );
    expect(statusesOf(wrong)).toEqual([400, 400, 400, 429]);
    expect(codeOf(wrong[0]!)).toBe('WRONG_PASSWORD');
    expect(codeOf(wrong[3]!)).toBe('RATE_LIMITED');
    // Until the window ends the account's password is not checked at all, by any route.
    expect((await approve(t.app, owner, caseId, PASSWORD, nextAddress())).statusCode).toBe(429);
    const nick = loginNameOf(owner);
    expect((await loginFrom(t.app, nick, PASSWORD, nextAddress())).statusCode).toBe(429);
  });

  it('approve: wrong passwords are limited per address, across accounts', async () => {
    const owners = [
      await createUser(t.app, ['doctor']),
      await createUser(t.app, ['clinic']),
      await createUser(t.app, ['doctor']),
    ];
    const cases: number[] = [];
    for (const o of owners)
      cases.push(await createCase(t.app.database.db, { ownerId: o.profile.id }));
    const office = nextAddress();
    const wrong = await inTurn(
      [0, 1, 2, 0].map((i) => () => approve(t.app, owners[i]!, cases[i]!, 'wrong', office)),
    );
    expect(statusesOf(wrong)).toEqual([400, 400, 400, 429]);
    // From elsewhere each account still has its own allowance; a blocked try did not count.
    expect((await approve(t.app, owners[0]!, cases[0]!, 'wrong', nextAddress())).statusCode).toBe(
      400,
    );
  });

  it('login: limited per account across addresses and per address across accounts, unknown logins alike', async () => {
    const user = await createUser(t.app, ['doctor']);
    const nick = loginNameOf(user);
    const perAccount = await inTurn(
      [1, 2, 3, 4].map(() => () => loginFrom(t.app, nick, 'wrong', nextAddress())),
    );
    expect(statusesOf(perAccount)).toEqual([401, 401, 401, 429]);

    const unknown = `nobody-${Date.now()}`;
    const perUnknown = await inTurn(
      [1, 2, 3, 4].map(() => () => loginFrom(t.app, unknown, 'wrong', nextAddress())),
    );
    expect(statusesOf(perUnknown)).toEqual([401, 401, 401, 429]);

    const others = [await createUser(t.app, ['clinic']), await createUser(t.app, ['clinic'])];
    const office = nextAddress();
    const perAddress = await inTurn(
      [
        loginNameOf(others[0]!),
        loginNameOf(others[1]!),
        `x-${unknown}`,
        loginNameOf(others[0]!),
      ].map((name) => () => loginFrom(t.app, name, 'wrong', office)),
    );
    expect(statusesOf(perAddress)).toEqual([401, 401, 401, 429]);
  });

  it('right passwords never add up: many logins and approvals from one address', async () => {
    const owner = await createUser(t.app, ['doctor']);
    const caseId = await createCase(t.app.database.db, { ownerId: owner.profile.id });
    const office = nextAddress();
    const nick = loginNameOf(owner);
    const rights = await inTurn(
      [1, 2, 3, 4, 5, 6].map(() => () => loginFrom(t.app, nick, PASSWORD, office)),
    );
    expect(statusesOf(rights)).toEqual(Array(6).fill(200));
    // The approval itself is refused by the case's status, after the password passed (three:
    // the move limit per user is three here too).
    const approvals = await inTurn(
      [1, 2, 3].map(() => () => approve(t.app, owner, caseId, PASSWORD, office)),
    );
    expect(statusesOf(approvals)).toEqual([409, 409, 409]);
    const wrong = await inTurn(
      [1, 2, 3, 4].map(() => () => loginFrom(t.app, nick, 'wrong', office)),
    );
    expect(statusesOf(wrong)).toEqual([401, 401, 401, 429]);
  });

  it('password change and account deletion share the account’s limit', async () => {
    const user = await createUser(t.app, ['doctor']);
    const calls = await inTurn([
      () => profileCall(t.app, user, 'updatePassword', 'wrong', nextAddress()),
      () => profileCall(t.app, user, 'delete', 'wrong', nextAddress()),
      () => profileCall(t.app, user, 'updatePassword', 'wrong', nextAddress()),
      () => profileCall(t.app, user, 'delete', 'wrong', nextAddress()),
      () => profileCall(t.app, user, 'updatePassword', PASSWORD, nextAddress()),
    ]);
    expect(statusesOf(calls)).toEqual([400, 400, 400, 429, 429]);
    expect(codeOf(calls[0]!)).toBe('WRONG_PASSWORD');
    // Still there: the blocked deletion never ran.
    expect(
      (
        await t.app.inject({
          method: 'GET',
          url: '/api/v1/profile/get',
          headers: bearer(user),
        })
      ).statusCode,
    ).toBe(200);
  });
});

describe('through Redis (REDIS_URL): two instances count together', () => {
  let a: TestApp;
  let b: TestApp;
  beforeAll(async () => {
    a = await start({ ...TIGHT, REDIS_URL });
    // The second instance on the first one's database, as behind a load balancer.
    b = await startTestApp({ ...TIGHT, REDIS_URL }, { databaseUrl: a.config.databaseUrl });
    apps.push(b);
  });

  // Logins and addresses of their own: other runs against the same Redis do not count here.
  const unique = () => `${Date.now().toString(36)}-${Math.random().toString(36).slice(2)}`;
  const randomAddress = () =>
    `172.${16 + Math.floor(Math.random() * 16)}.${Math.floor(Math.random() * 256)}.${1 + Math.floor(Math.random() * 254)}`;

  it('per account: wrong passwords on both instances, from several addresses', async () => {
    const name = `nobody-${unique()}`;
    const answers = await inTurn(
      [a, b, a, b].map((t) => () => loginFrom(t.app, name, 'wrong', randomAddress())),
    );
    expect(statusesOf(answers)).toEqual([401, 401, 401, 429]);
  });

  it('per address: wrong passwords on both instances, for several accounts', async () => {
    const address = randomAddress();
    const answers = await inTurn(
      [a, b, a, b].map((t) => () => loginFrom(t.app, `nobody-${unique()}`, 'wrong', address)),
    );
    expect(statusesOf(answers)).toEqual([401, 401, 401, 429]);
  });

  it('the Redis counters: one window per key, undo never below zero', async () => {
    const redis = new Redis(REDIS_URL);
    try {
      const counters = createRedisCounters(redis, 'dentflow-test-');
      const key = `counter-${unique()}`;
      expect(await counters.hit(key, 60_000)).toBe(1);
      expect(await counters.hit(key, 60_000)).toBe(2);
      const ttl = await redis.pttl(`dentflow-test-${key}`);
      expect(ttl).toBeGreaterThan(0);
      expect(ttl).toBeLessThanOrEqual(60_000);
      await counters.undo(key);
      await counters.undo(key);
      await counters.undo(key);
      expect(await counters.hit(key, 60_000)).toBe(1);
      // The window is the first hit's: later hits do not extend it.
      expect(await redis.pttl(`dentflow-test-${key}`)).toBeLessThanOrEqual(ttl);
      await redis.del(`dentflow-test-${key}`);
    } finally {
      redis.disconnect();
    }
  });
});
