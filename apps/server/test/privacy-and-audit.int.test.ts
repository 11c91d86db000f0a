import { eq } from 'drizzle-orm';
import type { LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PERSON_REFERENCE_KEYS } from '@dentflow/domain';
import {
  auditLog,
  cases,
  chatMessages,
  invitations,
  mailOutbox,
  patients,
  users,
} from '../src/db/schema';
import { createUser } from './support/cases-fixtures';
import { createCase } from './support/storage-fixtures';
import { bearer, json, login, startTestApp, type Session, type TestApp } from './support/test-app';

/** The personal data export, the user's own deletion and the audit log search. */

let t: TestApp;
let admin: Session;
beforeAll(async () => {
  t = await startTestApp();
  admin = await login(t.app, 'admin');
});
afterAll(async () => {
  await t?.close();
});

const call = (
  session: { accessToken: string } | null,
  method: 'GET' | 'POST' | 'DELETE',
  url: string,
  payload?: object,
) =>
  t.app.inject({
    method,
    url: `/api/v1/${url}`,
    headers: session ? bearer(session) : {},
    ...(payload ? { payload } : {}),
  });

const codeOf = (response: LightMyRequestResponse) => json<{ code: string }>(response).code;

async function ok<T>(response: Promise<LightMyRequestResponse>): Promise<T> {
  const answer = await response;
  if (answer.statusCode !== 200) throw new Error(`${answer.statusCode} ${answer.body}`);
  return json<{ obj: T }>(answer).obj;
}

const general = (session: Session) =>
  session.profile.dataGeneral as { nickName: string; email: string; displayName: string };

/** A doctor with one case (patient named by `marker`) and one chat message on it. */
async function doctorWithCase(marker: string) {
  const session = await createUser(t.app, ['doctor']);
  const db = t.app.database.db;
  const caseId = await createCase(db, { ownerId: session.profile.id });
  const [row] = await db.select().from(cases).where(eq(cases.id, caseId));
  await db
    .update(patients)
    .set({ fname: `Patient${marker}`, lname: 'Private' })
    .where(eq(patients.id, row!.patientId));
  await ok(call(session, 'POST', `case/${caseId}/chat/3`, { text: `message-${marker}` }));
  return { session, caseId };
}

interface ExportFile {
  profile: { id: number; dataGeneral: { email: string } };
  cases: { id: number; patient: { fname: string }; services: unknown[]; events: unknown[] }[];
  chatMessages: { caseId: number; text: string }[];
  notifications: { caseId: number; actor: string | null }[];
  transactions: unknown[];
  attachments: unknown[];
  auditLog: unknown[];
}

