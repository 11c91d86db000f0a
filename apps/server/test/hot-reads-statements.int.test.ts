import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { statementsSentDuring } from './support/sent-statements';
import { bearer, startTestApp, type Session, type TestApp } from './support/test-app';
import { caseSetup, caseInStatus, demoSessions, type CaseSetup } from './support/cases-fixtures';

/**
 * The reads every screen makes send only named statements, built once per connection: drizzle
 * building a statement's SQL at each call cost more server CPU than the statement itself (a fifth
 * of the profile read's). docs/performance.md, "The per-request floor".
 */
let t: TestApp;
let setup: CaseSetup;

beforeAll(async () => {
  t = await startTestApp();
  const s = await demoSessions(t.app);
  setup = caseSetup(t.app, s);
});
afterAll(async () => {
  await t?.close();
});

/** Every statement sent while `run` runs: its name, or its text when it has none. */
async function statementsOf(run: () => Promise<unknown>): Promise<string[]> {
  const sent = await statementsSentDuring(run);
  // node-postgres sends a statement unnamed when its name is missing or empty.
  return sent.map(({ name, text }) => name || `unnamed: ${text}`);
}

async function get(session: Session, url: string) {
  const response = await t.app.inject({ method: 'GET', url, headers: bearer(session) });
  expect(response.statusCode, response.body).toBe(200);
}

describe('hot reads send named statements only', () => {
  it("reads the caller's profile with the session lookup and one named read", async () => {
    const sent = await statementsOf(() => get(setup.owner, '/api/v1/profile/get'));
    expect(sent).toEqual(['session_lookup', 'user_by_id']);
  });

  it('reads a case, a list page and the counts without building a statement', async () => {
    const id = await caseInStatus(setup, 'new');
    for (const session of [setup.owner, setup.supervisor]) {
      for (const url of [
        `/api/v1/case/${id}/get`,
        '/api/v1/case/list/new/0?pageSize=20',
        '/api/v1/case/counts',
      ]) {
        await get(session, url); // the first call on a connection builds and plans
        const sent = await statementsOf(() => get(session, url));
        // Staff page through every case of a filter: their page's ids and total are planned
        // for each call's offset (unnamed), then the page's rows are read by a named statement.
        const staffList = session === setup.supervisor && url.includes('/list/');
        expect(
          sent.map((name) => (name.startsWith('unnamed: ') ? 'unnamed' : name)),
          url,
        ).toEqual(
          staffList
            ? ['session_lookup', 'unnamed', 'case_list_rows']
            : sent.filter((name) => !name.startsWith('unnamed: ')),
        );
      }
    }
  });

  it("opens a transaction without building drizzle's relational query builders", async () => {
    const { db } = t.app.database;
    const builders = await db.transaction(async (tx) => Object.keys(tx.query).length);
    expect(builders).toBe(0);
  });
});
