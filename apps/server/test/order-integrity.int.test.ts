import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  REVIEW_REASONS,
  type CaseDetail,
  type CaseEvent,
  type CaseTransactions,
  type CheckoutResult,
  type DeferredCasePayment,
  type QuoteResponse,
} from '@dentflow/domain';
import { caseReviews, caseServices, products, transactions } from '../src/db/schema';
import {
  VALIDATE_BILLED_LATER,
  caseApi,
  codeOf,
  completeServiceData,
  createUser,
  insertPublicAttachment,
  insertRequiredFiles,
  objOf,
  productIdByCode,
} from './support/cases-fixtures';
import {
  grantCapabilities,
  pdfBytes,
  receiptCall,
  receiptForm,
  txCall,
  viewOf,
} from './support/payments-fixtures';
import { PATIENT, cartItem, order, shopCall, shopCounts } from './support/shop-fixtures';
import { json, login, startTestApp, type Session, type TestApp } from './support/test-app';

/**
 * Order integrity: what is made is paid for (or deferred by a supervisor on purpose), an order
 * for a case never copies its services, and required files are required.
 */

let t: TestApp;
let doctor: Session;
let supervisor: Session;
let planner: Session;
let api: ReturnType<typeof caseApi>;
let shop: ReturnType<typeof shopCall>;
let tx: ReturnType<typeof txCall>;
const db = () => t.app.database.db;

beforeAll(async () => {
  t = await startTestApp();
  api = caseApi(t.app);
  shop = shopCall(t.app);
  tx = txCall(t.app);
  // A Brazilian client (BRL, so Pix is offered) with the card machine and insurance.
  doctor = await createUser(t.app, ['doctor'], { language: 'ptBR' });
  await grantCapabilities(db(), doctor.profile.id);
  [supervisor, planner] = await Promise.all([login(t.app, 'supervisor'), login(t.app, 'planner')]);
}, 60_000);

afterAll(async () => {
  await t?.close();
});

const caseOf = async (caseId: number, session = doctor) =>
  objOf<CaseDetail>(await api(session, 'GET', `${caseId}/get`));
const move = (session: Session, caseId: number, body: object) =>
  api(session, 'POST', `${caseId}/move`, body);
const historyOf = async (caseId: number) =>
  objOf<CaseEvent[]>(await api(doctor, 'GET', `${caseId}/history`));
const servicesOf = (caseId: number) =>
  db().select().from(caseServices).where(eq(caseServices.caseId, caseId));

/** A checkout of one product for a new case (or `caseId`), BRL. */
async function checkout(
  codes: string[],
  paymentMethod: string,
  caseId: number | null = null,
): Promise<CheckoutResult> {
  const items = await Promise.all(
    codes.map((code, index) =>
      cartItem(db(), code, { planningExtraData: index === 0 && !caseId ? PATIENT : null }),
    ),
  );
  const response = await shop(
    doctor,
    'POST',
    '/api/v1/shop/checkout',
    order({ caseId, items, paymentMethod, currency: 'BRL' }),
  );
  expect(response.statusCode, response.body).toBe(200);
  return json<{ obj: CheckoutResult }>(response).obj;
}

/** Fills every service's data and every required slot, so only payment can hold the case. */
async function completeCase(caseId: number) {
  for (const service of await servicesOf(caseId)) {
    const saved = await api(doctor, 'POST', `${caseId}/services/${service.id}/data`, {
      dataVersion: 3,
      data: completeServiceData(),
    });
    expect(saved.statusCode, saved.body).toBe(200);
  }
  await insertRequiredFiles(db(), caseId, doctor.profile.id);
  // Any change of the case re-checks it (and moves a paid one on by itself).
  const { modifiedAt } = await caseOf(caseId);
  await api(doctor, 'POST', `${caseId}/set`, { modifiedAt, observation: 'complete' });
}

/** Pays a Pix transaction: the client's receipt, the supervisor's authorisation. */
async function payPix(transactionId: number) {
  const form = receiptForm('Pix paid', { name: 'receipt.pdf', bytes: pdfBytes() });
  const submitted = await receiptCall(t.app)(doctor, transactionId, form);
  expect(submitted.statusCode, submitted.body).toBe(200);
  const authorised = await tx(supervisor, 'POST', `${transactionId}/authReceipt`, {
    approve: true,
  });
  expect(viewOf(authorised).paymentStatus).toBe('paid');
}

