import { and, eq } from 'drizzle-orm';
import type { LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { auditLog, invitations, users } from '../src/db/schema';
import { hashToken, randomToken } from '../src/security/tokens';
import { createUser } from './support/cases-fixtures';
import { bearer, json, startTestApp, type Session, type TestApp } from './support/test-app';

/** An existing account accepts an invitation from its profile. */
let t: TestApp;
let instructor: Session;
const INSTRUCTOR_DISCOUNT = 15;

const db = () => t.app.database.db;

async function userRow(id: number) {
  const [row] = await db().select().from(users).where(eq(users.id, id));
  return row!;
}

beforeAll(async () => {
  t = await startTestApp();
  instructor = await createUser(t.app, ['instructor']);
  const row = await userRow(instructor.profile.id);
  await db()
    .update(users)
    .set({
      dataCapabilities: { ...row.dataCapabilities, instructorDiscount: INSTRUCTOR_DISCOUNT },
    })
    .where(eq(users.id, instructor.profile.id));
});
afterAll(async () => {
  await t?.close();
});

const call = (
  session: Session | null,
  method: 'GET' | 'POST' | 'DELETE',
  url: string,
  payload?: object,
) =>
  t.app.inject({
    method,
    url,
    headers: session ? bearer(session) : {},
    ...(payload ? { payload } : {}),
  });
const obj = <T = Record<string, unknown>>(response: LightMyRequestResponse): T =>
  json<{ obj: T }>(response).obj;

interface Received {
  id: number;
  instructorName: string;
  discount: number;
  expiresAt: string;
}

/** An existing account (no roles, so keeping them is visible) with its email. */
async function existingAccount() {
  const session = await createUser(t.app, []);
  return { session, email: (await userRow(session.profile.id)).email };
}

/** The instructor invites `email` (upper case: the invitation is matched case-insensitively). */
async function invite(email: string, by = instructor): Promise<number> {
  const response = await call(by, 'POST', '/api/v1/users/invite_doctor', {
    email: email.toUpperCase(),
    language: 'en',
  });
  expect(response.statusCode, response.body).toBe(200);
  return obj<{ id: number }>(response).id;
}

async function received(session: Session): Promise<Received[]> {
  const response = await call(session, 'GET', '/api/v1/profile/invitations');
  expect(response.statusCode, response.body).toBe(200);
  return obj<Received[]>(response);
}

const accept = (session: Session | null, id: number) =>
  call(session, 'POST', `/api/v1/profile/invitations/${id}/accept`);

describe('accepting an invitation from the profile', () => {
  it('lists it for the invitee and links them on accept, like the link does', async () => {
    const { session, email } = await existingAccount();
    const id = await invite(email);

    const list = await received(session);
    expect(list).toEqual([
      {
        id,
        instructorName: (await userRow(instructor.profile.id)).displayName,
        discount: INSTRUCTOR_DISCOUNT,
        expiresAt: expect.any(String) as unknown,
      },
    ]);
    const [row] = await db().select().from(invitations).where(eq(invitations.id, id));
    expect(list[0]!.expiresAt).toBe(row!.expiresAt.toISOString());

    const accepted = await accept(session, id);
    expect(accepted.statusCode, accepted.body).toBe(200);
    expect(obj(accepted)).toEqual({
      instructorId: instructor.profile.id,
      instructorDiscount: INSTRUCTOR_DISCOUNT,
    });
    const invitee = await userRow(session.profile.id);
    expect(invitee.dataCapabilities).toMatchObject({
      instructorId: instructor.profile.id,
      instructorDiscount: INSTRUCTOR_DISCOUNT,
    });
    // An existing account keeps its roles: it is not made a doctor as a registration would be.
    expect(invitee.roles).toEqual([]);

    const [used] = await db().select().from(invitations).where(eq(invitations.id, id));
    expect(used!.acceptedBy).toBe(session.profile.id);
    expect(await received(session)).toEqual([]);
    const overview = obj<{ students: { id: number }[]; invitations: { id: number }[] }>(
      await call(instructor, 'GET', '/api/v1/students'),
    );
    expect(overview.students.map((s) => s.id)).toContain(session.profile.id);
    expect(overview.invitations.map((i) => i.id)).not.toContain(id);

    const audit = await db()
      .select()
      .from(auditLog)
      .where(
        and(
          eq(auditLog.action, 'students.accept_invitation'),
          eq(auditLog.entityId, String(session.profile.id)),
        ),
      );
    expect(audit).toHaveLength(1);
    expect(audit[0]!.details).toMatchObject({
      invitationId: id,
      before: { instructorId: null },
      after: { instructorId: instructor.profile.id, instructorDiscount: INSTRUCTOR_DISCOUNT },
    });

    // Accepting twice: the invitation is used, so the second time is a 404.
    expect((await accept(session, id)).statusCode).toBe(404);
  });

  it('hides it from anyone else, who gets 404 on accept', async () => {
    const { session: invitee, email } = await existingAccount();
    const { session: stranger } = await existingAccount();
    const id = await invite(email);

    expect(await received(stranger)).toEqual([]);
    expect(await received(instructor)).toEqual([]);
    for (const other of [stranger, instructor]) {
      const refused = await accept(other, id);
      expect(refused.statusCode).toBe(404);
      expect(json(refused)).toMatchObject({ code: 'NOT_FOUND' });
    }
    expect((await userRow(stranger.profile.id)).dataCapabilities.instructorId).toBeNull();
    // Still the invitee's to accept.
    expect((await received(invitee)).map((i) => i.id)).toEqual([id]);
    expect((await accept(invitee, id)).statusCode).toBe(200);
  });

  it('neither lists nor accepts an expired, revoked or already accepted invitation', async () => {
    const { session, email } = await existingAccount();
    const expired = await invite(email);
    await db()
      .update(invitations)
      .set({ expiresAt: new Date(Date.now() - 1000) })
      .where(eq(invitations.id, expired));
    const revoked = await invite(email);
    const revoke = await call(instructor, 'DELETE', `/api/v1/students/invitations/${revoked}`);
    expect(revoke.statusCode, revoke.body).toBe(200);
    const acceptedElsewhere = await invite(email);
    await db()
      .update(invitations)
      .set({ acceptedAt: new Date(), acceptedBy: session.profile.id })
      .where(eq(invitations.id, acceptedElsewhere));

    expect(await received(session)).toEqual([]);
    for (const id of [expired, revoked, acceptedElsewhere, 2_147_483_647]) {
      expect((await accept(session, id)).statusCode, `invitation ${id}`).toBe(404);
    }
    expect((await userRow(session.profile.id)).dataCapabilities.instructorId).toBeNull();
  });

  it("neither lists nor accepts one whose instructor is no longer an instructor, or the caller's own", async () => {
    const { session, email } = await existingAccount();
    const former = await createUser(t.app, ['instructor']);
    const fromFormer = await invite(email, former);
    await db().update(users).set({ roles: [] }).where(eq(users.id, former.profile.id));
    // An instructor cannot invite their own email; a row addressed to them must still not count.
    const [own] = await db()
      .insert(invitations)
      .values({
        instructorId: instructor.profile.id,
        email: (await userRow(instructor.profile.id)).email,
        language: 'en',
        tokenHash: hashToken(randomToken()),
        expiresAt: new Date(Date.now() + 86_400_000),
      })
      .returning();

    expect(await received(session)).toEqual([]);
    expect((await accept(session, fromFormer)).statusCode).toBe(404);
    expect(await received(instructor)).toEqual([]);
    expect((await accept(instructor, own!.id)).statusCode).toBe(404);
  });

  it('refuses an anonymous caller with 401 and a malformed id with 400', async () => {
    const { session, email } = await existingAccount();
    const id = await invite(email);
    expect((await call(null, 'GET', '/api/v1/profile/invitations')).statusCode).toBe(401);
    expect((await accept(null, id)).statusCode).toBe(401);
    const malformed = await call(session, 'POST', '/api/v1/profile/invitations/abc/accept');
    expect(malformed.statusCode).toBe(400);
    expect(json(malformed)).toMatchObject({ code: 'VALIDATION_ERROR' });
    expect((await received(session)).map((i) => i.id)).toEqual([id]);
  });
});
