import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  casePageSchema,
  caseCountsSchema,
  caseDetailSchema,
  caseEventSchema,
  emptyServiceDataV1,
  type CaseCounts,
  type CaseDetail,
  type CasePage,
} from '@dentflow/domain';
import type { CaseEventMessage } from '../src/adapters/events/case-events';
import {
  caseApi,
  caseInStatus,
  completeServiceData,
  createUser,
  demoSessions,
  objOf,
  productIdByCode,
  setDeadline,
  type CaseSetup,
  caseSetup,
} from './support/cases-fixtures';
import { json, startTestApp, type Session, type TestApp } from './support/test-app';

let t: TestApp;
let api: ReturnType<typeof caseApi>;
let s: Awaited<ReturnType<typeof demoSessions>>;
let setup: CaseSetup;
/** A doctor of its own, so lists hold only this file's cases. */
let me: Session;

beforeAll(async () => {
  t = await startTestApp();
  api = caseApi(t.app);
  s = await demoSessions(t.app);
  me = await createUser(t.app, ['doctor'], { language: 'ptBR' });
  setup = caseSetup(t.app, s, me);
});
afterAll(async () => {
  await t?.close();
});

type Envelope = { error: string; code: string; fields?: Record<string, string> };
const expectEnvelope = (
  response: { statusCode: number; body: string },
  status: number,
  code: string,
) => {
  expect(response.statusCode, response.body).toBe(status);
  const body = JSON.parse(response.body) as Envelope;
  expect(body.code).toBe(code);
  expect(typeof body.error).toBe('string');
  return body;
};

describe('POST /case/new', () => {
  it('opens a case in new with the owner’s currency; the answer matches the contract', async () => {
    const response = await api(me, 'POST', 'new', { patient: { fname: 'Maria', lname: 'Souza' } });
    const detail = caseDetailSchema.parse(objOf(response));
    expect(detail).toMatchObject({
      caseStatus: 'new',
      caseCurrency: 'BRL',
      ownerId: me.profile.id,
    });
  });

  it.each([
    [{}, 'patient'],
    [{ patient: { fname: '', lname: 'x' } }, 'patient.fname'],
    [{ patient: { fname: 'a' } }, 'patient.lname'],
    [{ patient: { fname: 'a', lname: 'b', birthDate: '31/12/2000' } }, 'patient.birthDate'],
    [{ patient: { fname: 'a', lname: 'b', gender: 'x' } }, 'patient.gender'],
    [{ patient: { fname: 'a', lname: 'b' }, observation: 'x'.repeat(5001) }, 'observation'],
  ])('bad input %j → 400 on %s', async (payload, field) => {
    const body = expectEnvelope(await api(me, 'POST', 'new', payload), 400, 'VALIDATION_ERROR');
    expect(body.fields).toHaveProperty([field]);
  });

  it('only clinics and doctors (and admin) open cases; anonymous → 401', async () => {
    for (const who of ['planner', 'printer', 'partner', 'instructor', 'supervisor'] as const) {
      expectEnvelope(
        await api(s[who], 'POST', 'new', { patient: { fname: 'a', lname: 'b' } }),
        403,
        'FORBIDDEN',
      );
    }
    const anonymous = await t.app.inject({ method: 'GET', url: '/api/v1/case/counts' });
    expectEnvelope(anonymous, 401, 'NOT_AUTHORIZED');
  });
});

