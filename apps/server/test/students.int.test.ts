import { and, desc, eq } from 'drizzle-orm';
import type { LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { auditLog, invitations, mailOutbox, users } from '../src/db/schema';
import { hashToken } from '../src/security/tokens';
import { createUser } from './support/cases-fixtures';
import { cartItem, order } from './support/shop-fixtures';
import { bearer, json, login, startTestApp, type Session, type TestApp } from './support/test-app';

let t: TestApp;
let instructor: Session;
let otherInstructor: Session;
let doctor: Session;
const INSTRUCTOR_DISCOUNT = 15;

beforeAll(async () => {
  t = await startTestApp();
  instructor = await createUser(t.app, ['instructor']);
  otherInstructor = await createUser(t.app, ['instructor']);
  doctor = await login(t.app, 'doctor');
  const db = t.app.database.db;
  const [row] = await db.select().from(users).where(eq(users.id, instructor.profile.id));
  await db
    .update(users)
    .set({
      dataCapabilities: { ...row!.dataCapabilities, instructorDiscount: INSTRUCTOR_DISCOUNT },
    })
    .where(eq(users.id, instructor.profile.id));
});
afterAll(async () => {
  await t?.close();
});

type Method = 'GET' | 'POST' | 'DELETE';
const call = (session: Session | null, method: Method, url: string, payload?: object) =>
  t.app.inject({
    method,
    url,
    headers: session ? bearer(session) : {},
    ...(payload ? { payload } : {}),
  });
const obj = <T = Record<string, unknown>>(response: LightMyRequestResponse): T =>
  json<{ obj: T }>(response).obj;

let counter = 0;
const uniqueEmail = () => `invitee${Date.now().toString(36)}${(counter += 1)}@students.test`;

interface Pending {
  id: number;
  email: string;
  language: string;
  expired: boolean;
}

/** Invites `email` and returns the pending invitation with the token of the mail just queued. */
async function invite(email = uniqueEmail(), language = 'es', by = instructor) {
  const response = await call(by, 'POST', '/api/v1/users/invite_doctor', { email, language });
  expect(response.statusCode, response.body).toBe(200);
  const pending = obj<Pending>(response);
  return { ...pending, token: await lastInviteToken(email.toLowerCase()) };
}

async function lastInviteMail(email: string) {
  const [row] = await t.app.database.db
    .select()
    .from(mailOutbox)
    .where(and(eq(mailOutbox.recipient, email), eq(mailOutbox.template, 'instructorInvite')))
    .orderBy(desc(mailOutbox.id))
    .limit(1);
  if (!row) throw new Error(`no invitation mail to ${email}`);
  return row;
}
/**
 * The token of the last invitation link delivered to `email` (read from the sent mail: the
 * outbox drops the token from the row once the mail is out).
 */
async function lastInviteToken(email: string): Promise<string> {
  const token = (await t.outbox())
    .filter((raw) => raw.toLowerCase().includes(`to: ${email}`))
    .map((raw) => /\/register\?invite=([A-Za-z0-9_-]+)/.exec(raw)?.[1])
    .filter((found): found is string => Boolean(found))
    .pop();
  if (!token) throw new Error(`no invitation link mailed to ${email}`);
  return token;
}

async function register(email: string, invite?: string) {
  const nickName = `s${Date.now().toString(36)}${(counter += 1)}`;
  const response = await call(null, 'POST', '/api/v1/auth/register', {
    email,
    password: 'Dentflow123',
    fname: 'Student',
    lname: 'Invited',
    nickName,
    terms: true,
    ...(invite === undefined ? {} : { invite }),
  });
  expect(response.statusCode, response.body).toBe(200);
  const id = obj<{ id: number }>(response).id;
  await t.app.database.db.update(users).set({ verifiedAt: new Date() }).where(eq(users.id, id));
  return { id, nickName };
}

const capabilitiesOf = async (id: number) => {
  const [row] = await t.app.database.db.select().from(users).where(eq(users.id, id));
  return row!.dataCapabilities;
};

describe('inviting a doctor', () => {
  it('queues the mail in the invitee language with the register link, in the same transaction', async () => {
    const email = uniqueEmail();
    const pending = await invite(email.toUpperCase(), 'ptBR');
    expect(pending).toMatchObject({ email, language: 'ptBR', expired: false });
    const mail = await lastInviteMail(email);
    expect(mail.language).toBe('ptBR');
    const [row] = await t.app.database.db
      .select()
      .from(invitations)
      .where(eq(invitations.id, pending.id));
    expect(row!.tokenHash).toBe(hashToken(pending.token));
    const days = (row!.expiresAt.getTime() - row!.createdAt.getTime()) / 86_400_000;
    expect(Math.round(days)).toBe(14);

    const delivered = (await t.outbox()).find((raw) => raw.includes(`To: ${email}`));
    expect(delivered).toContain(`http://dentflow.test/register?invite=${pending.token}`);
    expect(delivered).toContain(`${INSTRUCTOR_DISCOUNT}%`);
    expect(delivered).toMatch(/convida/);

    const audit = await t.app.database.db
      .select()
      .from(auditLog)
      .where(and(eq(auditLog.entity, 'invitation'), eq(auditLog.entityId, String(pending.id))));
    expect(audit.map((a) => a.action)).toEqual(['students.invite']);
  });

  it('refuses bad input with 400 and an email already a student with 409', async () => {
    for (const body of [
      { email: 'not-an-email', language: 'en' },
      { email: uniqueEmail(), language: 'fr' },
      { language: 'en' },
    ]) {
      const response = await call(instructor, 'POST', '/api/v1/users/invite_doctor', body);
      expect(response.statusCode, JSON.stringify(body)).toBe(400);
    }
    const student = await createUser(t.app, ['doctor'], { instructorId: instructor.profile.id });
    const [row] = await t.app.database.db
      .select()
      .from(users)
      .where(eq(users.id, student.profile.id));
    const taken = await call(instructor, 'POST', '/api/v1/users/invite_doctor', {
      email: row!.email,
      language: 'en',
    });
    expect(taken.statusCode).toBe(409);
    // Another instructor may still invite them.
    const other = await call(otherInstructor, 'POST', '/api/v1/users/invite_doctor', {
      email: row!.email,
      language: 'en',
    });
    expect(other.statusCode).toBe(200);
  });

  it('refuses a doctor with 403 and an anonymous caller with 401 on the instructor routes', async () => {
    const { id } = await invite();
    const routes: [Method, string, object?][] = [
      ['POST', '/api/v1/users/invite_doctor', { email: uniqueEmail(), language: 'en' }],
      ['GET', '/api/v1/students'],
      ['POST', `/api/v1/students/invitations/${id}/resend`],
      ['DELETE', `/api/v1/students/invitations/${id}`],
    ];
    for (const [method, url, payload] of routes) {
      expect((await call(doctor, method, url, payload)).statusCode, url).toBe(403);
      expect((await call(null, method, url, payload)).statusCode, url).toBe(401);
    }
    expect(
      (await call(null, 'POST', '/api/v1/profile/acceptInvitation', { token: 'x' })).statusCode,
    ).toBe(401);
  });
});

describe('registering with an invitation', () => {
  it('links the student with the discount, which the shop quote applies', async () => {
    const email = uniqueEmail();
    const { id: invitationId, token } = await invite(email, 'en');
    const preview = await call(null, 'GET', `/api/v1/students/invitations/${token}`);
    expect(preview.statusCode).toBe(200);
    expect(obj(preview)).toEqual({
      instructorName: expect.stringContaining('Test') as unknown,
      discount: INSTRUCTOR_DISCOUNT,
    });

    const { id, nickName } = await register(email, token);
    expect(await capabilitiesOf(id)).toMatchObject({
      instructorId: instructor.profile.id,
      instructorDiscount: INSTRUCTOR_DISCOUNT,
    });
    // Invited as a doctor: the shop is open to them at once.
    const [created] = await t.app.database.db.select().from(users).where(eq(users.id, id));
    expect(created!.roles).toEqual(['doctor']);
    const [row] = await t.app.database.db
      .select()
      .from(invitations)
      .where(eq(invitations.id, invitationId));
    expect(row!.acceptedBy).toBe(id);
    // Used once: the link now answers 404.
    expect((await call(null, 'GET', `/api/v1/students/invitations/${token}`)).statusCode).toBe(404);

    const student = await login(t.app, nickName);
    const items = [await cartItem(t.app.database.db, 'PLAN-GUIDE')];
    const { idempotencyKey: _key, ...quoteBody } = order({ items });
    const quoted = await call(student, 'POST', '/api/v1/shop/quote', quoteBody);
    expect(quoted.statusCode, quoted.body).toBe(200);
    expect(
      obj<{ breakdown: { instructorDiscount: number } }>(quoted).breakdown.instructorDiscount,
    ).toBeGreaterThan(0);

    const overview = obj<{
      students: { id: number; casesCount: number }[];
      invitations: Pending[];
    }>(await call(instructor, 'GET', '/api/v1/students'));
    expect(overview.students).toContainEqual(expect.objectContaining({ id, email, casesCount: 0 }));
    expect(overview.invitations.map((i) => i.id)).not.toContain(invitationId);
  });

  it('ignores an unknown, expired or revoked token: the account is created unlinked', async () => {
    const expired = await invite();
    await t.app.database.db
      .update(invitations)
      .set({ expiresAt: new Date(Date.now() - 1000) })
      .where(eq(invitations.id, expired.id));
    const revoked = await invite();
    expect(
      (await call(instructor, 'DELETE', `/api/v1/students/invitations/${revoked.id}`)).statusCode,
    ).toBe(200);

    for (const token of ['no-such-token', expired.token, revoked.token]) {
      expect((await call(null, 'GET', `/api/v1/students/invitations/${token}`)).statusCode).toBe(
        404,
      );
      const { id } = await register(uniqueEmail(), token);
      expect((await capabilitiesOf(id)).instructorId).toBeNull();
      const [row] = await t.app.database.db.select().from(users).where(eq(users.id, id));
      expect(row!.roles).toEqual([]);
    }
    const overview = obj<{ invitations: Pending[] }>(
      await call(instructor, 'GET', '/api/v1/students'),
    );
    expect(overview.invitations.find((i) => i.id === expired.id)?.expired).toBe(true);
    expect(overview.invitations.map((i) => i.id)).not.toContain(revoked.id);
  });

  it('lets a signed-in account accept an invitation, once', async () => {
    const email = uniqueEmail();
    const { id, nickName } = await register(email);
    const session = await login(t.app, nickName);
    const { token } = await invite(email);
    const accepted = await call(session, 'POST', '/api/v1/profile/acceptInvitation', { token });
    expect(accepted.statusCode, accepted.body).toBe(200);
    expect(obj(accepted)).toEqual({
      instructorId: instructor.profile.id,
      instructorDiscount: INSTRUCTOR_DISCOUNT,
    });
    expect((await capabilitiesOf(id)).instructorId).toBe(instructor.profile.id);
    const [row] = await t.app.database.db.select().from(users).where(eq(users.id, id));
    expect(row!.roles).toEqual([]);
    const again = await call(session, 'POST', '/api/v1/profile/acceptInvitation', { token });
    expect(again.statusCode).toBe(404);
    const empty = await call(session, 'POST', '/api/v1/profile/acceptInvitation', { token: '' });
    expect(empty.statusCode).toBe(400);
  });
});

describe('resending and revoking', () => {
  it('works on own pending invitations only: another instructor gets 404', async () => {
    const email = uniqueEmail();
    const first = await invite(email, 'es');
    for (const [method, url] of [
      ['POST', `/api/v1/students/invitations/${first.id}/resend`],
      ['DELETE', `/api/v1/students/invitations/${first.id}`],
    ] as const) {
      expect((await call(otherInstructor, method, url)).statusCode).toBe(404);
    }
    expect(
      (await call(instructor, 'POST', '/api/v1/students/invitations/abc/resend')).statusCode,
    ).toBe(400);

    const resent = await call(
      instructor,
      'POST',
      `/api/v1/students/invitations/${first.id}/resend`,
    );
    expect(resent.statusCode, resent.body).toBe(200);
    const newToken = await lastInviteToken(email);
    expect(newToken).not.toBe(first.token);
    expect((await lastInviteMail(email)).language).toBe('es');
    // The old link stops working, the new one works.
    expect(
      (await call(null, 'GET', `/api/v1/students/invitations/${first.token}`)).statusCode,
    ).toBe(404);
    expect((await call(null, 'GET', `/api/v1/students/invitations/${newToken}`)).statusCode).toBe(
      200,
    );

    const revoked = await call(instructor, 'DELETE', `/api/v1/students/invitations/${first.id}`);
    expect(revoked.statusCode).toBe(200);
    expect((await call(null, 'GET', `/api/v1/students/invitations/${newToken}`)).statusCode).toBe(
      404,
    );
    // Gone from the pending list: a second revoke or a resend is a 404.
    expect(
      (await call(instructor, 'DELETE', `/api/v1/students/invitations/${first.id}`)).statusCode,
    ).toBe(404);
    expect(
      (await call(instructor, 'POST', `/api/v1/students/invitations/${first.id}/resend`))
        .statusCode,
    ).toBe(404);

    const actions = await t.app.database.db
      .select({ action: auditLog.action })
      .from(auditLog)
      .where(and(eq(auditLog.entity, 'invitation'), eq(auditLog.entityId, String(first.id))));
    expect(actions.map((a) => a.action).sort()).toEqual([
      'students.invite',
      'students.resend_invitation',
      'students.revoke_invitation',
    ]);
  });
});