describe('nothing unpaid reaches production', () => {
  it('a cheap checkout, then services/add: refused, the case has an order', async () => {
    const { caseId } = await checkout(['PLAN-REPORT'], 'pix');
    const before = await servicesOf(caseId);
    const added = await api(doctor, 'POST', `${caseId}/services/add`, {
      productId: await productIdByCode(db(), 'COMBO-GUIDE'),
    });
    expect(added.statusCode).toBe(409);
    expect(codeOf(added)).toBe('CASE_HAS_TRANSACTION');
    expect(await servicesOf(caseId)).toEqual(before);
    expect((await caseOf(caseId)).can).not.toContain('addService');
    expect((await caseOf(caseId)).can).toContain('order');
  });

  it('paid, back to new, add, submit: refused at add; the paid case stays paid', async () => {
    const { caseId } = await checkout(['PLAN-GUIDE'], 'dentalPrev');
    await completeCase(caseId);
    expect((await caseOf(caseId)).caseStatus).toBe('execute');
    expect((await move(doctor, caseId, { action: 'backToNew' })).statusCode).toBe(200);
    const added = await api(doctor, 'POST', `${caseId}/services/add`, {
      productId: await productIdByCode(db(), 'MFG-GUIDE'),
    });
    expect(codeOf(added)).toBe('CASE_HAS_TRANSACTION');
    expect(await servicesOf(caseId)).toHaveLength(1);
  });

  it('a case with services and no transaction: the supervisor cannot validate it plainly', async () => {
    const created = objOf(
      await api(doctor, 'POST', 'new', { patient: { fname: 'Sem', lname: 'Pedido' } }),
    );
    await api(doctor, 'POST', `${created.id}/services/add`, {
      productId: await productIdByCode(db(), 'PLAN-GUIDE'),
    });
    await completeCase(created.id);
    expect((await move(doctor, created.id, { action: 'submit' })).statusCode).toBe(200);
    const detail = await caseOf(created.id, supervisor);
    expect(detail.checks).toMatchObject({ transactions: false, attachments: true });
    expect(detail.checks.unpaidServiceIds).toEqual(detail.services.map((s) => s.id));
    expect(detail.services[0]!.payment).toBe('unpaid');
    expect(detail.actions).not.toContain('validate');
    expect(detail.can).toContain('validateUnpaid');
    const refused = await move(supervisor, created.id, { action: 'validate' });
    expect(refused.statusCode).toBe(409);
    expect(json<{ fields: object }>(refused).fields).toEqual({
      'checks.transactions': 'Invalid value',
    });
    expect((await caseOf(created.id)).caseStatus).toBe('checkingout');
  });

  it('the override: a reason is required, it is recorded, the services stay unpaid', async () => {
    const created = objOf(
      await api(doctor, 'POST', 'new', { patient: { fname: 'Conta', lname: 'Mensal' } }),
    );
    await api(doctor, 'POST', `${created.id}/services/add`, {
      productId: await productIdByCode(db(), 'PLAN-GUIDE'),
    });
    await completeCase(created.id);
    await move(doctor, created.id, { action: 'submit' });
    const blank = await move(supervisor, created.id, {
      action: 'validate',
      paymentOverride: { reason: '  ' },
    });
    expect(blank.statusCode).toBe(400);
    expect(Object.keys(json<{ fields: object }>(blank).fields)).toEqual(['paymentOverride.reason']);
    // A planner may not validate at all, override or not.
    const byPlanner = await move(planner, created.id, VALIDATE_BILLED_LATER);
    expect([403, 404]).toContain(byPlanner.statusCode);

    const validated = objOf(await move(supervisor, created.id, VALIDATE_BILLED_LATER));
    expect(validated.caseStatus).toBe('execute');
    expect(validated.services[0]).toMatchObject({ paid: false, payment: 'deferred' });
    const event = (await historyOf(created.id)).find((e) => e.action === 'validate')!;
    expect(event.detail.paymentOverride).toEqual({
      reason: 'Billed monthly',
      serviceIds: [validated.services[0]!.id],
      unpaidAmount: expect.any(Number),
      currency: 'BRL',
    });
    expect((event.detail.paymentOverride as { unpaidAmount: number }).unpaidAmount).toBeGreaterThan(
      0,
    );

    // The supervisors' payment queue lists it until a transaction pays it.
    const queue = async () =>
      json<{ obj: DeferredCasePayment[] }>(
        await tx(supervisor, 'GET', '/api/v1/transactions/deferred'),
      ).obj.find((entry) => entry.caseId === created.id);
    expect(await queue()).toMatchObject({
      reason: 'Billed monthly',
      caseCurrency: 'BRL',
      services: [{ id: validated.services[0]!.id }],
    });
    expect((await tx(doctor, 'GET', '/api/v1/transactions/deferred')).statusCode).toBe(403);
    const paid = await tx(doctor, 'POST', `${created.id}/new`, { paymentMethod: 'dentalPrev' });
    expect(paid.statusCode, paid.body).toBe(200);
    expect(await queue()).toBeUndefined();
    expect((await caseOf(created.id)).services[0]).toMatchObject({ paid: true, payment: 'paid' });
  });
});