describe('personal data export', () => {
  it("answers the caller's profile, cases, messages… as a file, and nothing of another user", async () => {
    const a = await doctorWithCase('Alpha');
    const b = await doctorWithCase('Bravo');
    // Staff writes on A's case: A is notified (by the writer's display name), the text is not A's.
    await ok(call(admin, 'POST', `case/${a.caseId}/chat/3`, { text: 'message-staff-on-Alpha' }));

    const response = await call(a.session, 'GET', 'profile/export');
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toContain('application/json');
    expect(response.headers['content-disposition']).toBe(
      `attachment; filename="dentflow-data-${a.session.profile.id}.json"`,
    );
    const data = json<ExportFile>(response);
    expect(data.profile.id).toBe(a.session.profile.id);
    expect(data.profile.dataGeneral.email).toBe(general(a.session).email);
    expect(data.cases.map((c) => c.id)).toEqual([a.caseId]);
    expect(data.cases[0]!.patient.fname).toBe('PatientAlpha');
    expect(data.cases[0]!.services).toHaveLength(1);
    expect(data.chatMessages).toEqual([
      expect.objectContaining({ caseId: a.caseId, text: 'message-Alpha' }),
    ]);
    // Told that staff wrote, not who: the writer's name is not A's data.
    expect(data.notifications).toContainEqual(expect.objectContaining({ caseId: a.caseId }));
    for (const key of ['transactions', 'attachments', 'auditLog'] as const) {
      expect(Array.isArray(data[key])).toBe(true);
    }

    const text = response.body;
    expect(text).not.toContain('message-staff-on-Alpha');
    expect(text).not.toContain(general(admin).email);
    expect(text).not.toContain(general(admin).displayName);
    expect(text).not.toContain('PatientBravo');
    expect(text).not.toContain('message-Bravo');
    expect(text).not.toContain(general(b.session).email);
    expect(text).not.toContain(general(b.session).nickName);
    expect(text).not.toMatch(/passwordHash|\$argon2/);
    expect(text).not.toContain('storageKey');

    const other = json<ExportFile>(await call(b.session, 'GET', 'profile/export'));
    expect(other.cases.map((c) => c.id)).toEqual([b.caseId]);
    expect(JSON.stringify(other)).not.toContain('message-Alpha');
  });

  it("carries an admin's audit rows, without other people's ids or details", async () => {
    const target = await createUser(t.app, ['doctor']);
    await ok(call(admin, 'POST', `users/${target.profile.id}/set`, { internal: true }));
    const response = await call(admin, 'GET', 'profile/export');
    expect(response.statusCode).toBe(200);
    const data = json<{
      auditLog: { action: string; entity: string; entityId: string | null; details: unknown }[];
    }>(response);
    const sets = data.auditLog.filter((entry) => entry.action === 'user.set');
    expect(sets.length).toBeGreaterThan(0);
    expect(sets.every((entry) => entry.entityId === null && entry.details === null)).toBe(true);
    // Rows about accounts name only the admin's own.
    const about = data.auditLog.filter(
      (entry) => entry.entity === 'user' && entry.entityId !== null,
    );
    expect(about.every((entry) => entry.entityId === String(admin.profile.id))).toBe(true);
  });

  it("names nobody else: no other user's id or name from members, planners, history or profile", async () => {
    const instructor = await createUser(t.app, ['instructor']);
    const owner = await createUser(t.app, ['doctor'], { instructorId: instructor.profile.id });
    const member = await createUser(t.app, ['doctor']);
    const planner = await createUser(t.app, ['planner']);
    const db = t.app.database.db;
    const caseId = await createCase(db, { ownerId: owner.profile.id });
    await ok(
      call(admin, 'POST', `case/${caseId}/users`, {
        userId: member.profile.id,
        triggerNotification: true,
      }),
    );
    await ok(call(admin, 'POST', `case/${caseId}/planner`, { plannerId: planner.profile.id }));
    await ok(call(member, 'POST', `case/${caseId}/chat/3`, { text: 'member writes' }));
    await ok(call(owner, 'POST', `case/${caseId}/chat/3`, { text: 'owner writes' }));

    const response = await call(owner, 'GET', 'profile/export');
    expect(response.statusCode).toBe(200);
    const data = json<{ cases: { events: { action: string; byYou: boolean }[] }[] }>(response);
    // The history is there, by whom only as "you or not".
    expect(data.cases[0]!.events.map((event) => event.action)).toEqual(
      expect.arrayContaining(['userAdded', 'plannerSet']),
    );
    expect(data.cases[0]!.events.every((event) => event.byYou === false)).toBe(true);
    const others = [instructor, member, planner, admin];
    for (const other of others) {
      expect(response.body).not.toContain(general(other).displayName);
      expect(response.body).not.toContain(general(other).email);
    }
    // No key under which a record names a user by id, anywhere in the file.
    const keys = new Set<string>();
    const walk = (value: unknown): void => {
      if (Array.isArray(value)) value.forEach(walk);
      else if (value !== null && typeof value === 'object') {
        for (const [key, item] of Object.entries(value)) {
          keys.add(key);
          walk(item);
        }
      }
    };
    walk(data);
    expect(
      [...keys].filter((key) => (PERSON_REFERENCE_KEYS as readonly string[]).includes(key)),
    ).toEqual([]);
    expect(keys.has('instructorId')).toBe(false);
    expect(
      json<{ profile: { dataCapabilities: { hasInstructor: boolean } } }>(response).profile
        .dataCapabilities.hasInstructor,
    ).toBe(true);
  });

  it('refuses anonymous callers (401)', async () => {
    expect((await call(null, 'GET', 'profile/export')).statusCode).toBe(401);
  });
});