describe('lists: search, paging, counts', () => {
  let joao: number;
  beforeAll(async () => {
    joao = await caseInStatus(setup, 'new', { patient: { fname: 'João', lname: 'Müller' } });
    for (let i = 0; i < 24; i += 1) {
      await api(me, 'POST', 'new', { patient: { fname: `Paciente${i}`, lname: 'Teste' } });
    }
    await caseInStatus(setup, 'execute', { patient: { fname: 'Zé', lname: 'Exec' } });
  });

  it('search is accent- and case-insensitive, or by case id', async () => {
    for (const q of ['joao muller', 'JOÃO', 'müll', 'Joao Müller']) {
      const page = objOf<CasePage>(await api(me, 'GET', `list/new/0?q=${encodeURIComponent(q)}`));
      expect(
        page.items.map((i) => i.id),
        q,
      ).toEqual([joao]);
    }
    const byId = objOf<CasePage>(await api(me, 'GET', `list/new/0?q=${joao}`));
    expect(byId.items.map((i) => i.id)).toContain(joao);
    const none = objOf<CasePage>(await api(me, 'GET', 'list/new/0?q=%25'));
    expect(none.total).toBe(0);
  });

  it('a search with scope=all looks in every list, for the owner and for staff', async () => {
    const searchExec = async (session: Session, filter: string, extra = '') =>
      objOf<CasePage>(await api(session, 'GET', `list/${filter}/0?q=exec${extra}`));
    // Inside its filter, the 'new' list does not hold the case in execute.
    expect((await searchExec(me, 'new')).items).toEqual([]);
    for (const session of [me, s.supervisor]) {
      const everywhere = casePageSchema.parse(await searchExec(session, 'new', '&scope=all'));
      expect(everywhere.items.map((i) => [i.patient.fname, i.caseStatus])).toContainEqual([
        'Zé',
        'execute',
      ]);
      // From any list the same answer.
      const fromFinished = await searchExec(session, 'finished', '&scope=all');
      expect(fromFinished.items.map((i) => i.id)).toEqual(everywhere.items.map((i) => i.id));
      expect(fromFinished.total).toBe(everywhere.total);
    }
    // Another doctor's search across every list finds none of this doctor's cases.
    const stranger = await createUser(t.app, ['doctor']);
    expect((await searchExec(stranger, 'new', '&scope=all')).total).toBe(0);
    // Without a search text, scope=all changes nothing: the list is its filter's.
    const plain = objOf<CasePage>(await api(me, 'GET', 'list/execute/0?scope=all'));
    expect(plain.items.every((i) => i.caseStatus === 'execute')).toBe(true);
    expectEnvelope(
      await api(me, 'GET', 'list/new/0?q=x&scope=everything'),
      400,
      'VALIDATION_ERROR',
    );
  });

  it("a supervisor's search (planned for its pattern, in two steps) pages with totals", async () => {
    const mine = objOf<CasePage>(await api(me, 'GET', 'list/new/0?q=paciente&pageSize=100'));
    expect(mine.total).toBe(24);
    const pageSize = 10;
    const pageOf = async (page: number) =>
      casePageSchema.parse(
        objOf(await api(s.supervisor, 'GET', `list/new/${page}?q=paciente&pageSize=${pageSize}`)),
      );
    const first = await pageOf(0);
    expect(first.total).toBeGreaterThanOrEqual(24);
    const pages = Math.ceil(first.total / pageSize);
    const seen = [...first.items];
    for (let page = 1; page < pages; page += 1) {
      const next = await pageOf(page);
      expect(next.total).toBe(first.total);
      seen.push(...next.items);
    }
    expect(seen).toHaveLength(first.total);
    expect(new Set(seen.map((i) => i.id)).size).toBe(first.total);
    for (const item of mine.items) expect(seen.map((i) => i.id)).toContain(item.id);
    const order = seen.map((i) => [i.modifiedAt, i.id] as const);
    expect(order).toEqual(
      [...order].sort((a, b) => (a[0] === b[0] ? b[1] - a[1] : a[0] < b[0] ? 1 : -1)),
    );
    expect(await pageOf(pages + 2)).toMatchObject({ items: [], total: first.total });
    const byId = objOf<CasePage>(await api(s.supervisor, 'GET', `list/new/0?q=${joao}`));
    expect(byId.items.map((i) => i.id)).toContain(joao);
    const none = objOf<CasePage>(await api(s.supervisor, 'GET', 'list/new/0?q=zzqqxx'));
    expect(none).toMatchObject({ items: [], total: 0 });
  });

  it('pages newest first with totals; previews match the contract', async () => {
    const first = casePageSchema.parse(objOf(await api(me, 'GET', 'list/new/0?pageSize=10')));
    expect(first).toMatchObject({ total: 26, page: 0, pageSize: 10 });
    expect(first.items).toHaveLength(10);
    const last = objOf<CasePage>(await api(me, 'GET', 'list/new/2?pageSize=10'));
    expect(last.items).toHaveLength(6);
    const beyond = objOf<CasePage>(await api(me, 'GET', 'list/new/9?pageSize=10'));
    expect(beyond).toMatchObject({ items: [], total: 26 });
    const all = objOf<CasePage>(await api(me, 'GET', 'list/new/0?pageSize=100')).items;
    const order = all.map((i) => [i.modifiedAt, i.id] as const);
    const sorted = [...order].sort((a, b) => (a[0] === b[0] ? b[1] - a[1] : a[0] < b[0] ? 1 : -1));
    expect(order).toEqual(sorted);
    const item = all.find((i) => i.id === joao)!;
    expect(item).toMatchObject({
      patient: { fname: 'João', lname: 'Müller' },
      caseStatus: 'new',
      owner: { id: me.profile.id },
      review: false,
    });
    // The product name in the caller's language (ptBR).
    expect(item.services[0]).toMatchObject({ category: 3 });
    expect(item.services[0]!.productName).toMatch(/guia/i);
  });

  it('counts per filter (broad new includes checkingout)', async () => {
    const counts = caseCountsSchema.parse(objOf<CaseCounts>(await api(me, 'GET', 'counts')));
    expect(counts).toEqual({
      new: 26,
      checkingout: 0,
      execute: 1,
      approve: 0,
      finishing: 0,
      print: 0,
      finished: 0,
      cancelled: 0,
    });
  });

  it.each([
    ['list/unknown/0', 'filter'],
    ['list/new/-1', 'page'],
    ['list/new/x', 'page'],
    ['list/new/0?pageSize=101', 'pageSize'],
    ['list/new/0?pageSize=0', 'pageSize'],
    ['archive/0?from=yesterday', 'from'],
    ['archive/0?currency=EUR', 'currency'],
    // Only a status an archived case can have.
    ['archive/0?status=execute', 'status'],
  ])('bad list input %s → 400', async (url, field) => {
    const body = expectEnvelope(await api(me, 'GET', url), 400, 'VALIDATION_ERROR');
    expect(Object.keys(body.fields ?? {}).join(' ')).toContain(field);
  });
});

