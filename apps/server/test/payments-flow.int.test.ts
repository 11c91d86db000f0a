import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  REVIEW_REASONS,
  isValidPixBrCode,
  parseEmv,
  type CaseDetail,
  type CaseTransactions,
  type PaymentLink,
  type PaymentReturn,
  type PendingTransaction,
} from '@dentflow/domain';
import {
  startPagbankSandbox,
  type PagbankSandbox,
  startPaypalSandbox,
  type PaypalSandbox,
} from '@dentflow/payment-sandbox';
import {
  auditLog,
  caseEvents,
  caseReviews,
  caseServices,
  cases,
  paymentNotices,
  transactions,
} from '../src/db/schema';
import {
  caseApi,
  codeOf,
  completeServiceData,
  createUser,
  insertRequiredFiles,
  objOf,
} from './support/cases-fixtures';
import { PATIENT, cartItem } from './support/shop-fixtures';
import {
  grantCapabilities,
  pdfBytes,
  placeOrder,
  receiptForm,
  txCall,
  viewOf,
} from './support/payments-fixtures';
import { bearer, json, login, startTestApp, type Session, type TestApp } from './support/test-app';

let t: TestApp;
let paypal: PaypalSandbox;
let pagbank: PagbankSandbox;
let doctor: Session;
let supervisor: Session;
let admin: Session;
let call: ReturnType<typeof txCall>;
let getCase: ReturnType<typeof caseApi>;
const db = () => t.app.database.db;

const WEBHOOK_ID = 'WH-TEST-1';

beforeAll(async () => {
  paypal = await startPaypalSandbox({
    clientId: 'test-client',
    clientSecret: 'test-secret',
    webhookId: WEBHOOK_ID,
  });
  // Its notifications would go to PUBLIC_URL, not this in-memory app: the tests deliver them.
  pagbank = await startPagbankSandbox({
    token: 'test-pagbank-token',
    deliverNotifications: false,
  });
  t = await startTestApp({
    PAYPAL_CLIENT_ID: 'test-client',
    PAYPAL_CLIENT_SECRET: 'test-secret',
    PAYPAL_API_URL: paypal.url,
    PAYPAL_WEBHOOK_ID: WEBHOOK_ID,
    PAGBANK_TOKEN: 'test-pagbank-token',
    PAGBANK_API_URL: pagbank.url,
  });
  call = txCall(t.app);
  getCase = caseApi(t.app);
  doctor = await createUser(t.app, ['doctor'], { language: 'ptBR' });
  // Capabilities are read from the database on every order: the session stays valid.
  await grantCapabilities(db(), doctor.profile.id);
  [supervisor, admin] = await Promise.all([login(t.app, 'supervisor'), login(t.app, 'admin')]);
}, 60_000);

afterAll(async () => {
  await t?.close();
  await paypal?.close();
  await pagbank?.close();
});

const caseOf = async (caseId: number) =>
  objOf<CaseDetail>(await getCase(doctor, 'GET', `${caseId}/get`));

const openReviewReasons = async (caseId: number) =>
  (await db().select().from(caseReviews).where(eq(caseReviews.caseId, caseId)))
    .filter((review) => !review.solvedAt)
    .map((review) => review.reasonId);

