import { eq } from 'drizzle-orm';
import type { LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  RECEIPT_DESCRIPTION_MAX,
  RECEIPT_MAX_BYTES,
  caseListGroup,
  type CaseTransactions,
  type CheckoutResult,
  type PaymentLink,
  type PaymentReturn,
  type PendingTransaction,
} from '@dentflow/domain';
import { caseServices, cases, transactions } from '../src/db/schema';
import { codeOf, createUser } from './support/cases-fixtures';
import {
  INVOICE_CUSTOMER,
  TRANSACTION_ROUTES,
  grantCapabilities,
  pdfBytes,
  placeOrder,
  receiptCall,
  receiptForm,
  routeCall,
  storedReceiptFiles,
  transactionSnapshot,
  txCall,
  viewOf,
  type TransactionRoute,
} from './support/payments-fixtures';
import { bearer, json, login, startTestApp, type Session, type TestApp } from './support/test-app';

/**
 * docs/permissions.md "Transactions (payments)", cell by cell: who sees a case's transactions,
 * which role may take each action, and in which state (403 FORBIDDEN for a role that never may,
 * 409 TRANSACTION_STATE / NOT_AUTHORIZED_YET for a state that does not allow it).
 * Bad input is payments-input.int.test.ts.
 */

let t: TestApp;
let call: ReturnType<typeof txCall>;
let route: ReturnType<typeof routeCall>;
let receipt: ReturnType<typeof receiptCall>;
const db = () => t.app.database.db;

/** The case owner and payer (ptBR, a student of the demo instructor). */
let owner: Session;
let otherDoctor: Session;
/** An English doctor (USD, no card machine or insurance): the owner of `usdOrder`. */
let usdOwner: Session;
let users: Record<
  'supervisor' | 'admin' | 'clinic' | 'planner' | 'partner' | 'printer' | 'instructor',
  Session
>;

/** Read-only fixture: Pix, awaiting payment; its case has a planner, a member and is printable. */
let visible: CheckoutResult;
/** Pix: the receipt rules. */
let receiptOrder: CheckoutResult;
/** Pix: the cancel rules, ends cancelled. */
let cancelOrder: CheckoutResult;
/** Card machine, pre-paid: invoices and the admin's confirmation. */
let physicalOrder: CheckoutResult;
/** PayPal in USD: a new transaction for services added later (Pix and PagBank are BRL only). */
let usdOrder: CheckoutResult;

beforeAll(async () => {
  // No provider is reached here: they stay at the unreachable default address.
  t = await startTestApp();
  call = txCall(t.app);
  route = routeCall(t.app);
  receipt = receiptCall(t.app);
  const names = [
    'supervisor',
    'admin',
    'clinic',
    'planner',
    'partner',
    'printer',
    'instructor',
  ] as const;
  const sessions = await Promise.all(names.map((name) => login(t.app, name)));
  users = Object.fromEntries(names.map((name, i) => [name, sessions[i]!])) as typeof users;
  owner = await createUser(t.app, ['doctor'], {
    language: 'ptBR',
    instructorId: users.instructor.profile.id,
  });
  otherDoctor = await createUser(t.app, ['doctor'], { language: 'ptBR' });
  usdOwner = await createUser(t.app, ['doctor'], { language: 'en' });
  await grantCapabilities(db(), owner.profile.id);

  visible = await placeOrder(t.app, owner, 'pix', { complete: false });
  receiptOrder = await placeOrder(t.app, owner, 'pix', { complete: false });
  cancelOrder = await placeOrder(t.app, owner, 'pix', { complete: false });
  physicalOrder = await placeOrder(t.app, owner, 'physical', { complete: false });
  usdOrder = await placeOrder(t.app, usdOwner, 'paypal', { currency: 'USD', complete: false });

  // Everyone who sees the visible case without being its client: its planner, a member, a
  // printer (a printable service in finishing) and the owner's instructor.
  const caseId = visible.caseId;
  await must(
    t.app.inject({
      method: 'POST',
      url: `/api/v1/case/${caseId}/planner`,
      headers: bearer(users.supervisor),
      payload: { plannerId: users.planner.profile.id },
    }),
  );
  await must(
    t.app.inject({
      method: 'POST',
      url: `/api/v1/case/${caseId}/users`,
      headers: bearer(users.supervisor),
      payload: { userId: users.partner.profile.id, triggerNotification: false },
    }),
  );
  await db()
    .update(caseServices)
    .set({ printableProduct: true })
    .where(eq(caseServices.caseId, caseId));
  await db()
    .update(cases)
    .set({ caseStatus: 'finishing', listGroup: caseListGroup('finishing'), hasPrintable: true })
    .where(eq(cases.id, caseId));
}, 60_000);