describe('case upgrade', () => {
  it('an order in approve: its own transaction, the review, not approvable until paid', async () => {
    const { caseId } = await checkout(['PLAN-GUIDE'], 'dentalPrev');
    await completeCase(caseId);
    await api(supervisor, 'POST', `${caseId}/planner`, { plannerId: planner.profile.id });
    expect((await move(planner, caseId, { action: 'requestApproval' })).statusCode).toBe(200);
    const [original] = await servicesOf(caseId);

    const upgrade = await checkout(['PLAN-SMILE'], 'pix', caseId);
    expect(upgrade.caseId).toBe(caseId);
    const upgraded = await caseOf(caseId);
    expect(upgraded.caseStatus).toBe('approve');
    const added = upgraded.services.find((s) => s.id !== original!.id)!;
    expect(added.payment).toBe('awaitingPayment');
    expect(upgraded.checks.unpaidServiceIds).toEqual([added.id]);
    const [own] = await db()
      .select()
      .from(transactions)
      .where(eq(transactions.id, upgrade.transactionId));
    expect(own!.priceTotal).toBe(upgrade.breakdown.total);
    const reviews = await db().select().from(caseReviews).where(eq(caseReviews.caseId, caseId));
    expect(reviews.map((r) => r.reasonId)).toContain(REVIEW_REASONS.caseUpgraded);
    const checkoutEvent = (await historyOf(caseId)).at(-1)!;
    expect(checkoutEvent).toMatchObject({
      action: 'checkout',
      fromStatus: 'approve',
      toStatus: 'approve',
      detail: { upgrade: true, transactionId: upgrade.transactionId },
    });

    // The original is approved; the unpaid upgrade keeps the case in 'approve' and cannot be
    // requested for approval until it is paid.
    const approved = objOf(
      await move(doctor, caseId, {
        action: 'approve',
        password: 'Dentflow123',
        text: 'Ok',
        serviceIds: [original!.id],
      }),
    );
    expect(approved.caseStatus).toBe('approve');
    await api(supervisor, 'POST', `${caseId}/planner`, { plannerId: planner.profile.id });
    const early = await move(planner, caseId, { action: 'requestApproval' });
    expect(early.statusCode).toBe(409);
    const pending = await move(doctor, caseId, {
      action: 'approve',
      password: 'Dentflow123',
      text: 'Ok',
      serviceIds: [added.id],
    });
    expect(pending.statusCode).toBe(400);

    await payPix(upgrade.transactionId);
    const requested = objOf(await move(planner, caseId, { action: 'requestApproval' }));
    expect(requested.caseStatus).toBe('approve');
    expect(requested.services.find((s) => s.id === added.id)!.approveRequestAt).not.toBeNull();
    const done = objOf(
      await move(doctor, caseId, {
        action: 'approve',
        password: 'Dentflow123',
        text: 'Ok',
        serviceIds: [added.id],
      }),
    );
    expect(done.caseStatus).toBe('finishing');
  });

  it('nothing can be ordered for a case past approval', async () => {
    const { caseId } = await checkout(['PLAN-GUIDE'], 'dentalPrev');
    await completeCase(caseId);
    await api(supervisor, 'POST', `${caseId}/planner`, { plannerId: planner.profile.id });
    await move(planner, caseId, { action: 'requestApproval' });
    const [service] = await servicesOf(caseId);
    await move(doctor, caseId, {
      action: 'approve',
      password: 'Dentflow123',
      text: 'Ok',
      serviceIds: [service!.id],
    });
    expect((await caseOf(caseId)).caseStatus).toBe('finishing');
    const before = await shopCounts(db());
    const items = [await cartItem(db(), 'PLAN-SMILE')];
    const refused = await shop(
      doctor,
      'POST',
      '/api/v1/shop/checkout',
      order({ caseId, items, paymentMethod: 'pix', currency: 'BRL' }),
    );
    expect(refused.statusCode).toBe(409);
    expect(codeOf(refused)).toBe('CASE_NOT_ORDERABLE');
    expect(await shopCounts(db())).toEqual(before);
  });
});

