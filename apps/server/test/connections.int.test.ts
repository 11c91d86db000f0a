import { eq, sql } from 'drizzle-orm';
import type { LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { auditLog, cases, clinicPartners, users } from '../src/db/schema';
import { createUser } from './support/cases-fixtures';
import { cartItem, order, PATIENT } from './support/shop-fixtures';
import { bearer, json, login, startTestApp, type Session, type TestApp } from './support/test-app';

/**
 * The profile's Connections tab (instructor, leaving them, clinic–partner links), the student
 * discount that follows the instructor's current one, and the complete profile that opening a
 * case and checking out need.
 */
let t: TestApp;
let admin: Session;

const db = () => t.app.database.db;

beforeAll(async () => {
  t = await startTestApp();
  admin = await login(t.app, 'admin');
});
afterAll(async () => {
  await t?.close();
});

type Method = 'GET' | 'POST';
const call = (session: Session | null, method: Method, url: string, payload?: object) =>
  t.app.inject({
    method,
    url,
    headers: session ? bearer(session) : {},
    ...(payload ? { payload } : {}),
  });
const obj = <T = Record<string, unknown>>(response: LightMyRequestResponse): T =>
  json<{ obj: T }>(response).obj;

async function setCapabilities(userId: number, patch: Record<string, unknown>) {
  await db()
    .update(users)
    .set({
      dataCapabilities: sql`${users.dataCapabilities} || ${JSON.stringify(patch)}::jsonb`,
    })
    .where(eq(users.id, userId));
}

/** The instructor discount of a quote for one planning product. */
async function quotedInstructorDiscount(session: Session): Promise<number> {
  const items = [await cartItem(db(), 'PLAN-GUIDE')];
  const { idempotencyKey: _key, ...body } = order({ items });
  const quoted = await call(session, 'POST', '/api/v1/shop/quote', body);
  expect(quoted.statusCode, quoted.body).toBe(200);
  return obj<{ breakdown: { instructorDiscount: number; subtotal: number } }>(quoted).breakdown
    .instructorDiscount;
}

describe("a student's discount is the instructor's current one", () => {
  it('applies a discount an admin sets after the student joined, and ends with the role', async () => {
    const instructor = await createUser(t.app, ['instructor']);
    await setCapabilities(instructor.profile.id, { instructorDiscount: 0 });
    // Joined while the instructor had no discount: the copy on the student's row says 0.
    const student = await createUser(t.app, ['doctor'], { instructorId: instructor.profile.id });
    await setCapabilities(student.profile.id, { instructorDiscount: 0 });
    expect(await quotedInstructorDiscount(student)).toBe(0);

    const set = await call(admin, 'POST', `/api/v1/users/${instructor.profile.id}/set`, {
      dataCapabilities: { instructorDiscount: 20 },
    });
    expect(set.statusCode, set.body).toBe(200);
    expect(await quotedInstructorDiscount(student)).toBeGreaterThan(0);
    const mine = obj<{ id: number; discount: number }>(
      await call(student, 'GET', '/api/v1/profile/instructor'),
    );
    expect(mine).toMatchObject({ id: instructor.profile.id, discount: 20 });
    expect(
      obj<{ instructor_discount: number }>(
        await call(student, 'GET', '/api/v1/profile/getInstructor'),
      ).instructor_discount,
    ).toBe(20);

    // No longer an instructor: no discount, though the link stays until the student leaves.
    await db().update(users).set({ roles: [] }).where(eq(users.id, instructor.profile.id));
    expect(await quotedInstructorDiscount(student)).toBe(0);
    expect(
      obj<{ discount: number }>(await call(student, 'GET', '/api/v1/profile/instructor')).discount,
    ).toBe(0);
  });
});

describe('GET /profile/instructor and POST /profile/leaveInstructor', () => {
  it('answers null without an instructor; leaving without one is a 404', async () => {
    const loner = await createUser(t.app, ['doctor']);
    const response = await call(loner, 'GET', '/api/v1/profile/instructor');
    expect(response.statusCode).toBe(200);
    expect(obj(response)).toBeNull();
    const leaving = { instructorId: loner.profile.id };
    expect((await call(loner, 'POST', '/api/v1/profile/leaveInstructor', leaving)).statusCode).toBe(
      404,
    );
    expect((await call(null, 'GET', '/api/v1/profile/instructor')).statusCode).toBe(401);
    expect((await call(null, 'POST', '/api/v1/profile/leaveInstructor', leaving)).statusCode).toBe(
      401,
    );
  });

  it('lets a student leave: no discount, the instructor stops seeing them, audited', async () => {
    const instructor = await createUser(t.app, ['instructor']);
    await setCapabilities(instructor.profile.id, { instructorDiscount: 25 });
    const student = await createUser(t.app, ['doctor'], { instructorId: instructor.profile.id });
    const other = await createUser(t.app, ['doctor'], { instructorId: instructor.profile.id });
    expect(await quotedInstructorDiscount(student)).toBeGreaterThan(0);
    const cases = `/api/v1/students/${student.profile.id}/cases`;
    expect((await call(instructor, 'GET', cases)).statusCode).toBe(200);

    const leaving = { instructorId: instructor.profile.id };
    // Naming another instructor (a stale screen) ends nothing.
    const wrong = { instructorId: other.profile.id };
    expect((await call(student, 'POST', '/api/v1/profile/leaveInstructor', wrong)).statusCode).toBe(
      404,
    );
    expect(await quotedInstructorDiscount(student)).toBeGreaterThan(0);
    const left = await call(student, 'POST', '/api/v1/profile/leaveInstructor', leaving);
    expect(left.statusCode, left.body).toBe(200);
    expect(obj(left)).toEqual({ left: true });
    expect(obj(await call(student, 'GET', '/api/v1/profile/instructor'))).toBeNull();
    expect(await quotedInstructorDiscount(student)).toBe(0);
    expect((await call(instructor, 'GET', cases)).statusCode).toBe(404);
    // Only the caller's own link ends.
    expect(obj<{ id: number }>(await call(other, 'GET', '/api/v1/profile/instructor')).id).toBe(
      instructor.profile.id,
    );
    const [audit] = await db()
      .select()
      .from(auditLog)
      .where(eq(auditLog.action, 'students.leave_instructor'));
    expect(audit).toMatchObject({
      actorUserId: student.profile.id,
      entityId: String(student.profile.id),
    });
    expect(
      (await call(student, 'POST', '/api/v1/profile/leaveInstructor', leaving)).statusCode,
    ).toBe(404);
  });
});

describe('GET /profile/partnerLinks', () => {
  it("lists the caller's own links, as the clinic or as the partner, and nobody else's", async () => {
    const clinic = await createUser(t.app, ['clinic']);
    const partner = await createUser(t.app, ['partner']);
    const otherClinic = await createUser(t.app, ['clinic']);
    const stranger = await createUser(t.app, ['doctor']);
    await db()
      .insert(clinicPartners)
      .values([
        { clinicId: clinic.profile.id, partnerId: partner.profile.id },
        { clinicId: otherClinic.profile.id, partnerId: partner.profile.id },
      ]);
    const linksOf = async (session: Session) => {
      const response = await call(session, 'GET', '/api/v1/profile/partnerLinks');
      expect(response.statusCode, response.body).toBe(200);
      return obj<{ clinic: { id: number }; partner: { id: number } }[]>(response);
    };
    expect((await linksOf(clinic)).map((link) => link.partner.id)).toEqual([partner.profile.id]);
    expect((await linksOf(partner)).map((link) => link.clinic.id).sort()).toEqual(
      [clinic.profile.id, otherClinic.profile.id].sort(),
    );
    expect(await linksOf(stranger)).toEqual([]);
    expect((await call(null, 'GET', '/api/v1/profile/partnerLinks')).statusCode).toBe(401);
  });
});

describe('a complete profile is needed to open a case or check out', () => {
  it('refuses both with PROFILE_INCOMPLETE, writing nothing, until the address is filled', async () => {
    const doctor = await createUser(t.app, ['doctor']);
    const [row] = await db().select().from(users).where(eq(users.id, doctor.profile.id));
    const address = row!.dataAddress;
    await db()
      .update(users)
      .set({ dataAddress: { ...address, city: '', zipCode: '' } })
      .where(eq(users.id, doctor.profile.id));
    const casesBefore = await db().$count(cases);

    const opened = await call(doctor, 'POST', '/api/v1/case/new', PATIENT);
    expect(opened.statusCode, opened.body).toBe(409);
    expect(json<{ code: string; error: string }>(opened)).toMatchObject({
      code: 'PROFILE_INCOMPLETE',
      error: expect.stringContaining('profile') as unknown,
    });
    const items = [await cartItem(db(), 'PLAN-GUIDE', { planningExtraData: PATIENT })];
    const checkout = await call(doctor, 'POST', '/api/v1/shop/checkout', order({ items }));
    expect(checkout.statusCode, checkout.body).toBe(409);
    expect(json<{ code: string }>(checkout).code).toBe('PROFILE_INCOMPLETE');
    expect(await db().$count(cases)).toBe(casesBefore);

    // In the caller's language.
    await db()
      .update(users)
      .set({ dataInfo: sql`${users.dataInfo} || '{"language":"ptBR"}'::jsonb` })
      .where(eq(users.id, doctor.profile.id));
    const ptBR = await call(doctor, 'POST', '/api/v1/case/new', PATIENT);
    expect(json<{ error: string }>(ptBR).error).toContain('perfil');

    await db().update(users).set({ dataAddress: address }).where(eq(users.id, doctor.profile.id));
    expect((await call(doctor, 'POST', '/api/v1/case/new', PATIENT)).statusCode).toBe(200);
  });
});