afterAll(async () => {
  await t?.close();
});

async function must(pending: Promise<LightMyRequestResponse>) {
  const response = await pending;
  if (response.statusCode !== 200) throw new Error(`${response.statusCode} ${response.body}`);
  return response;
}

/** Status and code together: a rule broken either way fails. */
function expectRefused(response: LightMyRequestResponse, status: number, code: string) {
  expect({ status: response.statusCode, code: codeOf(response) }, response.body).toEqual({
    status,
    code,
  });
}

function expectOk(response: LightMyRequestResponse) {
  expect(response.statusCode, response.body).toBe(200);
  return viewOf(response);
}

const byName = (name: string) => TRANSACTION_ROUTES.find((r) => r.name === name)!;
const list = (session: Session | null, caseId: number) =>
  call(session, 'GET', `/api/v1/case/${caseId}/transactions`);
const submit = (session: Session, id: number, justification: string | null, file?: Buffer) =>
  receipt(
    session,
    id,
    receiptForm(justification, file ? { name: 'receipt.pdf', bytes: file } : null),
  );
const snapshot = (id: number) => transactionSnapshot(db(), id);

describe('who sees a transaction', () => {
  const outsiders = () =>
    [
      ['another doctor', otherDoctor],
      ['the demo clinic', users.clinic],
      ['a planner of the case', users.planner],
      ['a member of the case (partner)', users.partner],
      ['a printer', users.printer],
      ['the owner’s instructor', users.instructor],
    ] as const;

  it('the planner, member, printer and instructor do see the case itself (the premise)', async () => {
    for (const viewer of [users.planner, users.partner, users.printer, users.instructor]) {
      const response = await t.app.inject({
        method: 'GET',
        url: `/api/v1/case/${visible.caseId}/get`,
        headers: bearer(viewer),
      });
      expect(response.statusCode, response.body).toBe(200);
    }
  });

  it('is hidden from everyone but the client side and staff: 404, like a missing one', async () => {
    const before = await snapshot(visible.transactionId);
    for (const [who, session] of outsiders()) {
      expectRefused(await list(session, visible.caseId), 404, 'NOT_FOUND');
      for (const r of TRANSACTION_ROUTES) {
        const response = await route(session, r, visible.transactionId);
        const missing = await route(session, r, 2_147_483_647);
        // A role-only route refuses the role before looking at the record (nothing leaks).
        const [status, code] = r.role ? [403, 'FORBIDDEN'] : [404, 'NOT_FOUND'];
        expect({ who, route: r.name, status: response.statusCode, code: codeOf(response) }).toEqual(
          { who, route: r.name, status, code },
        );
        expect(response.body, `${who} ${r.name}`).toBe(missing.body);
      }
    }
    // A receipt file is checked against the record before it is stored.
    expectRefused(
      await submit(otherDoctor, visible.transactionId, 'mine', pdfBytes()),
      404,
      'NOT_FOUND',
    );
    expect(storedReceiptFiles(t.dataDir, visible.transactionId)).toEqual([]);
    expect(await snapshot(visible.transactionId)).toEqual(before);
  });

  it('the owner, a supervisor and an admin see it (list, refresh, provider returns)', async () => {
    for (const session of [owner, users.supervisor, users.admin]) {
      const listed = await list(session, visible.caseId);
      expect(listed.statusCode, listed.body).toBe(200);
      const items = json<{ obj: CaseTransactions }>(listed).obj.items;
      expect(items.map((item) => item.id)).toContain(visible.transactionId);
      expect(expectOk(await route(session, byName('refresh'), visible.transactionId)).id).toBe(
        visible.transactionId,
      );
      // A Pix transaction has no PayPal or PagBank order: answered without calling a provider.
      for (const name of ['paypal return', 'pagseguro return']) {
        const landed = await route(session, byName(name), visible.transactionId);
        expect(landed.statusCode, landed.body).toBe(200);
        expect(json<{ obj: PaymentReturn }>(landed).obj).toMatchObject({
          problem: 'transactionError',
          transaction: { id: visible.transactionId },
        });
      }
    }
  });

  it('only the client pays: the owner gets the Pix code, staff see but may not pay (409)', async () => {
    const link = await route(owner, byName('paymentLink'), visible.transactionId);
    expect(link.statusCode, link.body).toBe(200);
    expect(json<{ obj: PaymentLink }>(link).obj.pixCode).toBeTruthy();
    for (const staff of [users.supervisor, users.admin]) {
      expectRefused(
        await route(staff, byName('paymentLink'), visible.transactionId),
        409,
        'TRANSACTION_STATE',
      );
    }
  });

  it('answers 401 on every route without a token', async () => {
    expectRefused(await list(null, visible.caseId), 401, 'NOT_AUTHORIZED');
    for (const r of TRANSACTION_ROUTES) {
      expectRefused(await route(null, r, visible.transactionId), 401, 'NOT_AUTHORIZED');
    }
    expectRefused(await call(null, 'GET', '/api/v1/transactions/pending'), 401, 'NOT_AUTHORIZED');
    expectRefused(
      await call(null, 'POST', `${visible.caseId}/new`, { paymentMethod: 'pix' }),
      401,
      'NOT_AUTHORIZED',
    );
  });
});