describe('no double charge', () => {
  it('services chosen at intake, then the shop for the same case: one charge, no copies', async () => {
    const created = objOf(
      await api(doctor, 'POST', 'new', { patient: { fname: 'Uma', lname: 'Cobranca' } }),
    );
    const guide = await productIdByCode(db(), 'PLAN-GUIDE');
    const smile = await productIdByCode(db(), 'PLAN-SMILE');
    await api(doctor, 'POST', `${created.id}/services/add`, { productId: guide });
    await api(doctor, 'POST', `${created.id}/services/add`, { productId: smile });
    const intake = await servicesOf(created.id);

    // The shop's cart holds the guide again: the quote shows both services once.
    const items = [await cartItem(db(), 'PLAN-GUIDE')];
    const quote = json<{ obj: QuoteResponse }>(
      await shop(
        doctor,
        'POST',
        '/api/v1/shop/quote',
        order({ caseId: created.id, items, paymentMethod: 'pix', currency: 'BRL' }),
      ),
    ).obj;
    expect(quote.breakdown.lines.map((line) => line.cartProductId).sort()).toEqual(
      [guide, smile].sort(),
    );

    const result = await checkout(['PLAN-GUIDE'], 'pix', created.id);
    expect(result.breakdown.total).toBe(quote.breakdown.total);
    const after = await servicesOf(created.id);
    expect(after.map((s) => s.id)).toEqual(intake.map((s) => s.id));
    expect(after.every((s) => s.transactionId === result.transactionId)).toBe(true);
    const charges = await db()
      .select()
      .from(transactions)
      .where(eq(transactions.caseId, created.id));
    expect(charges).toHaveLength(1);

    // A second checkout has nothing left to take but what it adds itself.
    const transactionsTab = json<{ obj: CaseTransactions }>(
      await tx(doctor, 'GET', `/api/v1/case/${created.id}/transactions`),
    ).obj;
    expect(transactionsTab.unpaidServiceIds).toEqual([]);
    expect(transactionsTab.remaining).toBeNull();
  });

  it('pay the remaining services shows what it will charge before creating anything', async () => {
    const { caseId, transactionId } = await checkout(['PLAN-GUIDE'], 'pix');
    const cancelled = await tx(doctor, 'POST', `${transactionId}/cancel`, {
      reasonId: 6,
      description: 'Wrong method',
    });
    expect(cancelled.statusCode, cancelled.body).toBe(200);
    const authorised = await tx(supervisor, 'POST', `${transactionId}/authCancel`, {
      authorize: true,
    });
    expect(viewOf(authorised).paymentStatus).toBe('cancelled');
    // An authorised cancel deletes what it paid; the client adds the service again.
    const added = await api(doctor, 'POST', `${caseId}/services/add`, {
      productId: await productIdByCode(db(), 'PLAN-GUIDE'),
    });
    expect(added.statusCode, added.body).toBe(200);
    const before = await db().select().from(transactions).where(eq(transactions.caseId, caseId));
    const tab = json<{ obj: CaseTransactions }>(
      await tx(doctor, 'GET', `/api/v1/case/${caseId}/transactions`),
    ).obj;
    expect(tab.unpaidServiceIds).toHaveLength(1);
    expect(tab.remaining?.total).toBeGreaterThan(0);
    expect(tab.remaining?.currency).toBe('BRL');
    expect(await db().select().from(transactions).where(eq(transactions.caseId, caseId))).toEqual(
      before,
    );
    const created = viewOf(await tx(doctor, 'POST', `${caseId}/new`, { paymentMethod: 'pix' }));
    expect(created.priceTotal).toBe(tab.remaining!.total);
  });

  it('a service in a live transaction cannot be removed; cancelling is the way', async () => {
    const { caseId } = await checkout(['PLAN-GUIDE', 'PLAN-SMILE'], 'pix');
    const [first] = await servicesOf(caseId);
    const removed = await api(doctor, 'DELETE', `${caseId}/services/${first!.id}`);
    expect(removed.statusCode).toBe(409);
    expect(codeOf(removed)).toBe('SERVICE_IN_TRANSACTION');
    expect(await servicesOf(caseId)).toHaveLength(2);
  });
});

