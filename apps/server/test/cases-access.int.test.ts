import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  CASE_LIST_FILTERS,
  type CaseCounts,
  type CaseDetail,
  type CasePage,
} from '@dentflow/domain';
import {
  caseApi,
  caseInStatus,
  codeOf,
  createUser,
  demoSessions,
  objOf,
} from './support/cases-fixtures';
import { startTestApp, type Session, type TestApp } from './support/test-app';

/**
 * Every cell: who sees which case (404 otherwise, like a missing case), read-only or
 * not, and that the lists and counts agree with `get` for every user.
 */
let t: TestApp;
let api: ReturnType<typeof caseApi>;
let u: Record<string, Session>;
/** new, owned by the demo doctor; clinic and partner added as case users. */
let newCase: number;
/** finishing, printable (surgical guide printing), planned by the demo planner. */
let printable: number;
/** finishing, not printable (planning only), planned by the demo planner. */
let planningOnly: number;
/** finished and archived. */
let archived: number;
/** cancelled, not archived: listed under 'cancelled'. */
let cancelled: number;

beforeAll(async () => {
  t = await startTestApp();
  api = caseApi(t.app);
  const demo = await demoSessions(t.app);
  u = {
    ...demo,
    doctor2: await createUser(t.app, ['doctor']),
    planner2: await createUser(t.app, ['planner']),
    instructor2: await createUser(t.app, ['instructor']),
  };
  const setup = {
    app: t.app,
    owner: u.doctor!,
    supervisor: u.supervisor!,
    planner: u.planner!,
    printer: u.printer!,
  };
  newCase = await caseInStatus(setup, 'new');
  for (const member of [u.clinic!, u.partner!]) {
    const added = await api(u.supervisor!, 'POST', `${newCase}/users`, {
      userId: member.profile.id,
      triggerNotification: false,
    });
    expect(added.statusCode).toBe(200);
  }
  printable = await caseInStatus(setup, 'finishing', { productCode: 'MFG-GUIDE' });
  planningOnly = await caseInStatus(setup, 'finishing', { productCode: 'PLAN-SMILE' });
  archived = await caseInStatus(setup, 'finished');
  expect((await api(u.doctor!, 'POST', `${archived}/archive`)).statusCode).toBe(200);
  cancelled = await caseInStatus(setup, 'cancelled');
});
afterAll(async () => {
  await t?.close();
});

type Cell = 'rw' | 'ro' | 404;
/** user → [newCase, printable, planningOnly, archived] */
const TABLE: Record<string, [Cell, Cell, Cell, Cell]> = {
  admin: ['rw', 'rw', 'rw', 'rw'],
  supervisor: ['rw', 'rw', 'rw', 'rw'],
  doctor: ['rw', 'rw', 'rw', 'rw'],
  clinic: ['ro', 404, 404, 404],
  partner: ['ro', 404, 404, 404],
  planner: [404, 'rw', 'rw', 'rw'],
  printer: [404, 'ro', 404, 'ro'],
  instructor: ['ro', 'ro', 'ro', 'ro'],
  doctor2: [404, 404, 404, 404],
  planner2: [404, 404, 404, 404],
  instructor2: [404, 404, 404, 404],
};