describe('Pix: code, receipt, authorisation, automatic move to execute', () => {
  it('shows a valid BR Code for the amount and reference, takes a receipt, and the supervisor pays it', async () => {
    const { caseId, transactionId, breakdown } = await placeOrder(t.app, doctor, 'pix');
    const link = json<{ obj: PaymentLink }>(
      await call(doctor, 'GET', `${transactionId}/paymentLink`),
    ).obj;
    expect(link.paymentLink).toBeNull();
    expect(isValidPixBrCode(link.pixCode!)).toBe(true);
    const fields = parseEmv(link.pixCode!);
    expect(fields.get('54')).toBe((breakdown.total / 100).toFixed(2));
    expect(fields.get('53')).toBe('986');
    const [row] = await db().select().from(transactions).where(eq(transactions.id, transactionId));
    expect(fields.get('62')).toContain(row!.reference.replace(/[^A-Za-z0-9]/g, '').slice(0, 25));

    const form = receiptForm('Paid by Pix at 10:32', {
      name: 'comprovante.pdf',
      bytes: pdfBytes(),
    });
    const submitted = await t.app.inject({
      method: 'POST',
      url: `/api/v1/case/transaction/${transactionId}/submitReceipt`,
      headers: { ...bearer(doctor), ...form.headers },
      payload: form.payload,
    });
    expect(submitted.statusCode, submitted.body).toBe(200);
    const afterReceipt = viewOf(submitted);
    expect(afterReceipt.receipt?.justification).toBe('Paid by Pix at 10:32');
    expect(afterReceipt.receipt?.fileUrl).toBeTruthy();
    expect(afterReceipt.actions).not.toContain('submitReceipt');
    expect(await openReviewReasons(caseId)).toContain(REVIEW_REASONS.pixApproval);

    const queue = json<{ obj: PendingTransaction[] }>(
      await call(supervisor, 'GET', '/api/v1/transactions/pending'),
    ).obj;
    expect(queue.find((p) => p.transaction.id === transactionId)?.waitingFor).toBe('receipt');

    const authorised = await call(supervisor, 'POST', `${transactionId}/authReceipt`, {
      approve: true,
    });
    expect(authorised.statusCode, authorised.body).toBe(200);
    expect(viewOf(authorised).paymentStatus).toBe('paid');
    expect(viewOf(authorised).paidAt).toBeTruthy();

    const detail = await caseOf(caseId);
    expect(detail.caseStatus).toBe('execute');
    expect(detail.checks.transactions).toBe(true);
    expect(detail.services.every((s) => s.paid)).toBe(true);
    const reasons = await openReviewReasons(caseId);
    expect(reasons).not.toContain(REVIEW_REASONS.pixApproval);
    expect(reasons).toContain(REVIEW_REASONS.plannerNotSet);
    const audit = await db()
      .select()
      .from(auditLog)
      .where(eq(auditLog.entityId, String(transactionId)));
    expect(audit.map((a) => a.action)).toEqual(
      expect.arrayContaining(['transaction.receiptSubmitted', 'transaction.status']),
    );
    const history = await db().select().from(caseEvents).where(eq(caseEvents.caseId, caseId));
    expect(history.some((e) => e.action === 'validate' && e.toStatus === 'execute')).toBe(true);
  });

  it('a denied receipt lets the payer send another; the case stays in checkingout', async () => {
    const { caseId, transactionId } = await placeOrder(t.app, doctor, 'pix');
    const form = receiptForm('first', null);
    const first = await t.app.inject({
      method: 'POST',
      url: `/api/v1/case/transaction/${transactionId}/submitReceipt`,
      headers: { ...bearer(doctor), ...form.headers },
      payload: form.payload,
    });
    expect(first.statusCode).toBe(200);
    const denied = await call(supervisor, 'POST', `${transactionId}/authReceipt`, {
      approve: false,
    });
    expect(viewOf(denied).paymentStatus).toBe('awaiting_payment');
    expect(viewOf(denied).receipt).toBeNull();
    expect((await caseOf(caseId)).caseStatus).toBe('checkingout');
    const again = await t.app.inject({
      method: 'POST',
      url: `/api/v1/case/transaction/${transactionId}/submitReceipt`,
      headers: { ...bearer(doctor), ...form.headers },
      payload: form.payload,
    });
    expect(again.statusCode).toBe(200);
  });

  it('the case waits for its files: paid first, it moves when the client file arrives', async () => {
    const { caseId, transactionId } = await placeOrder(t.app, doctor, 'physical', {
      complete: false,
    });
    expect((await caseOf(caseId)).caseStatus).toBe('checkingout');
    await db()
      .update(caseServices)
      .set({ data: completeServiceData() })
      .where(eq(caseServices.caseId, caseId));
    // Saving the patient (any case change) re-checks: still no file, so it stays.
    const detail = await caseOf(caseId);
    await getCase(doctor, 'POST', `${caseId}/set`, {
      observation: 'x',
      modifiedAt: detail.modifiedAt,
    });
    expect((await caseOf(caseId)).caseStatus).toBe('checkingout');
    expect(viewOf(await call(doctor, 'GET', `${transactionId}/refresh`)).paymentStatus).toBe(
      'pre_paid',
    );
    // With the client's file in place the next change of the case moves it on by itself.
    await insertRequiredFiles(db(), caseId, doctor.profile.id);
    await getCase(doctor, 'POST', `${caseId}/set`, {
      observation: 'with the scan',
      modifiedAt: (await caseOf(caseId)).modifiedAt,
    });
    expect((await caseOf(caseId)).caseStatus).toBe('execute');
  });
});