describe('set', () => {
  it('saves with the current modifiedAt; a stale one → 409 CASE_CHANGED, nothing saved', async () => {
    const id = await caseInStatus(setup, 'new');
    const before = objOf(await api(me, 'GET', `${id}/get`));
    const saved = objOf(
      await api(me, 'POST', `${id}/set`, {
        modifiedAt: before.modifiedAt,
        observation: 'first',
        patient: { fname: 'Ana', lname: 'Lima', note: 'allergic' },
        address: null,
      }),
    );
    expect(saved).toMatchObject({
      observation: 'first',
      patient: { lname: 'Lima', note: 'allergic' },
    });
    expect(saved.modifiedAt).not.toBe(before.modifiedAt);
    const stale = await api(me, 'POST', `${id}/set`, {
      modifiedAt: before.modifiedAt,
      observation: 'second',
    });
    expectEnvelope(stale, 409, 'CASE_CHANGED');
    const after = objOf(await api(me, 'GET', `${id}/get`));
    expect(after.observation).toBe('first');
    expect(after.modifiedAt).toBe(saved.modifiedAt);
    // The folded name follows the patient: found by the new name only.
    const found = objOf<CasePage>(await api(me, 'GET', 'list/new/0?q=lima'));
    expect(found.items.map((i) => i.id)).toContain(id);
  });

  it('bad input → 400; the owner cannot edit after checkout; a supervisor can', async () => {
    const id = await caseInStatus(setup, 'execute');
    const detail = objOf(await api(me, 'GET', `${id}/get`));
    expectEnvelope(
      await api(me, 'POST', `${id}/set`, { observation: 'x' }),
      400,
      'VALIDATION_ERROR',
    );
    expectEnvelope(
      await api(me, 'POST', `${id}/set`, { modifiedAt: 'not a date' }),
      400,
      'VALIDATION_ERROR',
    );
    expectEnvelope(
      await api(me, 'POST', `${id}/set`, { modifiedAt: detail.modifiedAt, observation: 'x' }),
      403,
      'FORBIDDEN',
    );
    const bySupervisor = await api(s.supervisor, 'POST', `${id}/set`, {
      modifiedAt: detail.modifiedAt,
      observation: 'by supervisor',
    });
    expect(bySupervisor.statusCode).toBe(200);
  });
});

