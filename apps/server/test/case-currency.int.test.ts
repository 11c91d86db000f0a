import { eq, inArray } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  ROLES,
  type CaseDetail,
  type CaseEvent,
  type CheckoutResult,
  type PaymentsSettingsView,
  type QuoteResponse,
  type UserProfile,
} from '@dentflow/domain';
import { cases, coupons, transactions, users } from '../src/db/schema';
import { caseApi, codeOf, createUser, objOf } from './support/cases-fixtures';
import { grantCapabilities } from './support/payments-fixtures';
import { PATIENT, cartItem, order, shopCall } from './support/shop-fixtures';
import { bearer, json, login, startTestApp, type Session, type TestApp } from './support/test-app';

/**
 * The case currency (chosen when a case opens, changeable until a live transaction), the
 * quote's account of a missing payment method, the payments settings' warning and the coupon a
 * user registered with. `t` has PayPal and PagBank configured (every currency has a method);
 * `pixOnly` has neither, so only Pix — reais — is paid online there.
 */

let t: TestApp;
let pixOnly: TestApp;

beforeAll(async () => {
  [t, pixOnly] = await Promise.all([
    startTestApp(),
    startTestApp({ PAYPAL_CLIENT_ID: '', PAYPAL_CLIENT_SECRET: '', PAGBANK_TOKEN: '' }),
  ]);
});
afterAll(async () => {
  await Promise.all([t?.close(), pixOnly?.close()]);
});

const setCurrency = (app: TestApp, session: Session, detail: CaseDetail, currency: string) =>
  caseApi(app.app)(session, 'POST', `${detail.id}/set`, {
    caseCurrency: currency,
    modifiedAt: detail.modifiedAt,
  });

async function openCase(app: TestApp, session: Session, body: object = {}): Promise<CaseDetail> {
  const response = await caseApi(app.app)(session, 'POST', 'new', {
    patient: { fname: 'Ana', lname: 'Lima' },
    ...body,
  });
  expect(response.statusCode, response.body).toBe(200);
  return objOf(response);
}

const readCase = async (app: TestApp, session: Session, id: number) =>
  objOf(await caseApi(app.app)(session, 'GET', `${id}/get`));

const historyOf = async (app: TestApp, session: Session, id: number) =>
  objOf<CaseEvent[]>(await caseApi(app.app)(session, 'GET', `${id}/history`));