describe('required files are required', () => {
  it('validation is refused while the CT exam slot is empty, and the case names it', async () => {
    const { caseId } = await checkout(['PLAN-GUIDE'], 'dentalPrev');
    for (const service of await servicesOf(caseId)) {
      await api(doctor, 'POST', `${caseId}/services/${service.id}/data`, {
        dataVersion: 3,
        data: completeServiceData(),
      });
    }
    await insertPublicAttachment(db(), caseId, doctor.profile.id, {
      bucketName: 'exams',
      attachmentType: 'upperJawStl',
    });
    const { modifiedAt } = await caseOf(caseId);
    await api(doctor, 'POST', `${caseId}/set`, { modifiedAt, observation: 'scan sent' });
    // Paid (insurance is pre-paid at once), data complete, one scan: it still waits.
    const waiting = await caseOf(caseId);
    expect(waiting.caseStatus).toBe('checkingout');
    expect(waiting.checks).toMatchObject({ attachments: false, transactions: true });
    expect(waiting.checks.missingSlots).toEqual([{ bucketName: 'exams', attachmentType: 'dicom' }]);
    const refused = await move(supervisor, caseId, VALIDATE_BILLED_LATER);
    expect(refused.statusCode).toBe(409);
    expect(json<{ fields: object }>(refused).fields).toEqual({
      'checks.attachments': 'Invalid value',
    });

    await insertPublicAttachment(db(), caseId, doctor.profile.id, {
      bucketName: 'exams',
      attachmentType: 'dicom',
    });
    const again = await caseOf(caseId);
    await api(doctor, 'POST', `${caseId}/set`, {
      modifiedAt: again.modifiedAt,
      observation: 'CT sent',
    });
    expect((await caseOf(caseId)).caseStatus).toBe('execute');
  });
});

describe('drafts are not sold', () => {
  it('services/add, the quote and the checkout refuse a product not published in the language', async () => {
    const code = 'PLAN-TMJ';
    const [draft] = await db().select().from(products).where(eq(products.code, code));
    await db()
      .update(products)
      .set({ texts: { ...draft!.texts, ptBR: { ...draft!.texts.ptBR, publish: false } } })
      .where(eq(products.id, draft!.id));
    try {
      const created = objOf(
        await api(doctor, 'POST', 'new', { patient: { fname: 'Ra', lname: 'Scunho' } }),
      );
      const added = await api(doctor, 'POST', `${created.id}/services/add`, {
        productId: draft!.id,
      });
      expect(added.statusCode).toBe(400);
      expect(codeOf(added)).toBe('PRODUCT_UNAVAILABLE');
      expect(await servicesOf(created.id)).toHaveLength(0);

      const items = [await cartItem(db(), code, { planningExtraData: PATIENT })];
      const before = await shopCounts(db());
      for (const url of ['/api/v1/shop/quote', '/api/v1/shop/checkout']) {
        const response = await shop(
          doctor,
          'POST',
          url,
          order({ items, paymentMethod: 'pix', currency: 'BRL' }),
        );
        expect(response.statusCode, url).toBe(400);
        expect(codeOf(response)).toBe('PRODUCT_UNAVAILABLE');
      }
      expect(await shopCounts(db())).toEqual(before);
    } finally {
      await db().update(products).set({ texts: draft!.texts }).where(eq(products.id, draft!.id));
    }
  });
});