describe('services', () => {
  it('quantity by qtdOption; unknown or deleted products refused', async () => {
    const id = objOf(await api(me, 'POST', 'new', { patient: { fname: 'Q', lname: 'Q' } })).id;
    const db = t.app.database.db;
    const perCase = await productIdByCode(db, 'PLAN-SMILE');
    const perArch = await productIdByCode(db, 'PLAN-GUIDE');
    const perElement = await productIdByCode(db, 'MFG-MOCKUP');
    const add = (productId: number, quantity?: number) =>
      api(
        me,
        'POST',
        `${id}/services/add`,
        quantity === undefined ? { productId } : { productId, quantity },
      );
    expect((await add(perCase)).statusCode).toBe(200);
    expectEnvelope(await add(perCase, 2), 400, 'VALIDATION_ERROR');
    expect((await add(perArch, 2)).statusCode).toBe(200);
    expectEnvelope(await add(perArch, 3), 400, 'VALIDATION_ERROR');
    expect((await add(perElement, 28)).statusCode).toBe(200);
    expectEnvelope(await add(perElement, 29), 400, 'VALIDATION_ERROR');
    expectEnvelope(await add(perElement, 0), 400, 'VALIDATION_ERROR');
    expectEnvelope(await add(999999), 400, 'PRODUCT_UNAVAILABLE');
    expectEnvelope(
      await api(me, 'POST', `${id}/services/add`, { productId: 'x' }),
      400,
      'VALIDATION_ERROR',
    );
    const detail = objOf(await api(me, 'GET', `${id}/get`));
    expect(detail.services.map((x) => [x.productId, x.quantity, x.printableProduct])).toEqual([
      [perCase, 1, false],
      [perArch, 2, false],
      [perElement, 28, true],
    ]);
  });

  it('a combo adds its inner products, each marked with the combo', async () => {
    const id = objOf(await api(me, 'POST', 'new', { patient: { fname: 'C', lname: 'C' } })).id;
    const combo = await productIdByCode(t.app.database.db, 'COMBO-GUIDE');
    const detail = objOf(
      await api(me, 'POST', `${id}/services/add`, { productId: combo, quantity: 2 }),
    );
    expect(detail.services).toHaveLength(2);
    expect(detail.services.every((x) => x.serviceId === combo && x.quantity === 2)).toBe(true);
    expect(detail.services.map((x) => x.printableProduct).sort()).toEqual([false, true]);
  });

  it('remove: unknown 404, paid 409 SERVICE_PAID, else removed', async () => {
    const id = await caseInStatus(setup, 'new');
    const detail = objOf(await api(me, 'GET', `${id}/get`));
    const serviceId = detail.services[0]!.id;
    expectEnvelope(await api(me, 'DELETE', `${id}/services/999999`), 404, 'NOT_FOUND');
    await t.app.database.db.execute(
      sql`update case_services set paid_at = now() where id = ${serviceId}`,
    );
    expectEnvelope(await api(me, 'DELETE', `${id}/services/${serviceId}`), 409, 'SERVICE_PAID');
    await t.app.database.db.execute(
      sql`update case_services set paid_at = null where id = ${serviceId}`,
    );
    const removed = objOf(await api(me, 'DELETE', `${id}/services/${serviceId}`));
    expect(removed.services).toEqual([]);
    expect(removed.checks.services).toBe(false);
  });

  it('service data: invalid → 400 with translated fields; old layout accepted and valid with terms', async () => {
    const id = await caseInStatus(setup, 'new');
    const serviceId = objOf(await api(me, 'GET', `${id}/get`)).services[0]!.id;
    const url = `${id}/services/${serviceId}/data`;
    const bad = await t.app.inject({
      method: 'POST',
      url: `/api/v1/case/${url}`,
      headers: { authorization: `Bearer ${me.accessToken}`, 'accept-language': 'pt-BR' },
      payload: {
        dataVersion: 3,
        data: { ...completeServiceData(), jaw: 'left', extra: 'x'.repeat(2001) },
      },
    });
    const body = expectEnvelope(bad, 400, 'VALIDATION_ERROR');
    expect(Object.keys(body.fields ?? {}).sort()).toEqual(['data.extra', 'data.jaw']);
    expect(body.fields!['data.extra']).not.toBe('validation.max');
    expectEnvelope(
      await api(me, 'POST', url, { dataVersion: 3, data: 'x' }),
      400,
      'VALIDATION_ERROR',
    );
    expectEnvelope(
      await api(me, 'POST', url, { dataVersion: 4, data: {} }),
      400,
      'VALIDATION_ERROR',
    );

    const old = { ...emptyServiceDataV1(), terms: true };
    const saved = objOf(await api(me, 'POST', url, { dataVersion: 1, data: old }));
    expect(saved.services[0]).toMatchObject({ dataVersion: 1, data: old, dataValid: true });
    const unaccepted = objOf(
      await api(me, 'POST', url, { dataVersion: 1, data: { ...old, terms: false } }),
    );
    expect(unaccepted.services[0]!.dataValid).toBe(false);
    // Half-filled current data is saved as given, and reported not valid.
    const half = objOf(
      await api(me, 'POST', url, { dataVersion: 3, data: { ...completeServiceData(), jaw: null } }),
    );
    expect(half.services[0]).toMatchObject({ dataValid: false, data: { jaw: null } });
  });

  it('service data teeth: FDI numbers of a per-tooth service, at most its quantity', async () => {
    const id = objOf(await api(me, 'POST', 'new', { patient: { fname: 'T', lname: 'T' } })).id;
    const db = t.app.database.db;
    await api(me, 'POST', `${id}/services/add`, {
      productId: await productIdByCode(db, 'MFG-MOCKUP'),
      quantity: 2,
    });
    await api(me, 'POST', `${id}/services/add`, {
      productId: await productIdByCode(db, 'PLAN-SMILE'),
    });
    const [perTooth, perCase] = objOf(await api(me, 'GET', `${id}/get`)).services;
    const save = (serviceId: number, teeth: unknown) =>
      api(me, 'POST', `${id}/services/${serviceId}/data`, {
        dataVersion: 3,
        data: { ...completeServiceData(), teeth },
      });
    const saved = objOf(await save(perTooth!.id, [11, 21]));
    expect(saved.services.find((x) => x.id === perTooth!.id)!.data).toMatchObject({
      teeth: [11, 21],
    });
    // Fewer than the quantity is work in progress; more, a number outside FDI, a tooth twice or
    // teeth on a service that is not per tooth are refused, and nothing is written.
    expect((await save(perTooth!.id, [11])).statusCode).toBe(200);
    for (const teeth of [
      [11, 21, 31],
      [19, 11],
      [11, 11],
    ]) {
      const body = expectEnvelope(await save(perTooth!.id, teeth), 400, 'VALIDATION_ERROR');
      expect(Object.keys(body.fields ?? {}).some((f) => f.startsWith('data.teeth'))).toBe(true);
    }
    expectEnvelope(await save(perCase!.id, [11]), 400, 'VALIDATION_ERROR');
    const after = objOf(await api(me, 'GET', `${id}/get`));
    expect(after.services.find((x) => x.id === perTooth!.id)!.data).toMatchObject({ teeth: [11] });
  });
});

