import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CaseEvent } from '@dentflow/domain';
import { caseApi, caseInStatus, createUser, demoSessions } from './support/cases-fixtures';
import { INVOICE_CUSTOMER, grantCapabilities, txCall } from './support/payments-fixtures';
import { json, startTestApp, type Session, type TestApp } from './support/test-app';

/**
 * A case's history shows the money of its payment events (totals, method, invoice number, cancel
 * reason) only to whoever sees the transactions: staff, the owner, the payer. Members, partners,
 * printers and the owner's instructor read the same events without those fields.
 */
let t: TestApp;
let caseId: number;
let transactionId: number;
let viewers: Record<'owner' | 'supervisor' | 'admin', Session>;
let readers: Record<'member' | 'partner' | 'printer' | 'instructor', Session>;

const INVOICE_NUMBER = 'NF-778120';
const CANCEL_REASON = 2;

const historyOf = async (session: Session) => {
  const response = await caseApi(t.app)(session, 'GET', `${caseId}/history`);
  expect(response.statusCode).toBe(200);
  return { events: json<{ obj: CaseEvent[] }>(response).obj, body: response.body };
};
const moneyEvents = (events: CaseEvent[]) =>
  events.filter((event) => event.action === 'payment' || event.action === 'checkout');

beforeAll(async () => {
  t = await startTestApp();
  const demo = await demoSessions(t.app);
  const api = caseApi(t.app);
  // The demo doctor is the demo instructor's student: the instructor sees the case.
  const owner = demo.doctor;
  await grantCapabilities(t.app.database.db, owner.profile.id);
  // A printable product in finishing: the printer sees it by its role.
  caseId = await caseInStatus(
    {
      app: t.app,
      owner,
      supervisor: demo.supervisor,
      planner: demo.planner,
      printer: demo.printer,
    },
    'finishing',
  );
  const member = await createUser(t.app, ['doctor']);
  for (const user of [member, demo.partner]) {
    const added = await api(demo.supervisor, 'POST', `${caseId}/users`, {
      userId: user.profile.id,
      triggerNotification: false,
    });
    expect(added.statusCode, added.body).toBe(200);
  }

  const call = txCall(t.app);
  const created = await call(owner, 'POST', `${caseId}/new`, { paymentMethod: 'physical' });
  expect(created.statusCode, created.body).toBe(200);
  transactionId = json<{ obj: { id: number } }>(created).obj.id;
  for (const [session, path, body] of [
    [owner, 'setInvoiceCustomer', INVOICE_CUSTOMER],
    [demo.admin, 'setInvoiceNumber', { invoiceNumber: INVOICE_NUMBER }],
    [owner, 'cancel', { reasonId: CANCEL_REASON, description: 'Changed plans' }],
  ] as const) {
    const done = await call(session, 'POST', `${transactionId}/${path}`, body);
    expect(done.statusCode, done.body).toBe(200);
  }
  viewers = { owner, supervisor: demo.supervisor, admin: demo.admin };
  readers = { member, partner: demo.partner, printer: demo.printer, instructor: demo.instructor };
});

afterAll(async () => {
  await t?.close();
});

describe('GET /case/{id}/history and money', () => {
  it.each(['owner', 'supervisor', 'admin'] as const)(
    '%s reads the totals, the method, the invoice number and the cancel reason',
    async (name) => {
      const details = moneyEvents((await historyOf(viewers[name])).events).map((e) => e.detail);
      expect(details).toContainEqual(
        expect.objectContaining({
          transactionId,
          paymentMethod: 'physical',
          total: expect.any(Number),
        }),
      );
      expect(details).toContainEqual(
        expect.objectContaining({ change: 'invoiceNumberSet', invoiceNumber: INVOICE_NUMBER }),
      );
      expect(details).toContainEqual(
        expect.objectContaining({ change: 'cancelRequested', reasonId: CANCEL_REASON }),
      );
      // Every change of the transaction says how much it is about (the history's sentences).
      const payments = details.filter((detail) => typeof detail.change === 'string');
      expect(payments.length).toBeGreaterThanOrEqual(3);
      for (const detail of payments) {
        expect(detail).toMatchObject({ total: expect.any(Number), currency: expect.any(String) });
      }
    },
  );

  it.each(['member', 'partner', 'printer', 'instructor'] as const)(
    '%s: refused on /transactions, reads the same events without money fields',
    async (name) => {
      const session = readers[name];
      const transactions = await caseApi(t.app)(session, 'GET', `${caseId}/transactions`);
      expect(transactions.statusCode).toBe(404);

      const { events, body } = await historyOf(session);
      const full = (await historyOf(viewers.owner)).events;
      // The same events, in the same order, with the same actors and statuses.
      expect(events.map(({ detail: _detail, ...event }) => event)).toEqual(
        full.map(({ detail: _detail, ...event }) => event),
      );
      const money = moneyEvents(events);
      expect(money.length).toBeGreaterThanOrEqual(4);
      for (const event of money) {
        expect(Object.keys(event.detail).sort()).toEqual(
          event.action === 'payment' ? ['change', 'transactionId'] : ['transactionId'],
        );
        expect(event.detail.transactionId).toBe(transactionId);
      }
      expect(money.map((event) => event.detail.change)).toEqual(
        expect.arrayContaining(['created', 'invoiceNumberSet', 'cancelRequested']),
      );
      for (const secret of [
        INVOICE_NUMBER,
        '"paymentMethod"',
        '"total"',
        '"reasonId"',
        '"unpaidAmount"',
      ]) {
        expect(body).not.toContain(secret);
      }
      // The other events keep their detail, but what a validation without payment left unpaid.
      const withoutUnpaidAmount = ({ paymentOverride, ...detail }: CaseEvent['detail']) => {
        if (!paymentOverride || typeof paymentOverride !== 'object') return detail;
        const {
          unpaidAmount: _amount,
          currency: _currency,
          ...reason
        } = paymentOverride as Record<string, unknown>;
        return { ...detail, paymentOverride: reason };
      };
      const others = (list: CaseEvent[]) =>
        list
          .filter((event) => !moneyEvents([event]).length)
          .map((event) => withoutUnpaidAmount(event.detail));
      expect(others(events)).toEqual(others(full));
    },
  );
});
