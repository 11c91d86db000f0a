import { count, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { pagbankSignature } from '../src/adapters/payments/pagbank';
import { startPagbankSandbox, type PagbankSandbox } from '@dentflow/payment-sandbox';
import { cases, paymentNotices, transactions } from '../src/db/schema';
import { createUser } from './support/cases-fixtures';
import { placeOrder, transactionSnapshot, txCall } from './support/payments-fixtures';
import { json, startTestApp, type Session, type TestApp } from './support/test-app';

/**
 * PagBank notifications are public: only a valid `x-authenticity-token` (sha256 of
 * `${token}-${rawBody}`) makes one count, and the transaction it changes is the one PagBank itself
 * names for the order, never one picked by a field of the body alone.
 */
const TOKEN = 'test-pagbank-token';

let t: TestApp;
let pagbank: PagbankSandbox;
let doctor: Session;
const db = () => t.app.database.db;

beforeAll(async () => {
  pagbank = await startPagbankSandbox({ token: TOKEN, deliverNotifications: false });
  t = await startTestApp({ PAGBANK_TOKEN: TOKEN, PAGBANK_API_URL: pagbank.url });
  // PagBank takes BRL: a Brazilian doctor.
  doctor = await createUser(t.app, ['doctor'], { language: 'ptBR' });
});

afterAll(async () => {
  await t?.close();
  await pagbank?.close();
});

/** A PagBank order placed and its checkout opened: the transaction, its case and checkout. */
async function pagbankTransaction() {
  const { caseId, transactionId } = await placeOrder(t.app, doctor, 'pagseguro');
  const link = await txCall(t.app)(doctor, 'GET', `${transactionId}/paymentLink`);
  expect(link.statusCode, link.body).toBe(200);
  const [row] = await db().select().from(transactions).where(eq(transactions.id, transactionId));
  return { caseId, transactionId, checkoutId: row!.gatewayCode! };
}

const post = (body: string, headers: Record<string, string>) =>
  t.app.inject({
    method: 'POST',
    url: '/api/v1/notification/pagseguro',
    headers: { 'content-type': 'application/json', ...headers },
    payload: body,
  });
const signed = (body: string, token = TOKEN) => ({
  'x-authenticity-token': pagbankSignature(token, body),
});

/** Everything a notification could change. */
async function state(transactionId: number, caseId: number) {
  const [notices] = await db()
    .select({ n: count() })
    .from(paymentNotices)
    .where(eq(paymentNotices.transactionId, transactionId));
  const [kase] = await db().select().from(cases).where(eq(cases.id, caseId));
  return {
    notices: notices!.n,
    case: { status: kase!.caseStatus, modifiedAt: kase!.modifiedAt },
    ...(await transactionSnapshot(db(), transactionId)),
  };
}

describe('POST /api/v1/notification/pagseguro', () => {
  it('without a valid x-authenticity-token: 401 with the envelope, and nothing changes', async () => {
    const { caseId, transactionId, checkoutId } = await pagbankTransaction();
    const orderId = await pagbank.pay(checkoutId, 'card');
    const body = JSON.stringify(pagbank.orders.get(orderId));
    const before = await state(transactionId, caseId);
    for (const headers of [
      {},
      { 'x-authenticity-token': '' },
      { 'x-authenticity-token': 'abc123' },
      signed(body, 'not-the-token'),
      signed(`${body} `),
      signed(JSON.stringify({ id: orderId })),
    ]) {
      const refused = await post(body, headers);
      expect(refused.statusCode, JSON.stringify(headers)).toBe(401);
      expect(json(refused)).toEqual({ error: expect.any(String), code: 'NOT_AUTHORIZED' });
    }
    expect(await state(transactionId, caseId)).toEqual(before);

    // The same notice, signed: applied.
    const accepted = await post(body, signed(body));
    expect(accepted.statusCode, accepted.body).toBe(200);
    expect(json(accepted)).toEqual({ obj: { outcome: 'applied' } });
    expect((await state(transactionId, caseId)).transaction!.paymentStatus).toBe('paid');
  });

  it('never lets a field of the body choose the transaction', async () => {
    const paid = await pagbankTransaction();
    const victim = await pagbankTransaction();
    const orderId = await pagbank.pay(paid.checkoutId, 'card');
    // An order PagBank answers without a reference: only its checkout ties it to a transaction.
    delete pagbank.orders.get(orderId)!.reference_id;
    const naming = (checkoutId: string) =>
      JSON.stringify({ ...pagbank.orders.get(orderId), checkout_id: checkoutId });
    const victimBefore = await state(victim.transactionId, victim.caseId);

    // Unsigned, pointing the paid order at another checkout: refused.
    const unsigned = await post(naming(victim.checkoutId), {});
    expect(unsigned.statusCode).toBe(401);
    // Signed, the same: PagBank says the order is not that checkout's, so no transaction moves.
    const mismatched = naming(victim.checkoutId);
    const answer = await post(mismatched, signed(mismatched));
    expect(json(answer)).toEqual({ obj: { outcome: 'unknown_transaction' } });
    expect(await state(victim.transactionId, victim.caseId)).toEqual(victimBefore);
    expect((await state(paid.transactionId, paid.caseId)).transaction!.paymentStatus).toBe(
      'awaiting_payment',
    );

    // Naming its own checkout, which PagBank confirms: the paid transaction moves, only it.
    const own = naming(paid.checkoutId);
    expect(json(await post(own, signed(own)))).toEqual({ obj: { outcome: 'applied' } });
    expect((await state(paid.transactionId, paid.caseId)).transaction!.paymentStatus).toBe('paid');
    expect(await state(victim.transactionId, victim.caseId)).toEqual(victimBefore);
  });
});