describe('receipts: the client sends, a supervisor (or admin) decides', () => {
  const id = () => receiptOrder.transactionId;

  it('takes a file of exactly the limit, then refuses a second receipt (409)', async () => {
    const sent = expectOk(await submit(owner, id(), 'Pix 10:32', pdfBytes(RECEIPT_MAX_BYTES)));
    expect(sent.receipt?.fileSize).toBe(RECEIPT_MAX_BYTES);
    expect(sent.actions).not.toContain('submitReceipt');
    expectRefused(await submit(owner, id(), 'again'), 409, 'TRANSACTION_STATE');
  });

  it('a supervisor turns it down; staff may not send one in the client’s place (409)', async () => {
    // Turned down, a receipt may be sent again: what staff lack is only the client relation.
    const denied = expectOk(
      await call(users.supervisor, 'POST', `${id()}/authReceipt`, { approve: false }),
    );
    expect(denied.receipt).toBeNull();
    expect(denied.actions).not.toContain('submitReceipt');
    expectRefused(await submit(users.supervisor, id(), 'staff'), 409, 'TRANSACTION_STATE');
    // A refused receipt's file does not stay (the first, turned-down one does: it is on record).
    expect(storedReceiptFiles(t.dataDir, id())).toHaveLength(1);
    expectRefused(
      await submit(users.supervisor, id(), 'staff', pdfBytes()),
      409,
      'TRANSACTION_STATE',
    );
    expect(storedReceiptFiles(t.dataDir, id())).toHaveLength(1);
  });

  it('the owner may not authorise it (403); without a receipt there is nothing to authorise (409)', async () => {
    expectRefused(
      await call(owner, 'POST', `${id()}/authReceipt`, { approve: true }),
      403,
      'FORBIDDEN',
    );
    expectRefused(
      await call(users.supervisor, 'POST', `${id()}/authReceipt`, { approve: true }),
      409,
      'TRANSACTION_STATE',
    );
  });

  it('an admin authorises the next one (a justification of exactly 75): paid, no more receipts', async () => {
    const text = 'x'.repeat(RECEIPT_DESCRIPTION_MAX);
    expect(expectOk(await submit(owner, id(), text)).receipt?.justification).toBe(text);
    expectRefused(
      await call(owner, 'POST', `${id()}/authReceipt`, { approve: true }),
      403,
      'FORBIDDEN',
    );
    const paid = expectOk(
      await call(users.admin, 'POST', `${id()}/authReceipt`, { approve: true }),
    );
    expect(paid.paymentStatus).toBe('paid');
    expectRefused(await submit(owner, id(), 'after paying'), 409, 'TRANSACTION_STATE');
    expectRefused(
      await call(users.supervisor, 'POST', `${id()}/authReceipt`, { approve: true }),
      409,
      'TRANSACTION_STATE',
    );
  });
});

