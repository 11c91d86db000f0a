import { asc, eq, inArray } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  CASE_LIST_FILTERS,
  isDeadlineNear,
  isServiceDataValid,
  REVIEW_REASONS,
  nextCaseStatus,
  statusesForFilter,
  type CaseAction,
  type CaseStatus,
} from '@dentflow/domain';
import {
  attachments,
  caseEvents,
  caseReviews,
  caseServices,
  caseUsers,
  cases,
  patients,
  users,
} from '../src/db/schema';
import { seedDemoCases } from '../src/db/seed/demo/cases';
import { bearer, json, login, startTestApp, type TestApp } from './support/test-app';

let t: TestApp;
let ids: Record<string, number>;

type CaseRow = typeof cases.$inferSelect & { fname: string; lname: string };
let rows: CaseRow[];
let services: (typeof caseServices.$inferSelect)[];

beforeAll(async () => {
  t = await startTestApp();
  const db = t.app.database.db;
  const people = await db.select({ id: users.id, nickName: users.nickName }).from(users);
  ids = Object.fromEntries(people.map((p) => [p.nickName, p.id]));
  const joined = await db
    .select()
    .from(cases)
    .innerJoin(patients, eq(patients.id, cases.patientId))
    .orderBy(asc(cases.id));
  rows = joined.map((r) => ({ ...r.cases, fname: r.patients.fname, lname: r.patients.lname }));
  services = await db.select().from(caseServices).orderBy(asc(caseServices.id));
});

afterAll(async () => {
  await t?.close();
});

/** Written out here rather than imported, so the test checks the seed against the schema's rule. */
const EXPECTED_LIST_GROUP: Record<string, string | null> = {
  new: 'new',
  revision: 'new',
  checkingout: 'new',
  execute: 'execute',
  approve: 'approve',
  finishing: 'finishing',
  print: 'print',
  finished: 'finished',
  closed: 'finished',
  cancelled: 'cancelled',
  archive: null,
};
const VALIDATED: string[] = ['execute', 'approve', 'finishing', 'print', 'finished', 'closed'];