describe("a user's own deletion", () => {
  it('refuses a wrong or missing password (400) and changes nothing', async () => {
    const { session } = await doctorWithCase('Wrong');
    const wrong = await call(session, 'POST', 'profile/delete', { password: 'Not-the-one1' });
    expect(wrong.statusCode).toBe(400);
    expect(codeOf(wrong)).toBe('WRONG_PASSWORD');
    const missing = await call(session, 'POST', 'profile/delete', {});
    expect(missing.statusCode).toBe(400);
    const [row] = await t.app.database.db
      .select()
      .from(users)
      .where(eq(users.id, session.profile.id));
    expect(row!.deletedAt).toBeNull();
    expect((await call(session, 'GET', 'profile/get')).statusCode).toBe(200);
  });

  it('anonymizes the account, keeps its cases, ends its sessions and login fails', async () => {
    const { session, caseId } = await doctorWithCase('Gone');
    const { nickName, email } = general(session);
    const id = session.profile.id;

    const answer = await ok<{ deleted: true }>(
      call(session, 'POST', 'profile/delete', { password: 'Dentflow123' }),
    );
    expect(answer).toEqual({ deleted: true });

    const db = t.app.database.db;
    const [row] = await db.select().from(users).where(eq(users.id, id));
    expect(row!.deletedAt).not.toBeNull();
    expect(row!.email).toBe(`deleted-${id}@deleted.invalid`);
    expect(row!.nickName).toBe(`deleted-${id}`);
    expect(row!.roles).toEqual([]);
    const [kept] = await db.select().from(cases).where(eq(cases.id, caseId));
    expect(kept!.ownerId).toBe(id);

    expect((await call(session, 'GET', 'profile/get')).statusCode).toBe(401);
    const refreshed = await t.app.inject({
      method: 'POST',
      url: '/api/v1/auth/refresh_token',
      payload: { refresh_token: session.refreshToken },
    });
    expect(refreshed.statusCode).toBe(401);
    for (const loginName of [nickName, email]) {
      const attempt = await t.app.inject({
        method: 'POST',
        url: '/api/v1/auth/login',
        payload: { login: loginName, password: 'Dentflow123', remember: false },
      });
      expect(attempt.statusCode).toBe(401);
    }

    const audit = await db
      .select()
      .from(auditLog)
      .where(eq(auditLog.entityId, String(id)));
    expect(audit).toContainEqual(
      expect.objectContaining({ action: 'user.self_delete', entity: 'user', actorUserId: id }),
    );
  });
});

describe('erasure of a deleted account', () => {
  let serial = 0;
  it.each(['an admin', 'the person'])(
    'deleted by %s: no audit row, invitation, mail or chat row holds their name, email or document',
    async (by) => {
      serial += 1;
      const person = await createUser(t.app, ['doctor']);
      const id = person.profile.id;
      const unique = `${Date.now().toString(36)}${serial}`;
      // Names the audit's before/after will hold, and a valid CPF.
      const names = {
        fname: `Erasa${unique}`,
        lname: `Pessoa${unique}`,
        displayName: `Dra. Erasa ${unique}`,
      };
      await ok(
        call(admin, 'POST', `users/${id}/set`, {
          dataGeneral: names,
          dataInfo: { typeOfDocument: 'CPF', document: '529.982.247-25' },
          dataAddress: {
            zipCode: '50000-000',
            country: 'Brasil',
            state: 'PE',
            city: 'Recife',
            address: `Rua ${unique}, 10`,
            complement: '',
          },
        }),
      );
      const email = general(person).email;
      const oldName = general(person).displayName;

      // An instructor invites their email (invitation, audit row, mail to them).
      const instructor = await createUser(t.app, ['instructor']);
      await ok(call(instructor, 'POST', 'users/invite_doctor', { email, language: 'en' }));
      // A password reset mail to them.
      const forgot = await call(null, 'POST', 'auth/forgotPassword', { email });
      expect(forgot.statusCode).toBe(200);
      // A mail to someone else that names them (a notification's actor).
      const db = t.app.database.db;
      await db.insert(mailOutbox).values({
        recipient: 'someone.else@cases.test',
        template: 'notification',
        language: 'en',
        params: {
          eventType: 2,
          caseId: 1,
          patientName: 'Kept Patient',
          actorName: names.displayName,
          path: null,
        },
      });
      // Their own case and a message that carries their email and name.
      const caseId = await createCase(db, { ownerId: id });
      const message = `Call me: ${email} — ${names.fname} ${names.lname}`;
      await ok(call(person, 'POST', `case/${caseId}/chat/3`, { text: message }));

      const deleted =
        by === 'an admin'
          ? await call(admin, 'DELETE', `users/delete/${id}`)
          : await call(person, 'POST', 'profile/delete', { password: 'Dentflow123' });
      expect(deleted.statusCode, deleted.body).toBe(200);

      const identifying = [
        email,
        oldName,
        names.displayName,
        `${names.fname} ${names.lname}`,
        names.fname,
        names.lname,
        '529.982.247-25',
        `Rua ${unique}`,
        general(person).nickName,
      ];
      const audit = await db.select().from(auditLog);
      const invites = await db.select().from(invitations);
      const mails = await db.select().from(mailOutbox);
      const messages = await db
        .select({ text: chatMessages.text, author: users.displayName })
        .from(chatMessages)
        .innerJoin(users, eq(users.id, chatMessages.fromUser))
        .where(eq(chatMessages.caseId, caseId));
      const stored = JSON.stringify({ audit, invites, mails, messages }).toLowerCase();
      for (const value of identifying) expect(stored, value).not.toContain(value.toLowerCase());

      // What stays: the audit rows (erased), the message (its text without them), the mails given up.
      expect(audit.filter((row) => row.entityId === String(id)).map((row) => row.action)).toEqual(
        expect.arrayContaining([
          'user.set',
          by === 'an admin' ? 'user.delete' : 'user.self_delete',
        ]),
      );
      expect(messages).toEqual([{ text: 'Call me: [erased] — [erased]', author: '—' }]);
      const toThem = mails.filter((mail) => mail.recipient === `deleted-${id}@deleted.invalid`);
      expect(toThem.map((mail) => mail.template).sort()).toEqual([
        'instructorInvite',
        'resetPassword',
      ]);
      expect(
        toThem.every((mail) => mail.status !== 'pending' && Object.keys(mail.params).length === 0),
      ).toBe(true);
      const invite = invites.find((row) => row.email === `deleted-${id}@deleted.invalid`);
      expect(invite?.revokedAt).not.toBeNull();
      const [other] = mails
        .filter((mail) => mail.recipient === 'someone.else@cases.test')
        .slice(-1);
      expect(other!.params).toMatchObject({ actorName: '[erased]', patientName: 'Kept Patient' });
    },
  );
});