describe('who sees a case (get)', () => {
  for (const [user, cells] of Object.entries(TABLE)) {
    it(`${user}: ${cells.join(' ')}`, async () => {
      const ids = [newCase, printable, planningOnly, archived];
      for (const [index, cell] of cells.entries()) {
        const response = await api(u[user]!, 'GET', `${ids[index]}/get`);
        if (cell === 404) {
          expect(response.statusCode, `case ${index}`).toBe(404);
          expect(codeOf(response)).toBe('NOT_FOUND');
        } else {
          expect(response.statusCode, `case ${index}`).toBe(200);
          expect(objOf(response).readOnly, `case ${index}`).toBe(cell === 'ro');
        }
      }
    });
  }

  it('a case that does not exist answers the same 404', async () => {
    const response = await api(u.doctor!, 'GET', '999999/get');
    expect(response.statusCode).toBe(404);
    expect(codeOf(response)).toBe('NOT_FOUND');
  });

  it('hidden cases refuse every read and write with 404', async () => {
    const other = u.doctor2!;
    for (const [method, url, body] of [
      ['GET', `${newCase}/history`, undefined],
      ['POST', `${newCase}/set`, { modifiedAt: new Date().toISOString(), observation: 'x' }],
      ['POST', `${newCase}/move`, { action: 'submit' }],
      ['POST', `${newCase}/services/add`, { productId: 1 }],
      ['POST', `${newCase}/review`, { description: 'x' }],
      ['POST', `${archived}/unarchive`, undefined],
    ] as const) {
      const response = await api(other, method, url, body);
      expect(response.statusCode, url).toBe(404);
    }
  });

  it('read-only viewers get 403 on writes', async () => {
    const detail = objOf(await api(u.doctor!, 'GET', `${newCase}/get`));
    for (const viewer of [u.clinic!, u.partner!, u.instructor!]) {
      for (const [url, body] of [
        [`${newCase}/set`, { modifiedAt: detail.modifiedAt, observation: 'x' }],
        [`${newCase}/move`, { action: 'submit' }],
        [`${newCase}/move`, { action: 'cancel' }],
        [`${newCase}/services/add`, { productId: detail.services[0]!.productId }],
        [`${newCase}/users`, { userId: viewer.profile.id, triggerNotification: true }],
      ] as const) {
        const response = await api(viewer, 'POST', url, body);
        expect(response.statusCode, `${viewer.profile.id} ${url}`).toBe(403);
        expect(codeOf(response)).toBe('FORBIDDEN');
      }
    }
    // The printer may print but not edit or archive.
    const p = objOf(await api(u.printer!, 'GET', `${printable}/get`));
    expect(p.actions).toEqual(['startPrint']);
    expect(p.can).toEqual([]);
  });
});

describe('lists and counts agree with get for every user', () => {
  for (const user of Object.keys(TABLE)) {
    it(user, async () => {
      const session = u[user]!;
      const listed = new Map<number, string>();
      const counts = objOf<CaseCounts>(await api(session, 'GET', 'counts'));
      for (const filter of CASE_LIST_FILTERS) {
        const page = objOf<CasePage>(await api(session, 'GET', `list/${filter}/0?pageSize=100`));
        expect(page.total, filter).toBe(counts[filter]);
        expect(page.items.length).toBe(Math.min(100, page.total));
        for (const item of page.items) {
          expect(item.caseArchived).toBe(false);
          if (filter !== 'checkingout') listed.set(item.id, filter);
          if (filter === 'cancelled') expect(item.caseStatus).toBe('cancelled');
        }
      }
      // Every case in the database: visible by get ⇔ in a list (archived ones never listed).
      const all = objOf<CasePage>(await api(u.supervisor!, 'GET', 'list/new/0?pageSize=100'));
      const candidates = new Set<number>([newCase, printable, planningOnly, archived, cancelled]);
      for (const filter of CASE_LIST_FILTERS) {
        const page = objOf<CasePage>(await api(u.admin!, 'GET', `list/${filter}/0?pageSize=100`));
        for (const item of page.items) candidates.add(item.id);
      }
      expect(all.total).toBeGreaterThan(0);
      for (const id of candidates) {
        const got = await api(session, 'GET', `${id}/get`);
        const visible = got.statusCode === 200;
        const detail = visible ? objOf<CaseDetail>(got) : undefined;
        // Cancelled cases too: only archived ones (and the legacy 'archive' status) are unlisted.
        const listable = visible && !detail!.caseArchived && detail!.caseStatus !== 'archive';
        expect(listed.has(id), `case ${id} (${detail?.caseStatus ?? 'hidden'})`).toBe(listable);
      }
    });
  }
});