describe('demo cases seed', () => {
  it('seeds about 30 cases of the demo doctor and clinic over every status', () => {
    expect(rows.length).toBeGreaterThanOrEqual(25);
    expect(rows.length).toBeLessThanOrEqual(40);
    expect(new Set(rows.map((r) => r.ownerId))).toEqual(new Set([ids.doctor, ids.clinic]));
    const statuses = new Set(rows.map((r) => r.caseStatus));
    for (const status of Object.keys(EXPECTED_LIST_GROUP).filter((s) => s !== 'archive')) {
      expect(statuses, status).toContain(status);
    }
  });

  it('gives the demo doctor and the demo clinic something in every list filter', () => {
    for (const owner of ['doctor', 'clinic']) {
      for (const filter of CASE_LIST_FILTERS) {
        const shown = rows.filter(
          (r) =>
            r.ownerId === ids[owner] &&
            !r.caseArchived &&
            (statusesForFilter(filter) as string[]).includes(r.caseStatus),
        );
        expect(shown.length, `${owner} ${filter}`).toBeGreaterThan(0);
      }
    }
  });

  it('has one archived case: finished, the doctor’s, out of the lists’ reach', () => {
    const archived = rows.filter((r) => r.caseArchived);
    expect(archived).toHaveLength(1);
    expect(archived[0]).toMatchObject({ caseStatus: 'finished', ownerId: ids.doctor });
    expect(archived[0]!.finishAt).not.toBeNull();
  });

  it('keeps list_group, search_text, has_printable and case_review consistent', async () => {
    const reviews = await t.app.database.db.select().from(caseReviews);
    for (const r of rows) {
      expect(r.listGroup, `case ${r.id} ${r.caseStatus}`).toBe(EXPECTED_LIST_GROUP[r.caseStatus]);
      const folded = `${r.fname} ${r.lname}`
        .normalize('NFD')
        .replace(/[\u0300-\u036f]/g, '')
        .toLowerCase();
      expect(r.searchText).toBe(folded);
      expect(r.searchText).toMatch(/^[a-z' ]+$/);
      const own = services.filter((s) => s.caseId === r.id);
      expect(r.hasPrintable, `case ${r.id}`).toBe(own.some((s) => s.printableProduct));
      const open = reviews.filter((review) => review.caseId === r.id && !review.solvedAt);
      expect(r.caseReview, `case ${r.id}`).toBe(open.length > 0);
    }
    // One review raised by the planner; the others are the deadline rule's, on cases near it.
    const open = reviews.filter((review) => !review.solvedAt);
    expect(open.filter((review) => review.reasonId === null)).toHaveLength(1);
    for (const review of open.filter((r) => r.reasonId !== null)) {
      expect(review.reasonId).toBe(REVIEW_REASONS.planningDeadlineNear);
      const row = rows.find((r) => r.id === review.caseId)!;
      expect(isDeadlineNear(row.deadlineAt, new Date(), row.caseStatus), `case ${row.id}`).toBe(
        true,
      );
    }
    // Not every case in work is late: some have more than a day left.
    const inWork = rows.filter((r) => ['execute', 'approve'].includes(r.caseStatus));
    expect(inWork.some((r) => !isDeadlineNear(r.deadlineAt, new Date(), r.caseStatus))).toBe(true);
    // Accented names are searchable without their accents.
    expect(rows.map((r) => r.searchText)).toEqual(
      expect.arrayContaining(['joao pereira', 'carlos muller', 'marta muller']),
    );
    expect(rows.map((r) => r.fname)).toContain('João');
    expect(rows.map((r) => r.lname)).toContain('Múller');
  });

  it('fills valid service data past new (both layouts) and sets category 3 fields only there', () => {
    const byCase = new Map(rows.map((r) => [r.id, r]));
    let oldLayout = 0;
    for (const s of services) {
      const status = byCase.get(s.caseId)!.caseStatus;
      if (s.dataVersion < 3) {
        oldLayout++;
        expect((s.data as { terms: boolean }).terms).toBe(true);
      } else if (s.productCategoryId !== 3) {
        expect((s.data as { jaw: unknown }).jaw).toBeNull();
      } else {
        expect((s.data as { jaw: unknown }).jaw).not.toBeNull();
      }
      if (status !== 'new') expect(isServiceDataValid(s), `service ${s.id} (${status})`).toBe(true);
    }
    expect(oldLayout).toBeGreaterThanOrEqual(2);
    // Every case past the broad 'new' has at least one service.
    for (const r of rows.filter((row) => VALIDATED.includes(row.caseStatus))) {
      expect(services.some((s) => s.caseId === r.id)).toBe(true);
    }
  });

  it('assigns the demo planner, validation and deadline from execute onward', async () => {
    const members = await t.app.database.db.select().from(caseUsers);
    for (const r of rows) {
      const own = services.filter((s) => s.caseId === r.id);
      if (VALIDATED.includes(r.caseStatus)) {
        expect(r.validatedAt, `case ${r.id}`).not.toBeNull();
        expect(r.deadlineAt!.getTime()).toBeGreaterThan(r.validatedAt!.getTime());
        expect(own.every((s) => s.plannerId === ids.planner)).toBe(true);
        expect(members.some((m) => m.caseId === r.id && m.userId === ids.planner)).toBe(true);
      }
      if (['new', 'checkingout'].includes(r.caseStatus)) {
        expect(r.validatedAt).toBeNull();
        expect(r.deadlineAt).toBeNull();
        expect(own.every((s) => s.plannerId === null)).toBe(true);
      }
      if (['finished', 'closed'].includes(r.caseStatus)) expect(r.finishAt).not.toBeNull();
      else expect(r.finishAt).toBeNull();
      if (['approve', 'finishing', 'print', 'finished', 'closed'].includes(r.caseStatus)) {
        expect(own.every((s) => s.approveRequestAt !== null)).toBe(true);
      }
      if (r.caseStatus === 'approve') expect(own.every((s) => s.approveAt === null)).toBe(true);
      if (['finishing', 'print', 'finished', 'closed'].includes(r.caseStatus)) {
        expect(own.every((s) => s.approveAt !== null)).toBe(true);
      }
    }
  });

  it('records a history whose moves replay to each case’s status', async () => {
    const events = await t.app.database.db.select().from(caseEvents).orderBy(asc(caseEvents.id));
    for (const r of rows) {
      const own = events.filter((e) => e.caseId === r.id);
      expect(own[0]?.action, `case ${r.id}`).toBe('created');
      expect(own.map((e) => e.at.getTime())).toEqual(
        own.map((e) => e.at.getTime()).sort((a, b) => a - b),
      );
      expect(own.at(-1)!.at.getTime()).toBe(r.modifiedAt.getTime());
      let status: CaseStatus = 'new';
      const printable = services.some((s) => s.caseId === r.id && s.printableProduct);
      for (const e of own.filter((event) => event.toStatus !== null)) {
        expect(e.fromStatus).toBe(status);
        const to = nextCaseStatus(status, e.action as CaseAction, {
          hasPrintableService: printable,
          checksPass: true,
        });
        expect(to, `case ${r.id}: ${e.action} from ${status}`).toBe(e.toStatus);
        status = to!;
      }
      expect(status).toBe(r.caseStatus);
      expect(own.some((e) => e.action === 'archived')).toBe(r.caseArchived);
    }
  });

  it('is deterministic and fast (seeding again in a rolled-back transaction)', async () => {
    // Without a storage (the template databases of the tests): no sample files.
    expect(await t.app.database.db.select().from(attachments)).toHaveLength(0);
    const db = t.app.database.db;
    const shape = (list: { caseStatus: string; fname: string; listGroup: string | null }[]) =>
      list.map((r) => `${r.caseStatus}/${r.listGroup}/${r.fname}`);
    let again: string[] = [];
    let elapsed = 0;
    await db
      .transaction(async (tx) => {
        const started = performance.now();
        const seeded = await seedDemoCases(tx);
        elapsed = performance.now() - started;
        const joined = await tx
          .select()
          .from(cases)
          .innerJoin(patients, eq(patients.id, cases.patientId))
          .where(inArray(cases.id, seeded.caseIds))
          .orderBy(asc(cases.id));
        again = shape(joined.map((j) => ({ ...j.cases, fname: j.patients.fname })));
        tx.rollback();
      })
      .catch((error: unknown) => {
        if (!(error instanceof Error) || !/rollback/i.test(error.message)) throw error;
      });
    expect(again).toEqual(shape(rows));
    expect(elapsed).toBeLessThan(2000);
  });

  it('attaches the sample files when given a storage: validated cases have the client’s public files', async () => {
    const db = t.app.database.db;
    let files: (typeof attachments.$inferSelect)[] = [];
    let seededRows: (typeof cases.$inferSelect)[] = [];
    await db
      .transaction(async (tx) => {
        const seeded = await seedDemoCases(tx, { storage: t.app.files.storage });
        seededRows = await tx.select().from(cases).where(inArray(cases.id, seeded.caseIds));
        files = await tx
          .select()
          .from(attachments)
          .where(inArray(attachments.caseId, seeded.caseIds));
        tx.rollback();
      })
      .catch((error: unknown) => {
        if (!(error instanceof Error) || !/rollback/i.test(error.message)) throw error;
      });
    for (const row of seededRows) {
      const own = files.filter((f) => f.caseId === row.id);
      if (row.caseStatus === 'cancelled') expect(own).toHaveLength(0);
      else {
        expect(
          own.some((f) => f.userId === row.ownerId && f.status === 'public'),
          `case ${row.id}`,
        ).toBe(true);
      }
    }
    const stored = files[0]!;
    expect((await t.app.files.storage.head(stored.storageKey!))?.size).toBe(stored.filesize);
  });

  it('lists the doctor’s new cases through the API', async () => {
    const doctor = await login(t.app, 'doctor');
    const response = await t.app.inject({
      method: 'GET',
      url: '/api/v1/case/list/new/0',
      headers: bearer(doctor),
    });
    expect(response.statusCode, response.body).toBe(200);
    const page = json<{ obj: { items: { id: number }[]; total: number } }>(response).obj;
    const expected = rows.filter(
      (r) => r.ownerId === ids.doctor && r.listGroup === 'new' && !r.caseArchived,
    );
    expect(page.items.length).toBeGreaterThan(0);
    expect(page.total).toBe(expected.length);
  });
});