describe('card machine and dental insurance', () => {
  it.each(['physical', 'dentalPrev'] as const)(
    '%s is pre-paid at checkout (the case moves on) until an admin confirms it',
    async (method) => {
      const { caseId, transactionId } = await placeOrder(t.app, doctor, method);
      const view = viewOf(await call(doctor, 'GET', `${transactionId}/refresh`));
      expect(view.paymentStatus).toBe('pre_paid');
      expect(view.actions).not.toContain('pay');
      expect((await caseOf(caseId)).caseStatus).toBe('execute');
      if (method === 'physical') {
        expect(await openReviewReasons(caseId)).toContain(REVIEW_REASONS.physicalCardApproval);
      }
      // A supervisor may not confirm; an admin may.
      expect(
        (await call(supervisor, 'POST', `${transactionId}/checkPhysicalPayment`, { confirm: true }))
          .statusCode,
      ).toBe(403);
      const confirmed = await call(admin, 'POST', `${transactionId}/checkPhysicalPayment`, {
        confirm: true,
      });
      expect(viewOf(confirmed).paymentStatus).toBe('paid');
      expect(await openReviewReasons(caseId)).not.toContain(REVIEW_REASONS.physicalCardApproval);
    },
  );

  it('is not offered without the capability', async () => {
    const plain = await createUser(t.app, ['doctor'], { language: 'ptBR' });
    const quote = json<{ obj: { paymentMethods: string[] } }>(
      await t.app.inject({
        method: 'POST',
        url: '/api/v1/shop/quote',
        headers: bearer(plain),
        payload: {
          caseId: null,
          items: [await cartItem(db(), 'PLAN-GUIDE', { planningExtraData: PATIENT })],
          shipment: null,
          coupon: null,
          paymentMethod: null,
          currency: 'BRL',
        },
      }),
    ).obj;
    expect(quote.paymentMethods).toEqual(['pix', 'paypal', 'pagseguro']);
  });
});

