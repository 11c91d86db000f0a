import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CaseDetail, CaseEvent } from '@dentflow/domain';
import {
  caseApi,
  FIXTURE_STATUSES,
  caseInStatus,
  completeServiceData,
  demoSessions,
  objOf,
  productIdByCode,
  VALIDATE_BILLED_LATER,
  insertRequiredFiles,
  caseSetup,
} from './support/cases-fixtures';
import { json, startTestApp, type Session, type TestApp } from './support/test-app';

let t: TestApp;
let s: Awaited<ReturnType<typeof demoSessions>>;
let api: ReturnType<typeof caseApi>;

beforeAll(async () => {
  t = await startTestApp();
  s = await demoSessions(t.app);
  api = caseApi(t.app);
});
afterAll(async () => {
  await t?.close();
});

const setup = () => caseSetup(t.app, s);

const move = (session: Session, id: number, body: object) =>
  api(session, 'POST', `${id}/move`, body);

describe('the whole journey of a case', () => {
  it('new → checkingout → execute → approve → finishing → print → finished → closed, with history', async () => {
    const created = await api(s.doctor, 'POST', 'new', {
      patient: { fname: 'João', lname: 'Müller', birthDate: '1980-02-03', gender: 'male' },
      observation: 'Lower arch',
    });
    expect(created.statusCode).toBe(200);
    const c = objOf(created);
    expect(c).toMatchObject({
      caseStatus: 'new',
      // The demo doctor is Brazilian: the case opens in their profile currency.
      caseCurrency: 'BRL',
      observation: 'Lower arch',
      patient: { fname: 'João', lname: 'Müller', birthDate: '1980-02-03', gender: 'male' },
      // Nothing to make and nothing paid yet.
      checks: { services: false, patient: true, attachments: false, transactions: false },
      readOnly: false,
    });
    expect(c.actions).toEqual(expect.arrayContaining(['submit', 'cancel']));
    expect(c.can).toEqual(['edit', 'addService', 'order', 'changeCurrency']);

    const guide = await productIdByCode(t.app.database.db, 'MFG-GUIDE');
    const added = objOf(
      await api(s.doctor, 'POST', `${c.id}/services/add`, { productId: guide, quantity: 2 }),
    );
    expect(added.services).toHaveLength(1);
    expect(added.services[0]).toMatchObject({
      quantity: 2,
      printableProduct: true,
      dataValid: false,
      paid: false,
    });
    const serviceId = added.services[0]!.id;

    const filled = objOf(
      await api(s.doctor, 'POST', `${c.id}/services/${serviceId}/data`, {
        dataVersion: 3,
        data: completeServiceData(),
      }),
    );
    expect(filled.services[0]!.dataValid).toBe(true);
    expect(filled.checks.services).toBe(true);

    const submitted = objOf(await move(s.doctor, c.id, { action: 'submit' }));
    expect(submitted.caseStatus).toBe('checkingout');

    // Validation needs the client's files and, without an order paying the service, the
    // supervisor's explicit override.
    const refused = await move(s.supervisor, c.id, { action: 'validate' });
    expect(refused.statusCode).toBe(409);
    expect(json<{ fields: object }>(refused).fields).toEqual({
      'checks.attachments': 'Invalid value',
      'checks.transactions': 'Invalid value',
    });
    await insertRequiredFiles(t.app.database.db, c.id, s.doctor.profile.id);
    const unpaid = await move(s.supervisor, c.id, { action: 'validate' });
    expect(json<{ fields: object }>(unpaid).fields).toEqual({
      'checks.transactions': 'Invalid value',
    });

    const validated = objOf(await move(s.supervisor, c.id, VALIDATE_BILLED_LATER));
    expect(validated.caseStatus).toBe('execute');
    expect(validated.services[0]!.payment).toBe('deferred');
    expect(validated.deadlineAt).not.toBeNull();
    // No planner yet: the review 'planner not set' opens.
    expect(validated.caseReview).toBe(true);
    expect(validated.reviews.map((r) => r.reasonId)).toEqual([1]);

    const planned = objOf(
      await api(s.supervisor, 'POST', `${c.id}/planner`, { plannerId: s.planner.profile.id }),
    );
    expect(planned.services[0]!.planner?.id).toBe(s.planner.profile.id);
    expect(planned.users.map((u) => u.userId)).toContain(s.planner.profile.id);

    const solved = objOf(
      await api(s.supervisor, 'POST', `${c.id}/review/${planned.reviews[0]!.id}/solve`),
    );
    expect(solved.caseReview).toBe(false);

    const asked = objOf(await move(s.planner, c.id, { action: 'requestApproval' }));
    expect(asked.caseStatus).toBe('approve');
    expect(asked.services[0]!.approveRequestAt).not.toBeNull();

    const approved = objOf(
      await move(s.doctor, c.id, {
        action: 'approve',
        password: 'Dentflow123',
        text: 'Looks good',
        serviceIds: [serviceId],
      }),
    );
    expect(approved.caseStatus).toBe('finishing');
    expect(approved.services[0]!.approveAt).not.toBeNull();

    expect(objOf(await move(s.printer, c.id, { action: 'startPrint' })).caseStatus).toBe('print');
    const finished = objOf(await move(s.printer, c.id, { action: 'finish' }));
    expect(finished.caseStatus).toBe('finished');
    expect(finished.finishAt).not.toBeNull();
    expect(objOf(await move(s.doctor, c.id, { action: 'close' })).caseStatus).toBe('closed');

    const history = objOf<CaseEvent[]>(await api(s.doctor, 'GET', `${c.id}/history`));
    expect(history.map((e) => e.action)).toEqual([
      'created',
      'serviceAdded',
      'serviceData',
      'submit',
      'validate',
      'plannerSet',
      'reviewSolved',
      'requestApproval',
      'approve',
      'startPrint',
      'finish',
      'close',
    ]);
    expect(history.find((e) => e.action === 'approve')).toMatchObject({
      fromStatus: 'approve',
      toStatus: 'finishing',
      actor: { id: s.doctor.profile.id },
      detail: { text: 'Looks good', serviceIds: [serviceId] },
    });
    const ids = history.map((e) => e.id);
    expect([...ids].sort((a, b) => a - b)).toEqual(ids);
  });

  it('publishes each change after commit, and nothing for a refused one', async () => {
    const seen: { caseId: number; action: string; toStatus: string | null }[] = [];
    const off = t.app.caseEvents.on((e) => {
      seen.push({ caseId: e.caseId, action: e.action, toStatus: e.toStatus });
    });
    try {
      const id = await caseInStatus(setup(), 'new');
      const before = seen.length;
      expect((await move(s.supervisor, id, { action: 'validate' })).statusCode).toBe(409);
      expect(seen.length).toBe(before);
      expect((await move(s.doctor, id, { action: 'submit' })).statusCode).toBe(200);
      expect(seen.at(-1)).toEqual({ caseId: id, action: 'submit', toStatus: 'checkingout' });
      expect(seen.filter((e) => e.caseId === id).map((e) => e.action)).toEqual([
        'created',
        'serviceAdded',
        'serviceData',
        'submit',
      ]);
    } finally {
      off();
    }
  });

  it('the fixture reaches every status', async () => {
    for (const status of FIXTURE_STATUSES) {
      const id = await caseInStatus(setup(), status);
      const got = objOf<CaseDetail>(await api(s.supervisor, 'GET', `${id}/get`));
      expect(got.caseStatus).toBe(status);
    }
  });
});
