import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { casePageSchema, type CasePage } from '@dentflow/domain';
import { caseApi, createUser, demoSessions, objOf } from './support/cases-fixtures';
import { startTestApp, type Session, type TestApp } from './support/test-app';

/**
 * A searched list counts its matches up to CASE_SEARCH_TOTAL_CAP (1,000; 5 here), then answers
 * the cap with `totalCapped` (docs/decisions/026-capped-search-total.md). Unsearched totals stay
 * exact; the page itself is never cut by the cap.
 */
const CAP = 5;
let t: TestApp;
let api: ReturnType<typeof caseApi>;
let supervisor: Session;
let me: Session;

const page = async (session: Session, query: string) =>
  casePageSchema.parse(objOf<CasePage>(await api(session, 'GET', `list/new/0?${query}`)));

beforeAll(async () => {
  t = await startTestApp({ CASE_SEARCH_TOTAL_CAP: String(CAP) });
  api = caseApi(t.app);
  supervisor = (await demoSessions(t.app)).supervisor;
  me = await createUser(t.app, ['doctor']);
  // Seven cases of "Capado", exactly five of "Quintuplo".
  for (let i = 0; i < CAP + 2; i += 1) {
    await api(me, 'POST', 'new', { patient: { fname: `Paciente${i}`, lname: 'Capado' } });
  }
  for (let i = 0; i < CAP; i += 1) {
    await api(me, 'POST', 'new', { patient: { fname: `Paciente${i}`, lname: 'Quintuplo' } });
  }
});
afterAll(async () => {
  await t?.close();
});

describe('capped search totals', () => {
  it('a search with more matches than the cap answers the cap, flagged, with the whole page', async () => {
    for (const session of [me, supervisor]) {
      const found = await page(session, 'q=capado&pageSize=100');
      expect(found.total).toBe(CAP);
      expect(found.totalCapped).toBe(true);
      expect(found.items).toHaveLength(CAP + 2);
    }
  });

  it('a search with exactly the cap in matches is exact', async () => {
    for (const session of [me, supervisor]) {
      const found = await page(session, 'q=quintuplo');
      expect(found.total).toBe(CAP);
      expect(found.totalCapped).toBeUndefined();
    }
  });

  it('an unsearched list counts every case, past the cap', async () => {
    const all = await page(me, 'pageSize=5');
    expect(all.total).toBe(2 * CAP + 2);
    expect(all.totalCapped).toBeUndefined();
  });

  it("another doctor's search finds none of these cases", async () => {
    const other = await createUser(t.app, ['doctor']);
    const found = await page(other, 'q=capado');
    expect(found).toMatchObject({ total: 0, items: [] });
    expect(found.totalCapped).toBeUndefined();
  });
});
