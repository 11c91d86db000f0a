import pg from 'pg';
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

describe('the staff search walks the list index', () => {
  /**
   * The plan PostgreSQL picks when the list index is the cheapest path (the tiny test table would
   * otherwise be read whole): a searched staff page and its capped total must be index-only walks
   * in list order, which stop at the page's last row or at the cap whatever the table's size. If
   * the index lacked `search_text`, each walked entry would cost a heap read (an "Index Scan").
   */
  const planOf = async (client: pg.Client, statement: string) => {
    const { rows } = await client.query<{ 'QUERY PLAN': unknown }>(
      `explain (format json) ${statement}`,
    );
    return JSON.stringify(rows[0]!['QUERY PLAN']);
  };

  it('reads the page and the capped total from cases_list_idx and cases_status_idx alone', async () => {
    const client = new pg.Client({ connectionString: t.config.databaseUrl });
    await client.connect();
    try {
      await client.query('vacuum analyze cases');
      await client.query('set enable_seqscan = off');
      await client.query('set enable_bitmapscan = off');
      const searched = (filter: string) =>
        `from cases where ${filter} and case_archived = false and search_text like '%capado%'`;
      for (const [filter, index] of [
        ["list_group = 'new'", 'cases_list_idx'],
        ["case_status = 'checkingout'", 'cases_status_idx'],
      ] as const) {
        const page = await planOf(
          client,
          `select id ${searched(filter)} order by modified_at desc, id desc limit 20`,
        );
        const total = await planOf(
          client,
          `select count(*) from (select 1 ${searched(filter)} limit 1001) matches`,
        );
        for (const plan of [page, total]) {
          expect(plan).toContain('"Node Type":"Index Only Scan"');
          expect(plan).toContain(`"Index Name":"${index}"`);
        }
      }
    } finally {
      await client.end();
    }
  });

  it("plans from a 1,000-entry histogram of search_text, so a common name's share is not misjudged", async () => {
    // With the default 100 entries, one ANALYZE in eight at a million cases halved the estimate
    // for "muller" and the capped total took the trigram bitmap: 16 ms instead of 3.4.
    const client = new pg.Client({ connectionString: t.config.databaseUrl });
    await client.connect();
    try {
      const { rows } = await client.query<{ target: number }>(
        `select attstattarget as target from pg_attribute
          where attrelid = 'cases'::regclass and attname = 'search_text'`,
      );
      expect(rows[0]?.target).toBe(1000);
    } finally {
      await client.end();
    }
  });
});