describe('cancels: the client or staff ask, a supervisor (or admin) decides', () => {
  const id = () => cancelOrder.transactionId;
  const cancel = (session: Session, description = 'Patient gave up') =>
    call(session, 'POST', `${id()}/cancel`, { reasonId: 1, description });

  it('nothing to authorise before a request; the owner may never authorise (403)', async () => {
    expectRefused(
      await call(users.supervisor, 'POST', `${id()}/authCancel`, { authorize: true }),
      409,
      'TRANSACTION_STATE',
    );
    expectOk(await cancel(owner));
    expectRefused(
      await call(owner, 'POST', `${id()}/authCancel`, { authorize: true }),
      403,
      'FORBIDDEN',
    );
  });

  it('a pending cancel freezes a second cancel, receipts and paying: NOT_AUTHORIZED_YET', async () => {
    const before = await snapshot(id());
    expectRefused(await cancel(owner, 'again'), 409, 'NOT_AUTHORIZED_YET');
    expectRefused(await cancel(users.supervisor, 'again'), 409, 'NOT_AUTHORIZED_YET');
    expectRefused(await submit(owner, id(), 'paid meanwhile'), 409, 'NOT_AUTHORIZED_YET');
    expectRefused(await call(owner, 'GET', `${id()}/paymentLink`), 409, 'NOT_AUTHORIZED_YET');
    expect(await snapshot(id())).toEqual(before);
  });

  it('a supervisor denies; staff may ask again; an admin authorises: cancelled', async () => {
    const denied = expectOk(
      await call(users.supervisor, 'POST', `${id()}/authCancel`, { authorize: false }),
    );
    expect(denied.cancel).toBeNull();
    expect(denied.paymentStatus).toBe('awaiting_payment');
    expect(expectOk(await cancel(users.supervisor, 'Asked by phone')).cancel?.authAt).toBeNull();
    const cancelled = expectOk(
      await call(users.admin, 'POST', `${id()}/authCancel`, { authorize: true }),
    );
    expect(cancelled.paymentStatus).toBe('cancelled');
    expect(cancelled.actions).toEqual([]);
  });

  it('nothing may be done on a cancelled transaction (409 TRANSACTION_STATE)', async () => {
    const before = await snapshot(id());
    const attempts: [Session, TransactionRoute, object?][] = [
      [owner, byName('cancel')],
      [users.supervisor, byName('cancel')],
      [owner, byName('submitReceipt')],
      [owner, byName('paymentLink')],
      [owner, byName('setInvoiceCustomer')],
      [users.supervisor, byName('setInvoiceCustomer')],
      [users.supervisor, byName('authReceipt')],
      [users.supervisor, byName('authCancel'), { authorize: false }],
      [users.admin, byName('authCancel')],
      [users.admin, byName('setInvoiceNumber')],
      [users.admin, byName('checkPhysicalPayment')],
    ];
    for (const [session, r, body] of attempts) {
      const response = await route(session, r, id(), body);
      expect({ route: r.name, status: response.statusCode, code: codeOf(response) }).toEqual({
        route: r.name,
        status: 409,
        code: 'TRANSACTION_STATE',
      });
    }
    expect(await snapshot(id())).toEqual(before);
  });
});

describe('invoices and the card machine: numbers and confirmations are the admin’s', () => {
  const id = () => physicalOrder.transactionId;

  it('no invoice number before an invoice customer (409)', async () => {
    expectRefused(
      await call(users.admin, 'POST', `${id()}/setInvoiceNumber`, { invoiceNumber: 'NF-1' }),
      409,
      'TRANSACTION_STATE',
    );
  });

  it('the owner and staff set the customer; only an admin issues the number (403 otherwise)', async () => {
    expect(expectOk(await route(owner, byName('setInvoiceCustomer'), id())).invoice).toMatchObject({
      document: INVOICE_CUSTOMER.document,
      invoiceNumber: null,
    });
    const renamed = expectOk(
      await call(users.supervisor, 'POST', `${id()}/setInvoiceCustomer`, {
        ...INVOICE_CUSTOMER,
        customerName: 'Dr. Ana Lima',
      }),
    );
    expect(renamed.invoice?.customerName).toBe('Dr. Ana Lima');
    for (const session of [owner, users.supervisor]) {
      expectRefused(
        await call(session, 'POST', `${id()}/setInvoiceNumber`, { invoiceNumber: 'NF-2' }),
        403,
        'FORBIDDEN',
      );
    }
    const issued = expectOk(
      await call(users.admin, 'POST', `${id()}/setInvoiceNumber`, { invoiceNumber: 'NF-3' }),
    );
    expect(issued.invoice?.invoiceNumber).toBe('NF-3');
  });

  it('the customer is fixed once the number is issued (409)', async () => {
    for (const session of [owner, users.supervisor, users.admin]) {
      expectRefused(
        await route(session, byName('setInvoiceCustomer'), id()),
        409,
        'TRANSACTION_STATE',
      );
    }
  });

  it('only an admin confirms a card machine payment, once', async () => {
    for (const session of [owner, users.supervisor]) {
      expectRefused(
        await call(session, 'POST', `${id()}/checkPhysicalPayment`, { confirm: true }),
        403,
        'FORBIDDEN',
      );
    }
    expect(
      expectOk(await call(users.admin, 'POST', `${id()}/checkPhysicalPayment`, { confirm: true }))
        .paymentStatus,
    ).toBe('paid');
    expectRefused(
      await call(users.admin, 'POST', `${id()}/checkPhysicalPayment`, { confirm: true }),
      409,
      'TRANSACTION_STATE',
    );
  });

  it('a Pix transaction has nothing to confirm (409) and is left as it was', async () => {
    const before = await snapshot(visible.transactionId);
    expectRefused(
      await call(users.admin, 'POST', `${visible.transactionId}/checkPhysicalPayment`, {
        confirm: true,
      }),
      409,
      'TRANSACTION_STATE',
    );
    expect(await snapshot(visible.transactionId)).toEqual(before);
  });
});