describe('users, planner, reviews', () => {
  it('supervisor adds and removes users; sets the planner; others 403; bad ids 400/404', async () => {
    const id = await caseInStatus(setup, 'new');
    const detail = objOf(await api(me, 'GET', `${id}/get`));
    expectEnvelope(
      await api(me, 'POST', `${id}/users`, {
        userId: s.partner.profile.id,
        triggerNotification: true,
      }),
      403,
      'FORBIDDEN',
    );
    expectEnvelope(
      await api(s.supervisor, 'POST', `${id}/users`, { userId: 999999, triggerNotification: true }),
      400,
      'VALIDATION_ERROR',
    );
    expectEnvelope(
      await api(s.supervisor, 'POST', `${id}/users`, { userId: 1 }),
      400,
      'VALIDATION_ERROR',
    );
    const added = objOf(
      await api(s.supervisor, 'POST', `${id}/users`, {
        userId: s.partner.profile.id,
        triggerNotification: false,
      }),
    );
    expect(added.users).toEqual([
      expect.objectContaining({ userId: s.partner.profile.id, triggerNotification: false }),
    ]);
    expect((await api(s.partner, 'GET', `${id}/get`)).statusCode).toBe(200);
    const removed = objOf(await api(s.supervisor, 'DELETE', `${id}/users/${s.partner.profile.id}`));
    expect(removed.users).toEqual([]);
    expect((await api(s.partner, 'GET', `${id}/get`)).statusCode).toBe(404);
    expectEnvelope(
      await api(s.supervisor, 'DELETE', `${id}/users/${s.partner.profile.id}`),
      404,
      'NOT_FOUND',
    );

    expectEnvelope(
      await api(s.supervisor, 'POST', `${id}/planner`, { plannerId: s.doctor.profile.id }),
      400,
      'VALIDATION_ERROR',
    );
    expectEnvelope(
      await api(s.supervisor, 'POST', `${id}/planner`, {
        plannerId: s.planner.profile.id,
        serviceIds: [999999],
      }),
      400,
      'VALIDATION_ERROR',
    );
    expectEnvelope(
      await api(me, 'POST', `${id}/planner`, { plannerId: s.planner.profile.id }),
      403,
      'FORBIDDEN',
    );
    const planned = objOf(
      await api(s.supervisor, 'POST', `${id}/planner`, {
        plannerId: s.planner.profile.id,
        serviceIds: [detail.services[0]!.id],
      }),
    );
    expect(planned.services[0]!.planner).toMatchObject({ id: s.planner.profile.id });
    expect(planned.users.map((x) => x.userId)).toEqual([s.planner.profile.id]);
  });

  it('planner or supervisor opens a review; the owner solves a free one', async () => {
    const id = await caseInStatus(setup, 'execute');
    expectEnvelope(await api(me, 'POST', `${id}/review`, { description: 'x' }), 403, 'FORBIDDEN');
    expectEnvelope(
      await api(s.planner, 'POST', `${id}/review`, { description: ' ' }),
      400,
      'VALIDATION_ERROR',
    );
    expectEnvelope(
      await api(s.planner, 'POST', `${id}/review`, { description: 'x', reasonId: 42 }),
      400,
      'VALIDATION_ERROR',
    );
    // Without a reason: a free review for the client, which the owner closes (who closes which
    // reason: case-reviews.int.test.ts).
    const opened = objOf(
      await api(s.planner, 'POST', `${id}/review`, { description: 'Missing tomography' }),
    );
    expect(opened.caseReview).toBe(true);
    const review = opened.reviews.at(-1)!;
    expect(review).toMatchObject({ reasonId: null, createdBy: { id: s.planner.profile.id } });
    const listed = objOf<CasePage>(await api(me, 'GET', 'list/execute/0?pageSize=100'));
    expect(listed.items.find((i) => i.id === id)?.review).toBe(true);
    expectEnvelope(
      await api(s.planner, 'POST', `${id}/review/${review.id}/solve`),
      403,
      'FORBIDDEN',
    );
    const solved = objOf(await api(me, 'POST', `${id}/review/${review.id}/solve`));
    expect(solved.caseReview).toBe(false);
    expect(solved.reviews.at(-1)).toMatchObject({ solvedBy: { id: me.profile.id } });
    expectEnvelope(await api(me, 'POST', `${id}/review/${review.id}/solve`), 404, 'NOT_FOUND');
  });
});

