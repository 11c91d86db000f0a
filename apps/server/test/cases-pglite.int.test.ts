import { afterAll, describe, expect, it } from 'vitest';
import { caseSetup, caseApi, caseInStatus, demoSessions, objOf } from './support/cases-fixtures';
import { startTestApp, type TestApp } from './support/test-app';

const apps: TestApp[] = [];
afterAll(async () => {
  await Promise.all(apps.map((a) => a.close()));
});

describe('on PGlite (the embedded database of `npm start`)', () => {
  it('opens, lists, counts, moves and reads a case the same way', async () => {
    const t = await startTestApp({}, { pglite: true });
    apps.push(t);
    const s = await demoSessions(t.app);
    const api = caseApi(t.app);
    const setup = caseSetup(t.app, s);
    const id = await caseInStatus(setup, 'print', { patient: { fname: 'Élodie', lname: 'Ñúñez' } });
    const list = objOf<{ items: { id: number }[] }>(
      await api(s.printer, 'GET', 'list/print/0?q=elodie'),
    );
    expect(list.items.map((i) => i.id)).toEqual([id]);
    const counts = objOf<Record<string, number>>(await api(s.printer, 'GET', 'counts'));
    expect(counts.print).toBeGreaterThanOrEqual(1);
    const [a, b] = await Promise.all([
      api(s.printer, 'POST', `${id}/move`, { action: 'finish' }),
      api(s.planner, 'POST', `${id}/move`, { action: 'finish' }),
    ]);
    expect([a.statusCode, b.statusCode].sort()).toEqual([200, 409]);
    expect(objOf(await api(s.doctor, 'GET', `${id}/get`)).caseStatus).toBe('finished');
  }, 60_000);
});