describe('PayPal Orders v2 against the sandbox', () => {
  it('creates the order, the payer approves, the return captures: paid and in execute', async () => {
    const { caseId, transactionId, breakdown } = await placeOrder(t.app, doctor, 'paypal');
    const link = json<{ obj: PaymentLink }>(
      await call(doctor, 'GET', `${transactionId}/paymentLink`),
    ).obj;
    expect(link.paymentLink).toContain(`${paypal.url}/checkoutnow?token=`);
    // The same link again: no second order.
    const again = json<{ obj: PaymentLink }>(
      await call(doctor, 'GET', `${transactionId}/paymentLink`),
    ).obj;
    expect(again.paymentLink).toBe(link.paymentLink);
    expect(paypal.orders.size).toBeGreaterThanOrEqual(1);
    const orderId = new URL(link.paymentLink!).searchParams.get('token')!;
    expect(paypal.orders.get(orderId)).toBeTruthy();

    paypal.approve(orderId);
    const landed = json<{ obj: PaymentReturn }>(
      await call(
        doctor,
        'GET',
        `/api/v1/notification/paypal/transaction/${transactionId}?token=${orderId}&PayerID=X`,
      ),
    ).obj;
    expect(landed.problem).toBeNull();
    expect(landed.transaction.paymentStatus).toBe('paid');
    expect(landed.transaction.priceTotal).toBe(breakdown.total);
    expect((await caseOf(caseId)).caseStatus).toBe('execute');

    // Coming back twice captures nothing more and changes nothing.
    const twice = json<{ obj: PaymentReturn }>(
      await call(doctor, 'GET', `/api/v1/notification/paypal/transaction/${transactionId}`),
    ).obj;
    expect(twice.transaction.paymentStatus).toBe('paid');
    const statusChanges = (
      await db()
        .select()
        .from(auditLog)
        .where(eq(auditLog.entityId, String(transactionId)))
    ).filter((a) => a.action === 'transaction.status');
    expect(statusChanges).toHaveLength(1);
  });

  it('applies a verified webhook once, even 20 copies at once; refuses a forged one', async () => {
    const { transactionId } = await placeOrder(t.app, doctor, 'paypal');
    const link = json<{ obj: PaymentLink }>(
      await call(doctor, 'GET', `${transactionId}/paymentLink`),
    ).obj;
    const orderId = new URL(link.paymentLink!).searchParams.get('token')!;
    paypal.approve(orderId);
    const captured = await paypalCaptureEvent(orderId, transactionId);

    const forged = await t.app.inject({
      method: 'POST',
      url: '/api/v1/notification/paypal',
      headers: { ...captured.headers, 'paypal-transmission-sig': 'forged' },
      payload: captured.body,
    });
    expect(forged.statusCode).toBe(400);
    expect(await dbStatus(transactionId)).toBe('awaiting_payment');

    const deliveries = await Promise.all(
      Array.from({ length: 20 }, () =>
        t.app.inject({
          method: 'POST',
          url: '/api/v1/notification/paypal',
          headers: captured.headers,
          payload: captured.body,
        }),
      ),
    );
    expect(deliveries.every((d) => d.statusCode === 200)).toBe(true);
    const outcomes = deliveries.map((d) => json<{ obj: { outcome: string } }>(d).obj.outcome);
    expect(outcomes.filter((o) => o === 'applied')).toHaveLength(1);
    expect(outcomes.filter((o) => o === 'duplicate')).toHaveLength(19);
    const statusChanges = (
      await db()
        .select()
        .from(auditLog)
        .where(eq(auditLog.entityId, String(transactionId)))
    ).filter((a) => a.action === 'transaction.status');
    expect(statusChanges).toHaveLength(1);
  });

  it('a late PENDING after COMPLETED does not undo the payment; a refund returns it', async () => {
    const { caseId, transactionId } = await placeOrder(t.app, doctor, 'paypal');
    const orderId = await approvedOrder(transactionId);
    const completed = await paypalCaptureEvent(orderId, transactionId);
    await deliver(completed);
    const late = await paypalCaptureEvent(orderId, transactionId, {
      eventType: 'PAYMENT.CAPTURE.PENDING',
      status: 'PENDING',
      minutesAgo: 10,
    });
    expect(json<{ obj: { outcome: string } }>(await deliver(late)).obj.outcome).toMatch(/ignored/);
    expect(await dbStatus(transactionId)).toBe('paid');
    const refund = await paypalCaptureEvent(orderId, transactionId, {
      eventType: 'PAYMENT.CAPTURE.REFUNDED',
      status: 'REFUNDED',
      minutesAgo: -5,
    });
    await deliver(refund);
    expect(await dbStatus(transactionId)).toBe('returned');
    expect(await openReviewReasons(caseId)).toContain(REVIEW_REASONS.paymentIssue);
  });

  it('a notice with another amount flags a payment issue instead of paying', async () => {
    const { caseId, transactionId } = await placeOrder(t.app, doctor, 'paypal');
    const orderId = await approvedOrder(transactionId);
    const wrong = await paypalCaptureEvent(orderId, transactionId, { amountDelta: -100 });
    expect(json<{ obj: { outcome: string } }>(await deliver(wrong)).obj.outcome).toBe(
      'amount_mismatch',
    );
    expect(await dbStatus(transactionId)).toBe('awaiting_payment');
    expect(await openReviewReasons(caseId)).toContain(REVIEW_REASONS.paymentIssue);
    const queue = json<{ obj: PendingTransaction[] }>(
      await call(supervisor, 'GET', '/api/v1/transactions/pending'),
    ).obj;
    expect(queue.find((p) => p.transaction.id === transactionId)?.waitingFor).toBe('paymentIssue');
  });

  it('a provider outage answers "Error on transaction" and keeps the transaction as it was', async () => {
    const { transactionId } = await placeOrder(t.app, doctor, 'paypal');
    paypal.failNext(10, 503);
    const failed = await call(doctor, 'GET', `${transactionId}/paymentLink`);
    paypal.failNext(0, 503);
    expect(failed.statusCode).toBe(502);
    expect(codeOf(failed)).toBe('TRANSACTION_ERROR');
    expect(json<{ error: string }>(failed).error).toBe('Erro na transação, consulte o suporte');
    const [row] = await db().select().from(transactions).where(eq(transactions.id, transactionId));
    expect(row!.gatewayCode).toBeNull();
    expect(row!.paymentStatus).toBe('awaiting_payment');
  });
});

