import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CaseTransactions, CheckoutResult, PendingTransaction } from '@dentflow/domain';
import { transactions } from '../src/db/schema';
import { createUser, objOf } from './support/cases-fixtures';
import { PATIENT, cartItem, order, shopCall } from './support/shop-fixtures';
import { grantCapabilities, pdfBytes, placeOrder, receiptForm } from './support/payments-fixtures';
import { bearer, login, startTestApp, type Session, type TestApp } from './support/test-app';

/**
 * What staff read of an order: its lines named in the reader's language, the Pix reference of a
 * Pix transaction, and a warning when a second open or paid transaction charges for the same
 * services of the case.
 */

let t: TestApp;
let doctor: Session;
let otherDoctor: Session;
let admin: Session;
let supervisor: Session;
let spanishSupervisor: Session;
const db = () => t.app.database.db;

beforeAll(async () => {
  t = await startTestApp();
  doctor = await createUser(t.app, ['doctor'], { language: 'ptBR' });
  otherDoctor = await createUser(t.app, ['doctor'], { language: 'ptBR' });
  await grantCapabilities(db(), doctor.profile.id);
  [admin, supervisor] = await Promise.all([login(t.app, 'admin'), login(t.app, 'supervisor')]);
  spanishSupervisor = await createUser(t.app, ['supervisor'], { language: 'es' });
}, 60_000);
afterAll(async () => {
  await t?.close();
});

const get = (session: Session, url: string) =>
  t.app.inject({ method: 'GET', url, headers: bearer(session) });

async function submitReceipt(transactionId: number): Promise<void> {
  const form = receiptForm('Pix 10:32', { name: 'comprovante.pdf', bytes: pdfBytes() });
  const response = await t.app.inject({
    method: 'POST',
    url: `/api/v1/case/transaction/${transactionId}/submitReceipt`,
    headers: { ...bearer(doctor), ...form.headers },
    payload: form.payload,
  });
  expect(response.statusCode, response.body).toBe(200);
}

/** A second order for the same case and product, paid with the card machine (pre-paid). */
async function orderAgain(caseId: number): Promise<CheckoutResult> {
  const response = await shopCall(t.app)(
    doctor,
    'POST',
    '/api/v1/shop/checkout',
    order({
      caseId,
      currency: 'BRL',
      paymentMethod: 'physical',
      items: [await cartItem(db(), 'PLAN-GUIDE', { planningExtraData: PATIENT })],
    }),
  );
  expect(response.statusCode, response.body).toBe(200);
  return objOf<CheckoutResult>(response);
}

const queue = async (session: Session) =>
  objOf<PendingTransaction[]>(await get(session, '/api/v1/transactions/pending'));

describe('order lines in the reader language', () => {
  it('names the lines of a Portuguese order in English for the admin and in Portuguese for the payer', async () => {
    const { caseId } = await placeOrder(t.app, doctor, 'pix', { complete: false });
    const url = `/api/v1/case/${caseId}/transactions`;
    const names = async (session: Session) =>
      objOf<CaseTransactions>(await get(session, url)).items.flatMap((tx) =>
        tx.breakdown.lines.map((line) => line.name),
      );
    expect(await names(admin)).toEqual(['Surgical guide planning']);
    expect(await names(doctor)).toEqual(['Planejamento de guia cirúrgico']);
    // The stored order keeps the payer's words: only the answer follows the reader.
    const [stored] = await db().select().from(transactions).where(eq(transactions.caseId, caseId));
    expect(stored!.descriptions.lines[0]!.name).toBe('Planejamento de guia cirúrgico');
  });

  it('does not show another doctor the case transactions', async () => {
    const { caseId } = await placeOrder(t.app, doctor, 'pix', { complete: false });
    expect((await get(otherDoctor, `/api/v1/case/${caseId}/transactions`)).statusCode).toBe(404);
  });
});

describe('the supervisors queue', () => {
  it('shows the Pix reference and warns about a second transaction for the same services', async () => {
    const first = await placeOrder(t.app, doctor, 'pix', { complete: false });
    await submitReceipt(first.transactionId);
    const second = await orderAgain(first.caseId);
    // Another case with one order: no warning.
    const alone = await placeOrder(t.app, doctor, 'pix', { complete: false });
    await submitReceipt(alone.transactionId);

    const items = await queue(supervisor);
    const row = (id: number) => items.find((item) => item.transaction.id === id)!;
    const [stored] = await db()
      .select()
      .from(transactions)
      .where(eq(transactions.id, first.transactionId));
    expect(row(first.transactionId).transaction.pixTxid).toBe(
      stored!.reference.replace(/[^A-Za-z0-9]/g, '').slice(0, 25),
    );
    expect(row(second.transactionId).transaction.pixTxid).toBeNull();
    expect(row(first.transactionId).sameServicesAs).toEqual([second.transactionId]);
    expect(row(second.transactionId).sameServicesAs).toEqual([first.transactionId]);
    expect(row(alone.transactionId).sameServicesAs).toEqual([]);
    expect(row(first.transactionId).transaction.breakdown.lines[0]!.name).toBe(
      'Surgical guide planning',
    );
    const spanish = await queue(spanishSupervisor);
    expect(
      spanish.find((item) => item.transaction.id === first.transactionId)!.transaction.breakdown
        .lines[0]!.name,
    ).toBe('Planificación de guía quirúrgica');

    // A cancelled transaction covers nothing any more: the warning goes.
    await db()
      .update(transactions)
      .set({ paymentStatus: 'cancelled' })
      .where(eq(transactions.id, second.transactionId));
    expect(
      (await queue(supervisor)).find((item) => item.transaction.id === first.transactionId)!
        .sameServicesAs,
    ).toEqual([]);
  });
});