describe('the case currency', () => {
  it('is reais for the demo doctor and clinic, who are Brazilian; the other demo users see dollars', async () => {
    const db = t.app.database.db;
    const demo = await db
      .select({ nickName: users.nickName, dataInfo: users.dataInfo })
      .from(users)
      .where(inArray(users.nickName, [...ROLES]));
    expect(demo).toHaveLength(ROLES.length);
    for (const { nickName, dataInfo } of demo) {
      const brazilian = nickName === 'doctor' || nickName === 'clinic';
      expect([nickName, dataInfo.language, dataInfo.currency]).toEqual(
        brazilian ? [nickName, 'ptBR', 'BRL'] : [nickName, 'en', 'USD'],
      );
    }
    const seededCurrencies = await db.selectDistinct({ currency: cases.caseCurrency }).from(cases);
    expect(seededCurrencies).toEqual([{ currency: 'BRL' }]);

    // The demo doctor's new case is in reais, where Pix is offered.
    const doctor = await login(t.app, 'doctor');
    const opened = await openCase(t, doctor);
    expect(opened.caseCurrency).toBe('BRL');
    const quoted = await shopCall(t.app)(doctor, 'POST', '/api/v1/shop/quote', {
      ...order({ caseId: opened.id, items: [await cartItem(db, 'PLAN-SMILE')], currency: 'BRL' }),
      paymentMethod: null,
    });
    expect(quoted.statusCode, quoted.body).toBe(200);
    expect(json<{ obj: QuoteResponse }>(quoted).obj.paymentMethods).toContain('pix');
  });

  it('opens in the currency asked, else the profile one, and offers the change', async () => {
    const usd = await createUser(t.app, ['doctor'], { language: 'en' });
    const brl = await createUser(t.app, ['doctor'], { language: 'ptBR' });
    expect((await openCase(t, usd)).caseCurrency).toBe('USD');
    expect((await openCase(t, brl)).caseCurrency).toBe('BRL');
    const chosen = await openCase(t, usd, { caseCurrency: 'BRL' });
    expect(chosen.caseCurrency).toBe('BRL');
    expect(chosen.can).toContain('changeCurrency');
    const [row] = await t.app.database.db.select().from(cases).where(eq(cases.id, chosen.id));
    expect(row?.caseCurrency).toBe('BRL');

    const bad = await caseApi(t.app)(usd, 'POST', 'new', {
      patient: { fname: 'Ana', lname: 'Lima' },
      caseCurrency: 'EUR',
    });
    expect(bad.statusCode).toBe(400);
    expect(json<{ fields: Record<string, string> }>(bad).fields).toHaveProperty('caseCurrency');
  });

  it('changes while no transaction is live, with a history row; 409 once a checkout made one', async () => {
    const doctor = await createUser(t.app, ['doctor'], { language: 'en' });
    const opened = await openCase(t, doctor);
    const changed = await setCurrency(t, doctor, opened, 'BRL');
    expect(changed.statusCode, changed.body).toBe(200);
    expect(objOf(changed).caseCurrency).toBe('BRL');
    const history = await historyOf(t, doctor, opened.id);
    expect(history.at(-1)).toMatchObject({
      action: 'currencyChanged',
      detail: { from: 'USD', to: 'BRL' },
    });
    // Only the currency changed: no empty 'updated' row beside it.
    expect(history.filter((event) => event.action === 'updated')).toEqual([]);

    const checkout = await shopCall(t.app)(
      doctor,
      'POST',
      '/api/v1/shop/checkout',
      order({
        caseId: opened.id,
        items: [await cartItem(t.app.database.db, 'PLAN-SMILE')],
        currency: 'BRL',
        paymentMethod: 'pix',
      }),
    );
    expect(checkout.statusCode, checkout.body).toBe(200);
    const transactionId = json<{ obj: CheckoutResult }>(checkout).obj.transactionId;

    const locked = await readCase(t, doctor, opened.id);
    expect(locked.can).not.toContain('changeCurrency');
    const eventsBefore = (await historyOf(t, doctor, opened.id)).length;
    const refused = await setCurrency(t, doctor, locked, 'USD');
    expect(refused.statusCode).toBe(409);
    expect(codeOf(refused)).toBe('CASE_CURRENCY_LOCKED');
    const after = await readCase(t, doctor, opened.id);
    expect(after.caseCurrency).toBe('BRL');
    expect(after.modifiedAt).toBe(locked.modifiedAt);
    expect(await historyOf(t, doctor, opened.id)).toHaveLength(eventsBefore);

    // A cancelled transaction no longer holds the currency (staff may edit in any status).
    await t.app.database.db
      .update(transactions)
      .set({ paymentStatus: 'cancelled' })
      .where(eq(transactions.id, transactionId));
    const supervisor = await login(t.app, 'supervisor');
    const unlocked = await readCase(t, supervisor, opened.id);
    expect(unlocked.can).toContain('changeCurrency');
    const back = await setCurrency(t, supervisor, unlocked, 'USD');
    expect(back.statusCode, back.body).toBe(200);
    expect(objOf(back).caseCurrency).toBe('USD');
  });

  it("is not another doctor's to change (404) nor a planner's (403)", async () => {
    const owner = await createUser(t.app, ['doctor'], { language: 'en' });
    const other = await createUser(t.app, ['doctor'], { language: 'en' });
    const opened = await openCase(t, owner);
    const hidden = await setCurrency(t, other, opened, 'BRL');
    expect(hidden.statusCode).toBe(404);

    const planner = await login(t.app, 'planner');
    const supervisor = await login(t.app, 'supervisor');
    const planned = await caseApi(t.app)(supervisor, 'POST', `${opened.id}/users`, {
      userId: planner.profile.id,
      triggerNotification: false,
    });
    expect(planned.statusCode, planned.body).toBe(200);
    const asPlanner = await readCase(t, planner, opened.id);
    expect(asPlanner.can).not.toContain('changeCurrency');
    const forbidden = await setCurrency(t, planner, asPlanner, 'BRL');
    expect(forbidden.statusCode).toBe(403);
    expect((await readCase(t, owner, opened.id)).caseCurrency).toBe('USD');
  });

  it("opens a case from the shop in the order's currency", async () => {
    const usd = await createUser(t.app, ['doctor'], { language: 'en' });
    const response = await shopCall(t.app)(
      usd,
      'POST',
      '/api/v1/shop/checkout',
      order({
        items: [await cartItem(t.app.database.db, 'PLAN-SMILE', { planningExtraData: PATIENT })],
        currency: 'BRL',
        paymentMethod: 'pix',
      }),
    );
    expect(response.statusCode, response.body).toBe(200);
    const result = json<{ obj: CheckoutResult }>(response).obj;
    expect(result.breakdown.currency).toBe('BRL');
    expect((await readCase(t, usd, result.caseId)).caseCurrency).toBe('BRL');
  });
});

