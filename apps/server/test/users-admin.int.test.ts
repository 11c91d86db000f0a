import { and, desc, eq, sql } from 'drizzle-orm';
import type { LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { translate, type AdminUser, type UserPick, type UsersPage } from '@dentflow/domain';
import { auditLog, cases, mailOutbox, users } from '../src/db/schema';
import { caseApi, createUser } from './support/cases-fixtures';
import { bearer, json, login, startTestApp, type Session, type TestApp } from './support/test-app';

let t: TestApp;
let admin: Session;
let supervisor: Session;
let doctor: Session;
let planner: Session;
beforeAll(async () => {
  t = await startTestApp();
  admin = await login(t.app, 'admin');
  supervisor = await login(t.app, 'supervisor');
  doctor = await login(t.app, 'doctor');
  planner = await login(t.app, 'planner');
});
afterAll(async () => {
  await t?.close();
});

type Method = 'GET' | 'POST' | 'DELETE';
const BASE = '/api/v1/users';

const call = (
  session: { accessToken: string } | null,
  method: Method,
  url: string,
  payload?: object,
  headers: Record<string, string> = {},
) =>
  t.app.inject({
    method,
    url: `${BASE}/${url}`,
    headers: { ...(session ? bearer(session) : {}), ...headers },
    ...(payload ? { payload } : {}),
  });

const obj = <T>(response: LightMyRequestResponse): T => json<{ obj: T }>(response).obj;
const errorOf = (response: LightMyRequestResponse) =>
  json<{ error: string; code: string; fields?: Record<string, string> }>(response);

async function ok<T>(response: Promise<LightMyRequestResponse>): Promise<T> {
  const answer = await response;
  if (answer.statusCode !== 200) throw new Error(`${answer.statusCode} ${answer.body}`);
  return obj<T>(answer);
}

/** A session's general profile data (nickname, email…). */
const generalOf = (session: Session) =>
  session.profile.dataGeneral as { nickName: string; email: string; displayName: string };

const refresh = (refreshToken: string) =>
  t.app.inject({
    method: 'POST',
    url: '/api/v1/auth/refresh_token',
    payload: { refresh_token: refreshToken },
  });

const getUser = (id: number) => ok<AdminUser>(call(admin, 'GET', `get/${id}`));
const auditRows = (entityId: number, action: string) =>
  t.app.database.db
    .select()
    .from(auditLog)
    .where(
      and(
        eq(auditLog.entity, 'user'),
        eq(auditLog.entityId, String(entityId)),
        eq(auditLog.action, action),
      ),
    )
    .orderBy(desc(auditLog.id));

/** Registers an account through the public API (unverified, one verification mail queued). */
async function registerUnverified(): Promise<{ id: number; email: string }> {
  const nick = `reg${Date.now().toString(36)}${Math.floor(Math.random() * 1e4)}`;
  const email = `${nick}@users.test`;
  const response = await t.app.inject({
    method: 'POST',
    url: '/api/v1/auth/register',
    payload: {
      email,
      nickName: nick,
      fname: 'Reg',
      lname: 'User',
      password: 'Dentflow123',
      terms: true,
    },
  });
  if (response.statusCode !== 200) throw new Error(`${response.statusCode} ${response.body}`);
  return { id: obj<{ id: number }>(response).id, email };
}

const outboxCount = async (recipient: string) => {
  const [row] = await t.app.database.db
    .select({ count: sql<number>`count(*)::int` })
    .from(mailOutbox)
    .where(eq(mailOutbox.recipient, recipient));
  return row?.count ?? 0;
};

describe('who may call the users administration', () => {
  it('lets supervisors read only, refuses doctors and planners (403) and anonymous callers (401)', async () => {
    const target = await createUser(t.app, ['doctor']);
    const id = target.profile.id;
    const reads: [Method, string][] = [
      ['GET', 'list/0'],
      ['GET', `get/${id}`],
      ['GET', 'query_user/name/demo'],
    ];
    const writes: [Method, string, object?][] = [
      ['POST', `${id}/set`, { internal: true }],
      ['DELETE', `delete/${id}`],
      ['POST', `setPassword/${id}`, { password: 'Another123' }],
      ['GET', `resendEmail/${id}`],
    ];
    const before = await getUser(id);
    for (const [method, url] of reads) {
      expect((await call(supervisor, method, url)).statusCode, `supervisor ${url}`).toBe(200);
    }
    for (const [method, url, payload] of writes) {
      const answer = await call(supervisor, method, url, payload);
      expect(answer.statusCode, `supervisor ${method} ${url}`).toBe(403);
      expect(errorOf(answer).code).toBe('FORBIDDEN');
    }
    for (const session of [doctor, planner]) {
      for (const [method, url, payload] of [...reads, ...writes]) {
        const answer = await call(session, method, url, payload);
        expect(answer.statusCode, `${session.profile.roles} ${method} ${url}`).toBe(403);
        expect(errorOf(answer).code).toBe('FORBIDDEN');
      }
    }
    for (const [method, url, payload] of [
      ...reads,
      ...writes,
      ['GET', 'instructor/list'] as const,
    ]) {
      const answer = await call(null, method, url, payload);
      expect(answer.statusCode, `anonymous ${method} ${url}`).toBe(401);
      expect(errorOf(answer).code).toBe('NOT_AUTHORIZED');
    }
    // The refused calls changed nothing and ended no session.
    expect(await getUser(id)).toEqual(before);
    expect((await caseApi(t.app)(target, 'GET', 'counts')).statusCode).toBe(200);
  });

  it('gives the instructor list to any signed-in user', async () => {
    for (const session of [admin, supervisor, doctor, planner]) {
      expect((await call(session, 'GET', 'instructor/list')).statusCode).toBe(200);
    }
  });

  it('lets an admin read every route', async () => {
    const page = await ok<UsersPage>(call(admin, 'GET', 'list/0'));
    expect(page.page).toBe(0);
    expect(page.total).toBeGreaterThanOrEqual(8);
    expect(page.items.length).toBeLessThanOrEqual(page.pageSize);
    const self = await getUser(admin.profile.id);
    expect(self).toMatchObject({ canEdit: true, canDelete: false });
    const asSupervisor = await ok<AdminUser>(call(supervisor, 'GET', `get/${doctor.profile.id}`));
    expect(asSupervisor).toMatchObject({ canEdit: false, canDelete: false });
    expect(asSupervisor.dataGeneral.nickName).toBe('doctor');
  });
});

describe('listing and searching users', () => {
  it('filters by role, verified and internal, and finds names without regard to accents', async () => {
    const target = await createUser(t.app, ['partner']);
    const unique = Date.now().toString(36);
    await ok(
      call(admin, 'POST', `${target.profile.id}/set`, {
        dataGeneral: { displayName: `João Ñandú ${unique}` },
      }),
    );
    const search = (q: string, filters = '') =>
      ok<UsersPage>(call(admin, 'GET', `list/0?q=${encodeURIComponent(q)}${filters}`));
    for (const q of [`joao nandu ${unique}`, `JOÃO ÑANDÚ ${unique}`, `ñandu ${unique}`]) {
      const page = await search(q);
      expect(
        page.items.map((u) => u.id),
        q,
      ).toEqual([target.profile.id]);
    }
    const byNick = await search(generalOf(target).nickName);
    expect(byNick.items.map((u) => u.id)).toEqual([target.profile.id]);
    const byEmail = await search(`${generalOf(target).nickName}@CASES.test`);
    expect(byEmail.items.map((u) => u.id)).toEqual([target.profile.id]);
    // A like wildcard is a literal character here.
    expect((await search('%')).total).toBe(0);

    expect((await search(unique, '&role=partner')).total).toBe(1);
    expect((await search(unique, '&role=doctor')).total).toBe(0);
    expect((await search(unique, '&verified=true&internal=false')).total).toBe(1);
    expect((await search(unique, '&verified=false')).total).toBe(0);
    expect((await search(unique, '&internal=true')).total).toBe(0);

    const internal = await ok<UsersPage>(call(admin, 'GET', 'list/0?internal=true&role=admin'));
    expect(internal.items.every((u) => u.internal && u.roles.includes('admin'))).toBe(true);
    expect(internal.items.some((u) => u.id === admin.profile.id)).toBe(true);

    const pending = await registerUnverified();
    const unverified = await ok<UsersPage>(
      call(admin, 'GET', `list/0?verified=false&q=${encodeURIComponent(pending.email)}`),
    );
    expect(unverified.items).toMatchObject([{ id: pending.id, verified: false }]);
  });

  it('pages through the users', async () => {
    const first = await ok<UsersPage>(call(admin, 'GET', 'list/0'));
    const last = Math.ceil(first.total / first.pageSize) - 1;
    const beyond = await ok<UsersPage>(call(admin, 'GET', `list/${last + 1}`));
    expect(beyond.items).toEqual([]);
    expect(beyond.total).toBe(first.total);
  });

  it('answers pickers with at most 10 users by email, nickname or name', async () => {
    for (let i = 0; i < 11; i++) await createUser(t.app, ['doctor']);
    const many = await ok<UserPick[]>(call(admin, 'GET', 'query_user/email/cases.test'));
    expect(many).toHaveLength(10);
    const byNick = await ok<UserPick[]>(call(supervisor, 'GET', 'query_user/nickname/PLANNER'));
    expect(byNick.map((u) => u.nickName)).toContain('planner');
    const byName = await ok<UserPick[]>(call(admin, 'GET', 'query_user/name/supervisor demo'));
    expect(byName).toMatchObject([{ nickName: 'supervisor', roles: ['supervisor'] }]);
  });

  it('lists verified instructors with their discount', async () => {
    const instructors = await ok<{ id: number; displayName: string; instructorDiscount: number }[]>(
      call(doctor, 'GET', 'instructor/list'),
    );
    expect(instructors).toContainEqual({
      id: expect.any(Number),
      displayName: 'Instructor Demo',
      instructorDiscount: 10,
    });
    expect(instructors.every((i) => typeof i.instructorDiscount === 'number')).toBe(true);
  });
});

describe('changing a user', () => {
  it('changes profile sections, flags and capabilities, with an audit row of before and after', async () => {
    const target = await createUser(t.app, ['doctor']);
    const id = target.profile.id;
    const instructorId = (await login(t.app, 'instructor')).profile.id;
    const saved = await ok<AdminUser>(
      call(admin, 'POST', `${id}/set`, {
        dataGeneral: { fname: 'Changed', displayName: 'Changed Name' },
        dataInfo: { bio: 'Set by an admin' },
        dataAddress: {
          zipCode: '20000-000',
          country: 'Brasil',
          state: 'RJ',
          city: 'Rio de Janeiro',
          address: 'Rua A, 1',
          complement: '',
        },
        internal: true,
        dataCapabilities: { physicalCreditCard: true, instructorDiscount: 15, instructorId },
      }),
    );
    expect(saved).toMatchObject({
      internal: true,
      dataGeneral: { fname: 'Changed', displayName: 'Changed Name' },
      dataInfo: { bio: 'Set by an admin', language: 'en' },
      dataAddress: { city: 'Rio de Janeiro' },
      dataCapabilities: {
        physicalCreditCard: true,
        instructorDiscount: 15,
        instructorId,
        clinicPartner: false,
      },
    });
    expect(await getUser(id)).toEqual(saved);
    const [audit] = await auditRows(id, 'user.set');
    expect(audit?.actorUserId).toBe(admin.profile.id);
    expect(audit?.details).toMatchObject({
      before: { fname: 'Test', internal: false, dataInfo: { bio: '' } },
      after: { fname: 'Changed', internal: true, dataInfo: { bio: 'Set by an admin' } },
    });
    expect(audit?.details.changed).toEqual(
      expect.arrayContaining(['fname', 'displayName', 'dataInfo', 'dataAddress', 'internal']),
    );
    expect(audit?.details.changed).not.toContain('lname');

    // Saving the same values again changes nothing and writes no row.
    await ok(call(admin, 'POST', `${id}/set`, { internal: true }));
    expect(await auditRows(id, 'user.set')).toHaveLength(1);
  });

  it('applies a changed role on the user’s next request', async () => {
    const target = await createUser(t.app, ['doctor']);
    const id = target.profile.id;
    expect((await call(target, 'GET', 'list/0')).statusCode).toBe(403);
    await ok(call(admin, 'POST', `${id}/set`, { roles: ['doctor', 'admin'] }));
    expect((await call(target, 'GET', 'list/0')).statusCode).toBe(200);
    await ok(call(admin, 'POST', `${id}/set`, { roles: ['doctor', 'doctor'] }));
    expect((await getUser(id)).roles).toEqual(['doctor', 'public']);
    expect((await call(target, 'GET', 'list/0')).statusCode).toBe(403);
    const [audit] = await auditRows(id, 'user.set');
    expect(audit?.details).toMatchObject({
      before: { roles: ['doctor', 'admin'] },
      after: { roles: ['doctor'] },
    });
  });

  it('refuses an admin removing their own admin role (no lock-out), in the caller’s language', async () => {
    const answer = await call(admin, 'POST', `${admin.profile.id}/set`, {
      roles: ['supervisor'],
    });
    expect(answer.statusCode).toBe(409);
    expect(errorOf(answer)).toMatchObject({
      code: 'SELF_LOCKOUT',
      error: translate('en', 'errors', 'api.SELF_LOCKOUT'),
    });
    // The admin may still change their other roles and keeps admin rights.
    await ok(call(admin, 'POST', `${admin.profile.id}/set`, { roles: ['admin'] }));
    expect((await call(admin, 'GET', 'list/0')).statusCode).toBe(200);

    const selfDelete = await call(admin, 'DELETE', `delete/${admin.profile.id}`, undefined, {
      'accept-language': 'pt-BR',
    });
    expect(selfDelete.statusCode).toBe(409);
    expect(errorOf(selfDelete).code).toBe('SELF_LOCKOUT');
    expect(errorOf(selfDelete).error).toBe(translate('en', 'errors', 'api.SELF_LOCKOUT')); // the profile's language wins
    const ptBRAdmin = await createUser(t.app, ['admin'], { language: 'ptBR' });
    const inPortuguese = await call(ptBRAdmin, 'DELETE', `delete/${ptBRAdmin.profile.id}`);
    expect(errorOf(inPortuguese)).toMatchObject({
      code: 'SELF_LOCKOUT',
      error: translate('ptBR', 'errors', 'api.SELF_LOCKOUT'),
    });
  });

  it('answers bad input with a translated 400 and changes nothing', async () => {
    const target = await createUser(t.app, ['doctor']);
    const id = target.profile.id;
    const before = await getUser(id);
    const bad: [Method, string, object?][] = [
      ['POST', `${id}/set`, { roles: ['emperor'] }],
      ['POST', `${id}/set`, { roles: [] }],
      ['POST', `${id}/set`, { dataGeneral: { email: 'x@y.z' } }],
      ['POST', `${id}/set`, { dataCapabilities: { instructorDiscount: 101 } }],
      ['POST', `${id}/set`, { internal: 'yes' }],
      ['POST', 'abc/set', { internal: true }],
      ['POST', '0/set', { internal: true }],
      ['GET', 'get/-1'],
      ['GET', 'get/99999999999'],
      ['GET', 'list/x'],
      ['GET', 'list/0?role=emperor'],
      ['GET', 'list/0?verified=maybe'],
      ['GET', 'query_user/phone/123'],
      ['DELETE', 'delete/abc'],
      ['POST', `setPassword/${id}`, { password: 'short' }],
      ['POST', `setPassword/${id}`, {}],
      ['GET', 'resendEmail/1.5'],
    ];
    for (const [method, url, payload] of bad) {
      const answer = await call(admin, method, url, payload);
      expect(answer.statusCode, `${method} ${url} ${JSON.stringify(payload)}`).toBe(400);
      expect(errorOf(answer)).toMatchObject({
        code: 'VALIDATION_ERROR',
        error: translate('en', 'errors', 'api.VALIDATION_ERROR'),
      });
    }
    const badInstructor = await call(admin, 'POST', `${id}/set`, {
      dataCapabilities: { instructorId: doctor.profile.id },
    });
    expect(badInstructor.statusCode).toBe(400);
    expect(errorOf(badInstructor).fields).toEqual({
      'dataCapabilities.instructorId': translate('en', 'errors', 'validation.invalid'),
    });
    const taken = await call(admin, 'POST', `${id}/set`, { dataGeneral: { nickName: 'Doctor' } });
    expect(taken.statusCode).toBe(409);
    expect(errorOf(taken).code).toBe('NICKNAME_TAKEN');
    for (const url of ['get/99999', '99999/set', 'delete/99999', 'resendEmail/99999']) {
      const method: Method = url.endsWith('set')
        ? 'POST'
        : url.startsWith('delete')
          ? 'DELETE'
          : 'GET';
      const answer = await call(
        admin,
        method,
        url,
        method === 'POST' ? { internal: true } : undefined,
      );
      expect(answer.statusCode, url).toBe(404);
    }
    expect(await getUser(id)).toEqual(before);
  });
});

describe('passwords and verification mails', () => {
  it('sets a password and ends every session of the user', async () => {
    const target = await createUser(t.app, ['doctor']);
    const id = target.profile.id;
    const nick = generalOf(target).nickName;
    expect((await call(target, 'GET', 'instructor/list')).statusCode).toBe(200);
    // A second session, whose refresh works until the password is set.
    const other = await login(t.app, nick, 'Dentflow123', true);
    const rotated = await refresh(other.refreshToken);
    expect(rotated.statusCode).toBe(200);
    expect(await ok(call(admin, 'POST', `setPassword/${id}`, { password: 'BrandNew123' }))).toEqual(
      { updated: true },
    );
    expect((await call(target, 'GET', 'instructor/list')).statusCode).toBe(401);
    expect((await refresh(obj<Session>(rotated).refreshToken)).statusCode).toBe(401);
    expect((await refresh(target.refreshToken)).statusCode).toBe(401);
    await expect(login(t.app, nick)).rejects.toThrow(/401/);
    const fresh = await login(t.app, nick, 'BrandNew123');
    expect((await call(fresh, 'GET', 'instructor/list')).statusCode).toBe(200);
    const [audit] = await auditRows(id, 'user.set_password');
    expect(audit?.actorUserId).toBe(admin.profile.id);
    expect(JSON.stringify(audit?.details)).not.toContain('BrandNew123');
  });

  it('queues one verification mail for an unverified account, and none for a verified one', async () => {
    const pending = await registerUnverified();
    const before = await outboxCount(pending.email);
    expect(await ok(call(admin, 'GET', `resendEmail/${pending.id}`))).toEqual({ sent: true });
    expect(await outboxCount(pending.email)).toBe(before + 1);
    const [row] = await t.app.database.db
      .select()
      .from(mailOutbox)
      .where(eq(mailOutbox.recipient, pending.email))
      .orderBy(desc(mailOutbox.id))
      .limit(1);
    expect(row?.template).toBe('verifyAccount');
    expect(await auditRows(pending.id, 'user.resend_email')).toHaveLength(1);

    const doctorMailsBefore = await outboxCount(generalOf(doctor).email);
    const verified = await call(admin, 'GET', `resendEmail/${doctor.profile.id}`);
    expect(verified.statusCode).toBe(409);
    expect(errorOf(verified).code).toBe('ALREADY_VERIFIED');
    expect(await outboxCount(generalOf(doctor).email)).toBe(doctorMailsBefore);
  });
});

describe('deleting a user', () => {
  it('anonymizes the account, keeps its cases, and shuts the door', async () => {
    const target = await createUser(t.app, ['doctor', 'planner', 'instructor']);
    const id = target.profile.id;
    const nick = generalOf(target).nickName;
    const email = generalOf(target).email;
    const opened = await caseApi(t.app)(target, 'POST', 'new', {
      patient: { fname: 'Kept', lname: 'Case' },
    });
    expect(opened.statusCode).toBe(200);
    const caseId = obj<{ id: number }>(opened).id;
    const planners = async () =>
      (await ok<{ id: number }[]>(call(supervisor, 'GET', 'planners'))).map((p) => p.id);
    const instructors = async () =>
      (await ok<{ id: number }[]>(call(doctor, 'GET', 'instructor/list'))).map((p) => p.id);
    expect(await planners()).toContain(id);
    expect(await instructors()).toContain(id);
    const other = await login(t.app, nick, 'Dentflow123', true);
    const rotated = await refresh(other.refreshToken);
    expect(rotated.statusCode).toBe(200);
    const { storage } = t.app.files;
    const avatarName = 'a'.repeat(32);
    await storage.put(`avatars/${id}/${avatarName}`, Buffer.from('webp'), 'image/webp');
    await t.app.database.db
      .update(users)
      .set({ avatar: `/api/v1/profile/avatar/${id}/${avatarName}` })
      .where(eq(users.id, id));

    expect(await ok(call(admin, 'DELETE', `delete/${id}`))).toEqual({ deleted: true });
    expect(await storage.head(`avatars/${id}/${avatarName}`)).toBeNull();

    const [row] = await t.app.database.db.select().from(users).where(eq(users.id, id));
    expect(row).toMatchObject({
      email: `deleted-${id}@deleted.invalid`,
      nickName: `deleted-${id}`,
      fname: '—',
      lname: '—',
      displayName: '—',
      avatar: null,
      roles: [],
      internal: false,
      dataAddress: { zipCode: '', city: '', address: '' },
      dataInfo: { document: '', mobile: { number: '' } },
      dataCapabilities: { instructorId: null, instructorDiscount: 0 },
    });
    expect(row?.deletedAt).toBeInstanceOf(Date);
    expect(JSON.stringify(row)).not.toContain(nick);

    // The case stays, still the deleted account's.
    const [kept] = await t.app.database.db.select().from(cases).where(eq(cases.id, caseId));
    expect(kept?.ownerId).toBe(id);
    expect((await caseApi(t.app)(admin, 'GET', `${caseId}/get`)).statusCode).toBe(200);

    // No session, no refresh, no login, no listing.
    expect((await call(target, 'GET', 'instructor/list')).statusCode).toBe(401);
    expect((await refresh(obj<Session>(rotated).refreshToken)).statusCode).toBe(401);
    expect((await refresh(target.refreshToken)).statusCode).toBe(401);
    await expect(login(t.app, nick)).rejects.toThrow(/401/);
    await expect(login(t.app, email)).rejects.toThrow(/401/);
    await expect(login(t.app, `deleted-${id}`)).rejects.toThrow(/401/);
    expect(await planners()).not.toContain(id);
    expect(await instructors()).not.toContain(id);
    const listed = await ok<UsersPage>(call(admin, 'GET', `list/0?q=deleted-${id}`));
    expect(listed.total).toBe(0);
    expect(await ok<UserPick[]>(call(admin, 'GET', `query_user/nickname/deleted-${id}`))).toEqual(
      [],
    );
    expect((await call(admin, 'GET', `get/${id}`)).statusCode).toBe(404);
    expect((await call(admin, 'DELETE', `delete/${id}`)).statusCode).toBe(404);
    const forgot = await t.app.inject({
      method: 'POST',
      url: '/api/v1/auth/forgotPassword',
      payload: { email: `deleted-${id}@deleted.invalid` },
    });
    expect(forgot.statusCode).toBe(200);
    expect(await outboxCount(`deleted-${id}@deleted.invalid`)).toBe(0);

    const [audit] = await auditRows(id, 'user.delete');
    expect(audit?.actorUserId).toBe(admin.profile.id);
    expect(audit?.details).toMatchObject({
      before: { roles: ['doctor', 'planner', 'instructor'], deletedAt: null },
      after: { roles: [], internal: false },
    });
    // The audit row names what was erased, never the erased values.
    expect(JSON.stringify(audit?.details)).not.toContain(nick);
  });

  it('refuses the sessions and the login of an account marked deleted, even with its password', async () => {
    const target = await createUser(t.app, ['doctor']);
    const nick = generalOf(target).nickName;
    const other = await login(t.app, nick, 'Dentflow123', true);
    expect((await call(target, 'GET', 'instructor/list')).statusCode).toBe(200);
    // Only the mark: sessions, password and nickname are left as they were.
    await t.app.database.db
      .update(users)
      .set({ deletedAt: new Date() })
      .where(eq(users.id, target.profile.id));
    expect((await call(target, 'GET', 'instructor/list')).statusCode).toBe(401);
    expect((await refresh(other.refreshToken)).statusCode).toBe(401);
    const refused = await t.app.inject({
      method: 'POST',
      url: '/api/v1/auth/login',
      payload: { login: nick, password: 'Dentflow123' },
    });
    expect(refused.statusCode).toBe(401);
    expect(errorOf(refused).code).toBe('INVALID_CREDENTIALS');
  });
});
