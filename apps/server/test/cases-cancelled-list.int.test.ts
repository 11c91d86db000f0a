import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CASE_LIST_FILTERS, type CaseCounts, type CasePage } from '@dentflow/domain';
import {
  caseApi,
  caseInStatus,
  createUser,
  demoSessions,
  objOf,
  type CaseSetup,
} from './support/cases-fixtures';
import { startTestApp, type Session, type TestApp } from './support/test-app';

/**
 * No case disappears: a cancelled case that is not archived has its own list, count and search
 * ('cancelled'); archived, it is found by the archive search, which filters by status too.
 */
let t: TestApp;
let api: ReturnType<typeof caseApi>;
let s: Awaited<ReturnType<typeof demoSessions>>;
/** A doctor of its own, so their lists hold only this file's cases. */
let owner: Session;
let otherDoctor: Session;
let setup: CaseSetup;
let cancelled: number;
let live: number;
/** The supervisor's cancelled count before this file's cancelled case. */
let staffBefore: number;

const counts = async (who: Session) => objOf<CaseCounts>(await api(who, 'GET', 'counts'));
const list = async (who: Session, filter: string, query = '') =>
  objOf<CasePage>(await api(who, 'GET', `list/${filter}/0?pageSize=100${query}`));
const ids = (page: CasePage) => page.items.map((item) => item.id);

beforeAll(async () => {
  t = await startTestApp();
  api = caseApi(t.app);
  s = await demoSessions(t.app);
  [owner, otherDoctor] = await Promise.all([
    createUser(t.app, ['doctor'], { language: 'ptBR' }),
    createUser(t.app, ['doctor']),
  ]);
  setup = { app: t.app, owner, supervisor: s.supervisor, planner: s.planner, printer: s.printer };
  staffBefore = (await counts(s.supervisor)).cancelled;
  cancelled = await caseInStatus(setup, 'cancelled', {
    patient: { fname: 'Célia', lname: 'Cancelada' },
  });
  live = await caseInStatus(setup, 'new', { patient: { fname: 'Célia', lname: 'Ativa' } });
}, 60_000);

afterAll(async () => {
  await t?.close();
});

describe('the cancelled list', () => {
  it("holds the owner's cancelled case, with its count, and no other list does", async () => {
    const own = await counts(owner);
    expect(own).toMatchObject({ cancelled: 1, new: 1 });
    const page = await list(owner, 'cancelled');
    expect(page).toMatchObject({ total: 1 });
    expect(page.items[0]).toMatchObject({ id: cancelled, caseStatus: 'cancelled' });
    for (const filter of CASE_LIST_FILTERS.filter((f) => f !== 'cancelled')) {
      expect(ids(await list(owner, filter)), filter).not.toContain(cancelled);
    }
    expect(ids(await list(owner, 'new'))).toEqual([live]);
  });

  it('is searched like the other lists: by name and by case number', async () => {
    expect(ids(await list(owner, 'cancelled', '&q=celia'))).toEqual([cancelled]);
    expect(ids(await list(owner, 'cancelled', '&q=ativa'))).toEqual([]);
    expect(ids(await list(owner, 'cancelled', `&q=${cancelled}`))).toEqual([cancelled]);
    expect(ids(await list(owner, 'new', '&q=celia'))).toEqual([live]);
    expect(ids(await list(s.supervisor, 'cancelled', '&q=cancelada'))).toEqual([cancelled]);
  });

  it("is in staff's cancelled list and count", async () => {
    const staff = await counts(s.supervisor);
    expect(staff.cancelled).toBe(staffBefore + 1);
    const page = await list(s.supervisor, 'cancelled');
    expect(page.total).toBe(staff.cancelled);
    expect(ids(page)).toContain(cancelled);
  });

  it('is hidden from another doctor', async () => {
    expect((await counts(otherDoctor)).cancelled).toBe(0);
    expect(await list(otherDoctor, 'cancelled', '&q=celia')).toMatchObject({ total: 0 });
    expect((await api(otherDoctor, 'GET', `${cancelled}/get`)).statusCode).toBe(404);
  });
});

describe('archived cancelled cases', () => {
  it('leave the list and its count; the archive search finds them by status', async () => {
    const finished = await caseInStatus(setup, 'finished', {
      patient: { fname: 'Célia', lname: 'Terminada' },
    });
    for (const id of [cancelled, finished]) {
      const archived = await api(owner, 'POST', `${id}/archive`);
      expect(archived.statusCode, archived.body).toBe(200);
    }
    expect((await counts(owner)).cancelled).toBe(0);
    expect(ids(await list(owner, 'cancelled'))).toEqual([]);
    const search = async (query: string) =>
      ids(objOf<CasePage>(await api(owner, 'GET', `archive/0?${query}`)));
    expect(await search('patient=celia')).toEqual([finished, cancelled]);
    expect(await search('status=cancelled')).toEqual([cancelled]);
    expect(await search('status=finished')).toEqual([finished]);
    expect(await search('status=closed')).toEqual([]);
    expect(await search('status=cancelled&patient=terminada')).toEqual([]);
    expect(objOf<CasePage>(await api(otherDoctor, 'GET', 'archive/0?status=cancelled')).total).toBe(
      0,
    );
  });
});