describe('a checkout with no payment method', () => {
  const quote = async (app: TestApp, session: Session, body: object) => {
    const response = await shopCall(app.app)(session, 'POST', '/api/v1/shop/quote', {
      caseId: null,
      items: [await cartItem(app.app.database.db, 'PLAN-SMILE', { planningExtraData: PATIENT })],
      shipment: null,
      coupon: null,
      paymentMethod: null,
      ...body,
    });
    expect(response.statusCode, response.body).toBe(200);
    return json<{ obj: QuoteResponse }>(response).obj;
  };

  it('the quote says why, what would help and whom to write to', async () => {
    const admin = await login(pixOnly.app, 'admin');
    const saved = await shopCall(pixOnly.app)(admin, 'POST', '/api/v1/settings/emails', {
      senderName: 'Dentflow',
      supportEmail: 'help@lab.test',
      defaultEvents: [],
    });
    expect(saved.statusCode, saved.body).toBe(200);
    const usd = await createUser(pixOnly.app, ['doctor'], { language: 'en' });

    const dollars = await quote(pixOnly, usd, { currency: 'USD' });
    expect(dollars.paymentMethods).toEqual([]);
    expect(dollars.paymentMethodsUnavailable).toEqual({
      reason: 'currency',
      currency: 'USD',
      currenciesWithMethods: ['BRL'],
      currencyChangeable: true,
      supportEmail: 'help@lab.test',
    });
    // The same order in reais (a new case opens in it) has Pix.
    const reais = await quote(pixOnly, usd, { currency: 'BRL' });
    expect(reais.paymentMethods).toEqual(['pix']);
    expect(reais.paymentMethodsUnavailable).toBeNull();

    // A dollar case the client may still change: the change is offered.
    const opened = await openCase(pixOnly, usd);
    const forCase = await quote(pixOnly, usd, { caseId: opened.id, currency: 'USD' });
    expect(forCase.paymentMethodsUnavailable).toMatchObject({
      reason: 'currency',
      currencyChangeable: true,
    });
  });

  it('a case with a live transaction keeps its currency: the quote says the change is not possible', async () => {
    const usd = await createUser(pixOnly.app, ['doctor'], { language: 'en' });
    const opened = await openCase(pixOnly, usd);
    // A card-machine checkout makes the transaction; then the capability is taken back.
    const db = pixOnly.app.database.db;
    const [before] = await db.select().from(users).where(eq(users.id, usd.profile.id));
    await grantCapabilities(db, usd.profile.id);
    const checkout = await shopCall(pixOnly.app)(
      usd,
      'POST',
      '/api/v1/shop/checkout',
      order({
        caseId: opened.id,
        items: [await cartItem(db, 'PLAN-SMILE')],
        currency: 'USD',
        paymentMethod: 'physical',
      }),
    );
    expect(checkout.statusCode, checkout.body).toBe(200);
    const withMachine = await quote(pixOnly, usd, { currency: 'USD' });
    expect(withMachine.paymentMethods).toContain('physical');
    expect(withMachine.paymentMethodsUnavailable).toBeNull();

    await db
      .update(users)
      .set({ dataCapabilities: before!.dataCapabilities })
      .where(eq(users.id, usd.profile.id));
    const forCase = await quote(pixOnly, usd, { caseId: opened.id, currency: 'USD' });
    expect(forCase.paymentMethodsUnavailable).toMatchObject({
      reason: 'currency',
      currency: 'USD',
      currencyChangeable: false,
    });
  });

  it('with every method off, no currency helps: the reason is none', async () => {
    const admin = await login(pixOnly.app, 'admin');
    const current = objOf<PaymentsSettingsView>(
      await shopCall(pixOnly.app)(admin, 'GET', '/api/v1/settings/payments'),
    );
    expect(current.currenciesWithoutOnlineMethod).toEqual(['USD']);
    const form = {
      pixKey: current.pixKey,
      pixMerchantName: current.pixMerchantName,
      pixMerchantCity: current.pixMerchantCity,
      enabled: { ...current.enabled, pix: false },
    };
    const off = await shopCall(pixOnly.app)(admin, 'POST', '/api/v1/settings/payments', form);
    expect(off.statusCode, off.body).toBe(200);
    expect(objOf<PaymentsSettingsView>(off).currenciesWithoutOnlineMethod).toEqual(['BRL', 'USD']);
    try {
      const brl = await createUser(pixOnly.app, ['doctor'], { language: 'ptBR' });
      const answer = await quote(pixOnly, brl, { currency: 'BRL' });
      expect(answer.paymentMethodsUnavailable).toMatchObject({
        reason: 'none',
        currency: 'BRL',
        currenciesWithMethods: [],
      });
    } finally {
      await shopCall(pixOnly.app)(admin, 'POST', '/api/v1/settings/payments', {
        ...form,
        enabled: current.enabled,
      });
    }
  });

  it('the payment settings list no currency when PayPal is configured', async () => {
    const admin = await login(t.app, 'admin');
    const view = objOf<PaymentsSettingsView>(
      await shopCall(t.app)(admin, 'GET', '/api/v1/settings/payments'),
    );
    expect(view.currenciesWithoutOnlineMethod).toEqual([]);
    const usd = await createUser(t.app, ['doctor'], { language: 'en' });
    expect((await quote(t, usd, { currency: 'USD' })).paymentMethodsUnavailable).toBeNull();
  });
});