describe('PagBank checkout against the sandbox', () => {
  it('creates the checkout, the payer pays by card, the notification is checked and applied once', async () => {
    const { caseId, transactionId } = await placeOrder(t.app, doctor, 'pagseguro');
    const link = json<{ obj: PaymentLink }>(
      await call(doctor, 'GET', `${transactionId}/paymentLink`),
    ).obj;
    expect(link.paymentLink).toContain(pagbank.url);
    const checkoutId = [...pagbank.checkouts.keys()].at(-1)!;
    // The sandbox notifies PUBLIC_URL, which is not this in-memory app: deliver by hand.
    const orderId = await pagbank.pay(checkoutId, 'card');
    const forged = await pagbankNotice(orderId, { sign: true, token: 'not-the-token' });
    expect(forged.statusCode).toBe(401);
    expect((await pagbankNotice(orderId, { sign: false })).statusCode).toBe(401);
    expect(await dbStatus(transactionId)).toBe('awaiting_payment');
    // Signed, the order is re-read: applied once, however many copies arrive at once.
    const copies = await Promise.all([
      pagbankNotice(orderId),
      pagbankNotice(orderId),
      pagbankNotice(orderId),
    ]);
    expect(copies.every((c) => c.statusCode === 200)).toBe(true);
    expect(await dbStatus(transactionId)).toBe('paid');
    expect((await caseOf(caseId)).caseStatus).toBe('execute');
    const notices = await db()
      .select()
      .from(paymentNotices)
      .where(eq(paymentNotices.transactionId, transactionId));
    expect(notices.filter((n) => n.outcome === 'applied')).toHaveLength(1);

    const landed = json<{ obj: PaymentReturn }>(
      await call(doctor, 'GET', `/api/v1/notification/pagseguro/transaction/${transactionId}`),
    ).obj;
    expect(landed).toMatchObject({ problem: null, transaction: { paymentStatus: 'paid' } });
  });

  it('a boleto waits; the return page says it is pending', async () => {
    const { transactionId } = await placeOrder(t.app, doctor, 'pagseguro');
    await call(doctor, 'GET', `${transactionId}/paymentLink`);
    const checkoutId = [...pagbank.checkouts.keys()].at(-1)!;
    await pagbank.pay(checkoutId, 'boleto');
    const landed = json<{ obj: PaymentReturn }>(
      await call(doctor, 'GET', `/api/v1/notification/pagseguro/transaction/${transactionId}`),
    ).obj;
    expect(landed.problem).toBeNull();
    expect(landed.transaction.paymentStatus).toBe('awaiting_payment');
  });
});

describe('cancel', () => {
  it('is requested, blocks paying ("NOT AUTHORIZED YET"), and authorised deletes the paid services', async () => {
    const { caseId, transactionId } = await placeOrder(t.app, doctor, 'pix');
    const bad = await call(doctor, 'POST', `${transactionId}/cancel`, {
      reasonId: 4,
      description: 'x',
    });
    expect(bad.statusCode).toBe(400);
    const noText = await call(doctor, 'POST', `${transactionId}/cancel`, {
      reasonId: 1,
      description: ' ',
    });
    expect(noText.statusCode).toBe(400);
    const requested = await call(doctor, 'POST', `${transactionId}/cancel`, {
      reasonId: 1,
      description: 'Patient gave up',
    });
    expect(requested.statusCode, requested.body).toBe(200);
    expect(viewOf(requested).cancel?.authAt).toBeNull();
    const blocked = await call(doctor, 'GET', `${transactionId}/paymentLink`);
    expect(blocked.statusCode).toBe(409);
    expect(codeOf(blocked)).toBe('NOT_AUTHORIZED_YET');
    expect(json<{ error: string }>(blocked).error).toBe('AINDA NÃO AUTORIZADO');
    expect(await openReviewReasons(caseId)).toContain(REVIEW_REASONS.cancelRequestReview);
    expect(
      (await call(doctor, 'POST', `${transactionId}/authCancel`, { authorize: true })).statusCode,
    ).toBe(403);

    const services = await db().select().from(caseServices).where(eq(caseServices.caseId, caseId));
    expect(services.length).toBeGreaterThan(0);
    const authorised = await call(supervisor, 'POST', `${transactionId}/authCancel`, {
      authorize: true,
    });
    expect(viewOf(authorised).paymentStatus).toBe('cancelled');
    expect(viewOf(authorised).actions).toEqual([]);
    expect(await db().select().from(caseServices).where(eq(caseServices.caseId, caseId))).toEqual(
      [],
    );
    expect(await openReviewReasons(caseId)).not.toContain(REVIEW_REASONS.cancelRequestReview);
  });

  it('denied, the transaction goes on and may be cancelled again later', async () => {
    const { transactionId } = await placeOrder(t.app, doctor, 'pix');
    await call(doctor, 'POST', `${transactionId}/cancel`, { reasonId: 6, description: 'Other' });
    const denied = await call(supervisor, 'POST', `${transactionId}/authCancel`, {
      authorize: false,
    });
    expect(viewOf(denied).cancel).toBeNull();
    expect(viewOf(denied).paymentStatus).toBe('awaiting_payment');
    expect(viewOf(await call(doctor, 'GET', `${transactionId}/refresh`)).actions).toContain(
      'cancel',
    );
  });
});