interface AuditPage {
  items: {
    id: number;
    at: string;
    actorUserId: number | null;
    actorName: string | null;
    action: string;
    entity: string;
    entityId: string | null;
    details: Record<string, unknown>;
  }[];
  total: number;
  page: number;
  pageSize: number;
}

describe('audit log search', () => {
  const search = (query: string, session: Session | null = admin) =>
    call(session, 'GET', `audit?${query}`);

  it('filters by actor, entity, record and date range, newest first, with the actor name', async () => {
    const target = await createUser(t.app, ['doctor']);
    const id = target.profile.id;
    await ok(call(admin, 'POST', `users/${id}/set`, { internal: true }));
    await ok(call(admin, 'POST', `users/${id}/set`, { internal: false }));

    const page = await ok<AuditPage>(
      search(`actor=${admin.profile.id}&entity=user&entityId=${id}`),
    );
    expect(page.total).toBe(2);
    expect(page.page).toBe(0);
    expect(page.items.map((item) => item.details.after)).toEqual([
      { internal: false },
      { internal: true },
    ]);
    expect(page.items[0]!.id).toBeGreaterThan(page.items[1]!.id);
    expect(page.items[0]).toMatchObject({
      action: 'user.set',
      entity: 'user',
      entityId: String(id),
      actorUserId: admin.profile.id,
      actorName: general(admin).displayName,
    });

    const today = new Date().toISOString().slice(0, 10);
    const tomorrow = new Date(Date.now() + 86_400_000).toISOString().slice(0, 10);
    const yesterday = new Date(Date.now() - 86_400_000).toISOString().slice(0, 10);
    const within = await ok<AuditPage>(
      search(`entity=user&entityId=${id}&from=${today}&to=${today}`),
    );
    // The user's own login is audited too.
    expect(within.items.map((item) => item.action)).toEqual(['user.set', 'user.set', 'auth.login']);
    expect((await ok<AuditPage>(search(`entity=user&entityId=${id}&from=${tomorrow}`))).total).toBe(
      0,
    );
    expect((await ok<AuditPage>(search(`entity=user&entityId=${id}&to=${yesterday}`))).total).toBe(
      0,
    );
    const instant = encodeURIComponent(new Date(Date.now() + 60_000).toISOString());
    expect((await ok<AuditPage>(search(`entity=user&entityId=${id}&to=${instant}`))).total).toBe(3);

    const ownActions = await ok<AuditPage>(search(`actor=${id}&entity=user&entityId=${id}`));
    expect(ownActions.items.map((item) => item.action)).toEqual(['auth.login']);
    const otherEntity = await ok<AuditPage>(search(`entity=coupon&entityId=${id}`));
    expect(otherEntity.total).toBe(0);
  });

  it('pages the whole log 20 at a time', async () => {
    const first = await ok<AuditPage>(search('page=0'));
    expect(first.pageSize).toBe(20);
    expect(first.items.length).toBe(Math.min(20, first.total));
    const times = first.items.map((item) => item.at);
    expect([...times].sort().reverse()).toEqual(times);
    const beyond = await ok<AuditPage>(search(`page=${Math.ceil(first.total / 20) + 1}`));
    expect(beyond.items).toEqual([]);
    expect(beyond.total).toBe(first.total);
  });

  it('refuses bad filters with 400', async () => {
    for (const query of ['from=yesterday', 'to=2026-13-40', 'actor=abc', 'page=-1']) {
      const response = await search(query);
      expect(response.statusCode, query).toBe(400);
      expect(codeOf(response)).toBe('VALIDATION_ERROR');
    }
  });

  it('is for admins only: a doctor and a supervisor 403, anonymous 401', async () => {
    const doctor = await login(t.app, 'doctor');
    const supervisor = await login(t.app, 'supervisor');
    expect((await search('', doctor)).statusCode).toBe(403);
    expect((await search('', supervisor)).statusCode).toBe(403);
    expect((await search('', null)).statusCode).toBe(401);
  });
});