describe('archive search', () => {
  it('finds archived cases by patient, dates, category, product and currency', async () => {
    const id = await caseInStatus(setup, 'finished', {
      patient: { fname: 'Íris', lname: 'Arquivada' },
    });
    objOf(await api(me, 'POST', `${id}/archive`));
    const guide = await productIdByCode(t.app.database.db, 'MFG-GUIDE');
    const today = new Date().toISOString().slice(0, 10);
    const search = async (query: string) =>
      objOf<CasePage>(await api(me, 'GET', `archive/0?${query}`)).items.map((i) => i.id);
    expect(await search('patient=iris')).toEqual([id]);
    expect(await search(`from=${today}&to=${today}`)).toContain(id);
    expect(await search('to=2000-01-01')).toEqual([]);
    expect(await search('category=3')).toContain(id);
    expect(await search('category=1')).toEqual([]);
    expect(await search(`product=${guide}`)).toContain(id);
    expect(await search('currency=BRL')).toContain(id);
    expect(await search('currency=USD')).toEqual([]);
    // Never in the lists while archived.
    const finished = objOf<CasePage>(await api(me, 'GET', 'list/finished/0'));
    expect(finished.items.map((i) => i.id)).not.toContain(id);
    // Another doctor does not find it.
    const other = await createUser(t.app, ['doctor']);
    expect(objOf<CasePage>(await api(other, 'GET', 'archive/0?patient=iris')).total).toBe(0);
  });
});

