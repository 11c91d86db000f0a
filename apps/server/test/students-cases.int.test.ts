import { asc, desc, eq, inArray } from 'drizzle-orm';
import type { LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { caseServices, cases, patients, users } from '../src/db/schema';
import { caseApi, createUser } from './support/cases-fixtures';
import { bearer, json, login, startTestApp, type Session, type TestApp } from './support/test-app';

interface StudentCasesPage {
  items: {
    id: number;
    patient: { fname: string; lname: string };
    caseStatus: string;
    caseArchived: boolean;
    modifiedAt: string;
    services: { id: number; productName: string }[];
  }[];
  total: number;
  page: number;
  pageSize: number;
}
type Envelope = { code: string; error: string; fields?: Record<string, string> };

let t: TestApp;
let instructor: Session;
let doctor: Session;

beforeAll(async () => {
  t = await startTestApp();
  [instructor, doctor] = await Promise.all([
    login(t.app, 'instructor@dentflow.local'),
    login(t.app, 'doctor'),
  ]);
});
afterAll(async () => {
  await t?.close();
});

const casesOf = (session: Session | null, studentId: number | string, query = '') =>
  t.app.inject({
    method: 'GET',
    url: `/api/v1/students/${studentId}/cases${query}`,
    headers: session ? bearer(session) : {},
  });

function pageOf(response: LightMyRequestResponse): StudentCasesPage {
  expect(response.statusCode, response.body).toBe(200);
  return json<{ obj: StudentCasesPage }>(response).obj;
}

/** What the database holds for an owner, in the list's order (newest change first, then id). */
const storedCasesOf = (ownerId: number) =>
  t.app.database.db
    .select({
      id: cases.id,
      fname: patients.fname,
      lname: patients.lname,
      caseArchived: cases.caseArchived,
    })
    .from(cases)
    .innerJoin(patients, eq(patients.id, cases.patientId))
    .where(eq(cases.ownerId, ownerId))
    .orderBy(desc(cases.modifiedAt), desc(cases.id));

describe("an instructor's student's cases", () => {
  it("lists the demo doctor's cases, archived included, newest change first", async () => {
    const stored = await storedCasesOf(doctor.profile.id);
    expect(stored.some((row) => row.caseArchived)).toBe(true);
    const page = pageOf(await casesOf(instructor, doctor.profile.id));
    expect(page).toMatchObject({ total: stored.length, page: 0, pageSize: 20 });
    expect(page.items.map((item) => item.id)).toEqual(stored.slice(0, 20).map((row) => row.id));
    const services = await t.app.database.db
      .select({ id: caseServices.id, caseId: caseServices.caseId })
      .from(caseServices)
      .where(
        inArray(
          caseServices.caseId,
          page.items.map((item) => item.id),
        ),
      )
      .orderBy(asc(caseServices.id));
    expect(services.length).toBeGreaterThan(0);
    for (const item of page.items) {
      const row = stored.find((candidate) => candidate.id === item.id)!;
      expect(item.patient).toEqual({ fname: row.fname, lname: row.lname });
      expect(item.caseArchived).toBe(row.caseArchived);
      expect(item.services.map((service) => service.id)).toEqual(
        services.filter((service) => service.caseId === item.id).map((service) => service.id),
      );
      for (const service of item.services) expect(service.productName).not.toBe('');
    }
    // The "Open case" link works for the instructor: the case view answers them.
    const opened = await caseApi(t.app)(instructor, 'GET', `${page.items[0]!.id}/get`);
    expect(opened.statusCode, opened.body).toBe(200);
  });

  it('pages by 20 with the total, and answers an empty page past the end', async () => {
    const student = await createUser(t.app, ['doctor'], { instructorId: instructor.profile.id });
    expect(pageOf(await casesOf(instructor, student.profile.id))).toEqual({
      items: [],
      total: 0,
      page: 0,
      pageSize: 20,
    });
    const created: number[] = [];
    for (let n = 1; n <= 21; n += 1) {
      const response = await caseApi(t.app)(student, 'POST', 'new', {
        patient: { fname: 'Paged', lname: `Patient ${n}` },
      });
      expect(response.statusCode, response.body).toBe(200);
      created.push(json<{ obj: { id: number } }>(response).obj.id);
    }
    const newestFirst = [...created].reverse();

    const first = pageOf(await casesOf(instructor, student.profile.id, '?page=0'));
    expect(first.total).toBe(21);
    expect(first.items.map((item) => item.id)).toEqual(newestFirst.slice(0, 20));
    expect(first.items[0]).toMatchObject({
      patient: { fname: 'Paged', lname: 'Patient 21' },
      caseStatus: 'new',
      caseArchived: false,
      services: [],
    });
    const second = pageOf(await casesOf(instructor, student.profile.id, '?page=1'));
    expect(second).toMatchObject({ total: 21, page: 1, pageSize: 20 });
    expect(second.items.map((item) => item.id)).toEqual([created[0]]);
    expect(pageOf(await casesOf(instructor, student.profile.id, '?page=2'))).toEqual({
      items: [],
      total: 21,
      page: 2,
      pageSize: 20,
    });
  });

  it("answers 404 for a doctor who is not the caller's student, whoever's student they are", async () => {
    const loner = await createUser(t.app, ['doctor']);
    const otherInstructor = await createUser(t.app, ['instructor']);
    const othersStudent = await createUser(t.app, ['doctor'], {
      instructorId: otherInstructor.profile.id,
    });
    await caseApi(t.app)(othersStudent, 'POST', 'new', {
      patient: { fname: 'Not', lname: 'Mine' },
    });
    for (const studentId of [
      loner.profile.id,
      othersStudent.profile.id,
      instructor.profile.id,
      2_147_483_647,
    ]) {
      const response = await casesOf(instructor, studentId);
      expect(response.statusCode, String(studentId)).toBe(404);
      expect(json<Envelope>(response).code).toBe('NOT_FOUND');
    }
    // The other instructor does see their own student's case.
    expect(pageOf(await casesOf(otherInstructor, othersStudent.profile.id)).total).toBe(1);
  });

  it('answers 404 once the student account is deleted', async () => {
    const student = await createUser(t.app, ['doctor'], { instructorId: instructor.profile.id });
    pageOf(await casesOf(instructor, student.profile.id));
    await t.app.database.db
      .update(users)
      .set({ deletedAt: new Date() })
      .where(eq(users.id, student.profile.id));
    expect((await casesOf(instructor, student.profile.id)).statusCode).toBe(404);
  });

  it("ends the instructor's access to a student's cases when an admin deletes the student", async () => {
    const student = await createUser(t.app, ['doctor'], { instructorId: instructor.profile.id });
    const opened = await caseApi(t.app)(student, 'POST', 'new', {
      patient: { fname: 'Ana', lname: 'Deleted' },
    });
    expect(opened.statusCode, opened.body).toBe(200);
    const caseId = json<{ obj: { id: number } }>(opened).obj.id;
    expect((await caseApi(t.app)(instructor, 'GET', `${caseId}/get`)).statusCode).toBe(200);
    const admin = await login(t.app, 'admin');
    const deleted = await t.app.inject({
      method: 'DELETE',
      url: `/api/v1/users/delete/${student.profile.id}`,
      headers: bearer(admin),
    });
    expect(deleted.statusCode, deleted.body).toBe(200);
    // The anonymization clears the student's instructor: the case stays, the relation ends.
    expect((await caseApi(t.app)(instructor, 'GET', `${caseId}/get`)).statusCode).toBe(404);
    const supervisor = await login(t.app, 'supervisor');
    expect((await caseApi(t.app)(supervisor, 'GET', `${caseId}/get`)).statusCode).toBe(200);
  });

  it('refuses a doctor and a supervisor with 403 and an anonymous caller with 401', async () => {
    const supervisor = await login(t.app, 'supervisor');
    for (const caller of [doctor, supervisor]) {
      const response = await casesOf(caller, doctor.profile.id);
      expect(response.statusCode, String(caller.profile.roles)).toBe(403);
    }
    expect((await casesOf(null, doctor.profile.id)).statusCode).toBe(401);
  });

  it.each([
    ['?page=-1', 'page'],
    ['?page=abc', 'page'],
    ['?page=1.5', 'page'],
    ['?page=100001', 'page'],
  ])('bad page %s → 400 on %s', async (query, field) => {
    const response = await casesOf(instructor, doctor.profile.id, query);
    expect(response.statusCode, response.body).toBe(400);
    const body = json<Envelope>(response);
    expect(body.code).toBe('VALIDATION_ERROR');
    expect(Object.keys(body.fields ?? {})).toContain(field);
  });

  it('bad student id → 400', async () => {
    for (const studentId of ['abc', '0', '-3']) {
      const response = await casesOf(instructor, studentId);
      expect(response.statusCode, studentId).toBe(400);
      expect(json<Envelope>(response).code).toBe('VALIDATION_ERROR');
    }
  });
});