describe('the staff queue', () => {
  it('is refused to doctors, planners and clinics (403) and answered to supervisors and admins', async () => {
    for (const session of [owner, users.planner, users.clinic]) {
      expectRefused(await call(session, 'GET', '/api/v1/transactions/pending'), 403, 'FORBIDDEN');
    }
    for (const session of [users.supervisor, users.admin]) {
      const response = await call(session, 'GET', '/api/v1/transactions/pending');
      expect(response.statusCode, response.body).toBe(200);
      expect(Array.isArray(json<{ obj: PendingTransaction[] }>(response).obj)).toBe(true);
    }
  });
});

describe('a new transaction: only the case owner', () => {
  const newTx = (session: Session, paymentMethod: string) =>
    call(session, 'POST', `${usdOrder.caseId}/new`, { paymentMethod });
  const countOfCase = async () =>
    (await db().select().from(transactions).where(eq(transactions.caseId, usdOrder.caseId))).length;

  it('is 404 for another doctor, 403 for staff, 400 for a method the case cannot use, then 200 and 409', async () => {
    const [service] = await db()
      .select()
      .from(caseServices)
      .where(eq(caseServices.caseId, usdOrder.caseId));
    const [added] = await db()
      .insert(caseServices)
      .values({
        caseId: usdOrder.caseId,
        productId: service!.productId,
        productCategoryId: service!.productCategoryId,
        quantity: 1,
        dataVersion: 3,
        data: service!.data,
      })
      .returning({ id: caseServices.id });
    const count = await countOfCase();
    // The methods a new transaction may use are offered to the owner only.
    const methodsFor = async (session: Session) =>
      json<{ obj: CaseTransactions }>(await list(session, usdOrder.caseId)).obj.paymentMethods;
    expect(await methodsFor(usdOwner)).toEqual(['paypal']);
    expect(await methodsFor(users.supervisor)).toEqual([]);
    expect(await methodsFor(users.admin)).toEqual([]);

    expectRefused(await newTx(otherDoctor, 'paypal'), 404, 'NOT_FOUND');
    expectRefused(await newTx(users.supervisor, 'paypal'), 403, 'FORBIDDEN');
    // An admin passes the route's doctor rule but is not the owner.
    expectRefused(await newTx(users.admin, 'paypal'), 403, 'FORBIDDEN');
    // Pix and PagBank are for BRL cases only; the card machine needs the capability.
    for (const method of ['pix', 'pagseguro', 'physical']) {
      const refused = await newTx(usdOwner, method);
      expectRefused(refused, 400, 'PAYMENT_METHOD_UNAVAILABLE');
      expect(json<{ fields: Record<string, string> }>(refused).fields).toHaveProperty(
        'paymentMethod',
      );
    }
    expect(await countOfCase()).toBe(count);

    expectRefused(await newTx(owner, 'paypal'), 404, 'NOT_FOUND');
    const created = expectOk(await newTx(usdOwner, 'paypal'));
    expect(created.serviceIds).toEqual([added!.id]);
    expect(created.paymentStatus).toBe('awaiting_payment');
    expect(created.currency).toBe('USD');
    expectRefused(await newTx(usdOwner, 'paypal'), 409, 'NOTHING_TO_PAY');
    expect(await countOfCase()).toBe(count + 1);
  });
});
