import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { publicPaymentReturnSchema, type PaymentLink } from '@dentflow/domain';
import {
  startPagbankSandbox,
  startPaypalSandbox,
  type PagbankSandbox,
  type PaypalSandbox,
} from '@dentflow/payment-sandbox';
import { transactions } from '../src/db/schema';
import { createUser } from './support/cases-fixtures';
import { PATIENT } from './support/shop-fixtures';
import { grantCapabilities, placeOrder, txCall } from './support/payments-fixtures';
import { json, startTestApp, type Session, type TestApp } from './support/test-app';

/**
 * The providers' return pages before login: `GET /api/v1/notification/{provider}/status` finds the
 * transaction by its reference (or PayPal's order token) and answers only the payment's status.
 */

let t: TestApp;
let paypal: PaypalSandbox;
let pagbank: PagbankSandbox;
let doctor: Session;
let call: ReturnType<typeof txCall>;
const db = () => t.app.database.db;

beforeAll(async () => {
  paypal = await startPaypalSandbox({
    clientId: 'test-client',
    clientSecret: 'test-secret',
    webhookId: 'WH-PUBLIC-RETURN',
  });
  pagbank = await startPagbankSandbox({ token: 'test-pagbank-token', deliverNotifications: false });
  t = await startTestApp({
    PAYPAL_CLIENT_ID: 'test-client',
    PAYPAL_CLIENT_SECRET: 'test-secret',
    PAYPAL_API_URL: paypal.url,
    PAYPAL_WEBHOOK_ID: 'WH-PUBLIC-RETURN',
    PAGBANK_TOKEN: 'test-pagbank-token',
    PAGBANK_API_URL: pagbank.url,
  });
  call = txCall(t.app);
  doctor = await createUser(t.app, ['doctor'], { language: 'en' });
  await grantCapabilities(db(), doctor.profile.id);
}, 60_000);

afterAll(async () => {
  await t?.close();
  await paypal?.close();
  await pagbank?.close();
});

/** Anonymous: no authorization header. */
const publicStatus = (provider: 'paypal' | 'pagseguro', query: string) =>
  t.app.inject({ method: 'GET', url: `/api/v1/notification/${provider}/status?${query}` });

const referenceOf = async (transactionId: number) =>
  (await db().select().from(transactions).where(eq(transactions.id, transactionId)))[0]!;

describe('GET /api/v1/notification/{provider}/status without a session', () => {
  it('PayPal: the return link carries the reference; the status completes the capture, nothing else leaks', async () => {
    const { transactionId, breakdown } = await placeOrder(t.app, doctor, 'paypal');
    const link = json<{ obj: PaymentLink }>(
      await call(doctor, 'GET', `${transactionId}/paymentLink`),
    ).obj;
    const orderId = new URL(link.paymentLink!).searchParams.get('token')!;
    const row = await referenceOf(transactionId);
    const before = await publicStatus('paypal', `reference=${row.reference}`);
    expect(before.statusCode, before.body).toBe(200);
    expect(json<{ obj: unknown }>(before).obj).toEqual({
      paymentStatus: 'awaiting_payment',
      problem: null,
    });

    // The payer approves on PayPal's page, which sends them back to the return link: it names
    // the transaction and its reference (what the page reads without a session).
    const approved = await fetch(`${paypal.url}/checkoutnow/approve`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ token: orderId }),
      redirect: 'manual',
    });
    const back = new URL(approved.headers.get('location')!);
    expect(back.pathname).toBe('/notification/paypal');
    expect(back.searchParams.get('transaction')).toBe(String(transactionId));
    expect(back.searchParams.get('reference')).toBe(row.reference);
    const landed = await publicStatus(
      'paypal',
      `reference=${row.reference}&token=${orderId}&PayerID=X`,
    );
    expect(landed.statusCode, landed.body).toBe(200);
    const answer = json<{ obj: Record<string, unknown> }>(landed).obj;
    expect(publicPaymentReturnSchema.strict().parse(answer)).toEqual({
      paymentStatus: 'paid',
      problem: null,
    });
    // Only the status: no amount, case, patient, payer, reference or link anywhere in the body.
    expect(Object.keys(answer).sort()).toEqual(['paymentStatus', 'problem']);
    for (const secret of [
      String(breakdown.total),
      (breakdown.total / 100).toFixed(2),
      row.reference,
      orderId,
      '@', // no email
      PATIENT.patient.fname,
    ]) {
      expect(landed.body).not.toContain(secret);
    }
    expect((await referenceOf(transactionId)).paymentStatus).toBe('paid');

    // PayPal's token alone finds its order (links created before the reference was added).
    const byToken = await publicStatus('paypal', `token=${orderId}`);
    expect(json<{ obj: unknown }>(byToken).obj).toEqual({ paymentStatus: 'paid', problem: null });
  });

  it('unknown, mismatched or other-provider references are a clear 404; bad input a 400', async () => {
    const { transactionId } = await placeOrder(t.app, doctor, 'pagseguro');
    await call(doctor, 'GET', `${transactionId}/paymentLink`);
    const row = await referenceOf(transactionId);
    const ok = await publicStatus('pagseguro', `reference=${row.reference}`);
    expect(ok.statusCode, ok.body).toBe(200);
    expect(json<{ obj: { paymentStatus: string } }>(ok).obj.paymentStatus).toBe('awaiting_payment');

    for (const [provider, query] of [
      ['pagseguro', 'reference=DF-1-000000000000'],
      ['paypal', `reference=${row.reference}`], // a PagBank transaction on PayPal's page
      ['paypal', 'token=NO-SUCH-ORDER'],
      ['pagseguro', `token=${row.gatewayCode}`], // PagBank has no token lookup
      ['pagseguro', ''],
    ] as const) {
      const refused = await publicStatus(provider, query);
      expect(refused.statusCode, `${provider} ${query}`).toBe(404);
      const body = json<{ code: string; error: string }>(refused);
      expect(body.code).toBe('NOT_FOUND');
      expect(body.error).toBeTruthy();
    }
    const tooLong = await publicStatus('pagseguro', `reference=${'x'.repeat(61)}`);
    expect(tooLong.statusCode).toBe(400);
  });
});