describe('a new transaction for unpaid services (an upgrade)', () => {
  it('pays services added after the checkout; nothing to pay answers 409', async () => {
    const { caseId, transactionId } = await placeOrder(t.app, doctor, 'physical');
    await call(admin, 'POST', `${transactionId}/checkPhysicalPayment`, { confirm: true });
    const nothing = await call(doctor, 'POST', `${caseId}/new`, { paymentMethod: 'pix' });
    expect(nothing.statusCode).toBe(409);
    expect(codeOf(nothing)).toBe('NOTHING_TO_PAY');
    // An added service: the case's own route (a supervisor may add services at any time).
    const [product] = await db().select().from(caseServices).where(eq(caseServices.caseId, caseId));
    await db().insert(caseServices).values({
      caseId,
      productId: product!.productId,
      productCategoryId: product!.productCategoryId,
      quantity: 1,
      dataVersion: 3,
      data: product!.data,
    });
    const list = json<{ obj: CaseTransactions }>(
      await call(doctor, 'GET', `/api/v1/case/${caseId}/transactions`),
    ).obj;
    expect(list.unpaidServiceIds).toHaveLength(1);
    expect(list.paymentMethods).toContain('pix');
    const created = await call(doctor, 'POST', `${caseId}/new`, { paymentMethod: 'pix' });
    expect(created.statusCode, created.body).toBe(200);
    expect(viewOf(created).serviceIds).toEqual(list.unpaidServiceIds);
    expect(viewOf(created).priceTotal).toBeGreaterThan(0);
    const [kase] = await db().select().from(cases).where(eq(cases.id, caseId));
    expect(kase!.caseStatus).toBe('execute');
  });
});

// ───────────────────────── helpers ─────────────────────────

async function dbStatus(transactionId: number) {
  const [row] = await db().select().from(transactions).where(eq(transactions.id, transactionId));
  return row!.paymentStatus;
}

async function approvedOrder(transactionId: number): Promise<string> {
  const link = json<{ obj: PaymentLink }>(
    await call(doctor, 'GET', `${transactionId}/paymentLink`),
  ).obj;
  const orderId = new URL(link.paymentLink!).searchParams.get('token')!;
  paypal.approve(orderId);
  return orderId;
}

/** A PayPal capture event for the order as PayPal would deliver it, signed by the sandbox. */
async function paypalCaptureEvent(
  orderId: string,
  transactionId: number,
  options: { eventType?: string; status?: string; minutesAgo?: number; amountDelta?: number } = {},
) {
  const [row] = await db().select().from(transactions).where(eq(transactions.id, transactionId));
  const at = new Date(Date.now() - (options.minutesAgo ?? 0) * 60_000).toISOString();
  const amount = row!.priceTotal + (options.amountDelta ?? 0);
  return paypal.signWebhook({
    id: `WH-${Math.random().toString(36).slice(2)}`,
    event_type: options.eventType ?? 'PAYMENT.CAPTURE.COMPLETED',
    create_time: at,
    resource_type: 'capture',
    resource: {
      id: `CAP-${orderId}`,
      status: options.status ?? 'COMPLETED',
      amount: { currency_code: row!.currency, value: (amount / 100).toFixed(2) },
      custom_id: row!.reference,
      create_time: at,
      update_time: at,
      supplementary_data: { related_ids: { order_id: orderId } },
    },
  });
}

function deliver(delivery: { headers: Record<string, string>; body: string }) {
  return t.app.inject({
    method: 'POST',
    url: '/api/v1/notification/paypal',
    headers: delivery.headers,
    payload: delivery.body,
  });
}

/** A PagBank notification of the order, as PagBank posts it (signed with the token by default). */
async function pagbankNotice(orderId: string, options: { sign?: boolean; token?: string } = {}) {
  const body = JSON.stringify(pagbank.orders.get(orderId));
  const { createHash } = await import('node:crypto');
  const headers: Record<string, string> = { 'content-type': 'application/json' };
  if (options.sign ?? true) {
    headers['x-authenticity-token'] = createHash('sha256')
      .update(`${options.token ?? 'test-pagbank-token'}-${body}`)
      .digest('hex');
  }
  return t.app.inject({
    method: 'POST',
    url: '/api/v1/notification/pagseguro',
    headers,
    payload: body,
  });
}