describe('history and events', () => {
  it('history is oldest first and matches the contract', async () => {
    const id = await caseInStatus(setup, 'new');
    const events = objOf<unknown[]>(await api(me, 'GET', `${id}/history`)).map((e) =>
      caseEventSchema.parse(e),
    );
    expect(events.map((e) => e.action)).toEqual(['created', 'serviceAdded', 'serviceData']);
    expect(events[0]).toMatchObject({ toStatus: 'new', actor: { id: me.profile.id } });
    expectEnvelope(await api(me, 'GET', '0/history'), 400, 'VALIDATION_ERROR');
    expectEnvelope(await api(me, 'GET', 'abc/get'), 400, 'VALIDATION_ERROR');
  });
});

describe('deadline near', () => {
  it('opens the review once for cases still being planned, none for settled ones', async () => {
    const planning = await caseInStatus(setup, 'execute');
    const settled = await caseInStatus(setup, 'finishing');
    const far = await caseInStatus(setup, 'approve');
    const db = t.app.database.db;
    const soon = new Date(Date.now() + 3_600_000);
    await setDeadline(db, planning, soon);
    await setDeadline(db, settled, soon);
    await setDeadline(db, far, new Date(Date.now() + 5 * 86_400_000));
    const { createCasesService } = await import('../src/modules/cases/cases.service');
    const { createCaseEvents } = await import('../src/adapters/events/case-events');
    const published: CaseEventMessage[] = [];
    const caseEvents = createCaseEvents();
    caseEvents.on((event) => void published.push(event));
    const service = createCasesService({ db, caseEvents } as unknown as Parameters<
      typeof createCasesService
    >[0]);
    const marked = await service.markNearDeadlines();
    expect(marked).toContain(planning);
    expect(marked).not.toContain(settled);
    expect(marked).not.toContain(far);
    expect(published.filter((e) => e.caseId === planning)).toEqual([
      expect.objectContaining({ action: 'reviewOpened', detail: { reasonId: 3 } }),
    ]);
    expect(await service.markNearDeadlines()).not.toContain(planning);
    const detail: CaseDetail = objOf(await api(me, 'GET', `${planning}/get`));
    expect(detail.caseReview).toBe(true);
    expect(detail.reviews.filter((r) => r.reasonId === 3 && r.solvedAt === null)).toHaveLength(1);
  });
});

describe('never a 5xx on junk', () => {
  it.each([
    ['POST', '1/move', { action: 'fly' }],
    ['POST', '1/move', { action: 'approve', serviceIds: ['a'] }],
    ['POST', '1/users', { userId: -1, triggerNotification: true }],
    ['POST', '1/planner', { plannerId: 'x' }],
    ['POST', '1/review', {}],
    ['POST', '1/services/1/data', {}],
    ['POST', '99999999999/get', undefined],
    ['DELETE', '1/services/x', undefined],
  ] as const)('%s %s', async (method, url, payload) => {
    const response = await api(me, method, url, payload);
    expect(response.statusCode).toBeGreaterThanOrEqual(400);
    expect(response.statusCode).toBeLessThan(500);
    expect(json<Envelope>(response).code).toBeTruthy();
  });
});
