import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  caseApi,
  caseInStatus,
  demoSessions,
  objOf,
  type CaseSetup,
  VALIDATE_BILLED_LATER,
  caseSetup,
} from './support/cases-fixtures';
import { grantCapabilities } from './support/payments-fixtures';
import { cartItem, order, shopCall, PATIENT } from './support/shop-fixtures';
import { json, startTestApp, type Session, type TestApp } from './support/test-app';

/** Every change of case status writes an audit row. */
let t: TestApp;
let s: Awaited<ReturnType<typeof demoSessions>>;
let setup: CaseSetup;
let api: ReturnType<typeof caseApi>;
let call: ReturnType<typeof shopCall>;

beforeAll(async () => {
  t = await startTestApp();
  api = caseApi(t.app);
  call = shopCall(t.app);
  s = await demoSessions(t.app);
  setup = caseSetup(t.app, s);
});
afterAll(async () => {
  await t?.close();
});

interface AuditItem {
  action: string;
  entity: string;
  entityId: string;
  actorUserId: number | null;
  ip: string | null;
  details: Record<string, unknown>;
}

/** The case's audit rows through the admin's audit search, oldest first. */
async function caseAudit(caseId: number, session: Session = s.admin): Promise<AuditItem[]> {
  const response = await call(session, 'GET', `/api/v1/audit?entity=case&entityId=${caseId}`);
  expect(response.statusCode, response.body).toBe(200);
  return json<{ obj: { items: AuditItem[] } }>(response).obj.items.reverse();
}

const audits = async (caseId: number, action: string) =>
  (await caseAudit(caseId)).filter((row) => row.action === action);

const move = async (session: Session, id: number, body: Record<string, unknown>) => {
  const response = await api(session, 'POST', `${id}/move`, body);
  expect(response.statusCode, response.body).toBe(200);
};

describe('audit rows for case status changes', () => {
  it('records each move with its actor, address, cause, before and after — and nothing else', async () => {
    const id = await caseInStatus(setup, 'new');
    // Editing data and services is not a status change.
    expect(await caseAudit(id)).toEqual([]);

    await move(s.doctor, id, { action: 'submit' });
    await api(s.supervisor, 'POST', `${id}/planner`, { plannerId: s.planner.profile.id });
    await move(s.supervisor, id, VALIDATE_BILLED_LATER);

    // Besides the status rows, only the override that let the unpaid case through.
    expect((await caseAudit(id)).map((row) => row.action)).toEqual([
      'case.status',
      'case.paymentOverride',
      'case.status',
    ]);
    const rows = await audits(id, 'case.status');
    expect(rows).toEqual([
      expect.objectContaining({
        action: 'case.status',
        entity: 'case',
        entityId: String(id),
        actorUserId: s.doctor.profile.id,
        ip: '127.0.0.1',
        details: {
          cause: 'submit',
          before: { caseStatus: 'new' },
          after: { caseStatus: 'checkingout' },
        },
      }),
      expect.objectContaining({
        actorUserId: s.supervisor.profile.id,
        details: {
          cause: 'validate',
          before: { caseStatus: 'checkingout' },
          after: { caseStatus: 'execute' },
        },
      }),
    ]);
  });

  it('records a validation of unpaid services with its reason, services and amount', async () => {
    const id = await caseInStatus(setup, 'execute');
    const { caseCurrency } = objOf(await api(s.doctor, 'GET', `${id}/get`));
    const rows = await audits(id, 'case.paymentOverride');
    expect(rows).toEqual([
      expect.objectContaining({
        actorUserId: s.supervisor.profile.id,
        ip: '127.0.0.1',
        details: {
          reason: 'Billed monthly',
          serviceIds: [expect.any(Number)],
          unpaidAmount: expect.any(Number),
          currency: caseCurrency,
        },
      }),
    ]);
    expect((rows[0]!.details as { unpaidAmount: number }).unpaidAmount).toBeGreaterThan(0);
  });

  it('records archiving and un-archiving with the flag', async () => {
    const id = await caseInStatus(setup, 'cancelled');
    expect((await api(s.doctor, 'POST', `${id}/archive`)).statusCode).toBe(200);
    expect((await api(s.supervisor, 'POST', `${id}/unarchive`)).statusCode).toBe(200);
    const rows = await caseAudit(id);
    expect(rows.map((row) => [row.actorUserId, row.details])).toEqual([
      [
        s.doctor.profile.id,
        { cause: 'cancel', before: { caseStatus: 'new' }, after: { caseStatus: 'cancelled' } },
      ],
      [
        s.doctor.profile.id,
        {
          cause: 'archived',
          before: { caseStatus: 'cancelled', archived: false },
          after: { caseStatus: 'cancelled', archived: true },
        },
      ],
      [
        s.supervisor.profile.id,
        {
          cause: 'unarchived',
          before: { caseStatus: 'cancelled', archived: true },
          after: { caseStatus: expect.any(String), archived: false },
        },
      ],
    ]);
  });

  it('records the move to checkingout by a shop checkout and by a new transaction', async () => {
    const viaShop = objOf(await api(s.doctor, 'POST', 'new', PATIENT)).id;
    const checkout = await call(
      s.doctor,
      'POST',
      '/api/v1/shop/checkout',
      // The demo doctor's cases are in reais.
      order({
        caseId: viaShop,
        items: [await cartItem(t.app.database.db, 'PLAN-SMILE')],
        currency: 'BRL',
      }),
    );
    expect(checkout.statusCode, checkout.body).toBe(200);
    expect((await caseAudit(viaShop)).map((row) => row.details)).toEqual([
      { cause: 'checkout', before: { caseStatus: 'new' }, after: { caseStatus: 'checkingout' } },
    ]);

    const viaPayment = await caseInStatus(setup, 'new');
    await grantCapabilities(t.app.database.db, s.doctor.profile.id);
    const created = await call(s.doctor, 'POST', `/api/v1/case/transaction/${viaPayment}/new`, {
      paymentMethod: 'physical',
    });
    expect(created.statusCode, created.body).toBe(200);
    expect((await caseAudit(viaPayment)).map((row) => [row.actorUserId, row.details])).toEqual([
      [
        s.doctor.profile.id,
        { cause: 'payment', before: { caseStatus: 'new' }, after: { caseStatus: 'checkingout' } },
      ],
      // A card machine payment starts pre-paid: the case moves on by itself in the same request.
      [
        s.doctor.profile.id,
        {
          cause: 'validate',
          before: { caseStatus: 'checkingout' },
          after: { caseStatus: 'execute' },
        },
      ],
    ]);
  });

  it('is read by admins only', async () => {
    const id = await caseInStatus(setup, 'checkingout');
    for (const session of [s.doctor, s.supervisor, s.planner]) {
      const response = await call(session, 'GET', `/api/v1/audit?entity=case&entityId=${id}`);
      expect(response.statusCode).toBe(403);
    }
    expect(await caseAudit(id)).toHaveLength(1);
  });
});