describe('the coupon a user registered with', () => {
  /** Registers through `/register/{code}`, then stands in for the mailed verification. */
  async function registerWith(code: string): Promise<Session> {
    const nickName = `reg${Date.now().toString(36)}${Math.floor(Math.random() * 1000)}`;
    const registered = await t.app.inject({
      method: 'POST',
      url: '/api/v1/auth/register',
      payload: {
        email: `${nickName}@register.test`,
        password: 'Secret123',
        fname: 'Rita',
        lname: 'Registro',
        nickName,
        terms: true,
        coupom: code,
      },
    });
    expect(registered.statusCode, registered.body).toBe(200);
    // A checkout needs a complete profile: the demo doctor's address stands in for the form.
    const [demo] = await t.app.database.db
      .select({ dataAddress: users.dataAddress })
      .from(users)
      .where(eq(users.nickName, 'doctor'));
    await t.app.database.db
      .update(users)
      .set({ verifiedAt: new Date(), roles: ['doctor'], dataAddress: demo!.dataAddress })
      .where(eq(users.nickName, nickName));
    return login(t.app, nickName, 'Secret123');
  }
  const profileOf = async (session: Session) =>
    objOf<UserProfile>(
      await t.app.inject({
        method: 'GET',
        url: '/api/v1/profile/get',
        headers: bearer(session),
      }),
    );

  it('is on the profile until a checkout used it, and the quote applies it', async () => {
    const session = await registerWith('welcome10');
    expect((await profileOf(session)).registrationCoupon).toBe('WELCOME10');

    const item = await cartItem(t.app.database.db, 'PLAN-SMILE', { planningExtraData: PATIENT });
    const currency = (await profileOf(session)).dataInfo.currency;
    const quoted = await shopCall(t.app)(session, 'POST', '/api/v1/shop/quote', {
      ...order({ items: [item], currency, coupon: 'WELCOME10' }),
      paymentMethod: null,
    });
    expect(quoted.statusCode, quoted.body).toBe(200);
    const breakdown = json<{ obj: QuoteResponse }>(quoted).obj.breakdown;
    expect(breakdown.coupon).toBe('WELCOME10');
    expect(breakdown.couponDiscount).toBeGreaterThan(0);

    const placed = await shopCall(t.app)(
      session,
      'POST',
      '/api/v1/shop/checkout',
      order({ items: [item], currency, coupon: 'WELCOME10', paymentMethod: 'paypal' }),
    );
    expect(placed.statusCode, placed.body).toBe(200);
    expect(json<{ obj: CheckoutResult }>(placed).obj.breakdown.coupon).toBe('WELCOME10');
    expect((await profileOf(session)).registrationCoupon).toBeNull();
  });

  it('is not offered once it expired, nor to a user who registered without one', async () => {
    const db = t.app.database.db;
    await db.insert(coupons).values({ code: 'REG-SOON', coupomType: 1, value: 5 });
    const session = await registerWith('REG-SOON');
    expect((await profileOf(session)).registrationCoupon).toBe('REG-SOON');
    await db
      .update(coupons)
      .set({ expireAt: new Date(Date.now() - 1000) })
      .where(eq(coupons.code, 'REG-SOON'));
    expect((await profileOf(session)).registrationCoupon).toBeNull();

    const plain = await createUser(t.app, ['doctor'], { language: 'en' });
    expect((await profileOf(plain)).registrationCoupon).toBeNull();
  });
});
