import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  SHIPPING_OPTIONS,
  translate,
  type CaseEvent,
  type CheckoutResult,
  type QuoteResponse,
} from '@dentflow/domain';
import type { CaseEventMessage } from '../src/adapters/events/case-events';
import { DEMO_SHIPPING } from '../src/db/seed/demo/shop';
import {
  caseServices,
  cases,
  couponUses,
  coupons,
  products,
  transactions,
  users,
} from '../src/db/schema';
import { caseApi, createUser, objOf, speakEnglish } from './support/cases-fixtures';
import {
  PATIENT,
  RIO,
  SAO_PAULO,
  cartItem,
  delivery,
  engineBreakdown,
  order,
  productByCode,
  shopCall,
  shopCounts,
  sleeveIdByName,
  type OrderBody,
} from './support/shop-fixtures';
import { login, startTestApp, type Session, type TestApp } from './support/test-app';

let t: TestApp;
let doctor: Session;
let clinic: Session;
let admin: Session;
let planner: Session;
/** A ptBR user: prices in BRL, no instructor. */
let brl: Session;
let call: ReturnType<typeof shopCall>;
const db = () => t.app.database.db;

beforeAll(async () => {
  t = await startTestApp();
  await speakEnglish(t.app, 'doctor', 'clinic');
  call = shopCall(t.app);
  [doctor, clinic, admin, planner] = (await Promise.all(
    ['doctor', 'clinic', 'admin', 'planner'].map((name) => login(t.app, name)),
  )) as [Session, Session, Session, Session];
  brl = await createUser(t.app, ['doctor'], { language: 'ptBR' });
  // A coupon bound to a product the rule table's carts do not hold.
  await db()
    .insert(coupons)
    .values({
      code: 'ORTHO5',
      coupomType: 1,
      value: 5,
      bind2Product: (await productByCode(db(), 'PLAN-ORTHO')).id,
    });
  // The combo discount is a percent of the planning price in each language's text.
  const combo = await productByCode(db(), 'COMBO-GUIDE');
  const texts = structuredClone(combo.texts);
  for (const text of Object.values(texts)) text.discount = 10;
  await db().update(products).set({ texts }).where(eq(products.id, combo.id));
});
afterAll(async () => {
  await t?.close();
});

const sedexUsd = DEMO_SHIPPING.options.find((o) => o.shipmentType === SHIPPING_OPTIONS.sedex)!;
const failure = (response: { json(): unknown }) =>
  response.json() as { code: string; fields?: Record<string, string> };

async function couponRow(code: string) {
  const [row] = await db().select().from(coupons).where(eq(coupons.code, code));
  return row!;
}

interface CartCase {
  name: string;
  who: () => Session;
  body: () => Promise<OrderBody>;
  /** The demo doctor is a student of the demo instructor with 10 % off. */
  instructorPercent: number;
  check?: (result: CheckoutResult) => void | Promise<void>;
}

const CARTS: CartCase[] = [
  {
    name: 'USD planning per arch, no coupon: the instructor discount applies',
    who: () => doctor,
    instructorPercent: 10,
    body: async () =>
      order({
        items: [await cartItem(db(), 'PLAN-GUIDE', { quantity: 2, planningExtraData: PATIENT })],
      }),
    check: ({ breakdown }) => {
      expect(breakdown.instructorDiscount).toBeGreaterThan(0);
      expect(breakdown.couponDiscount).toBe(0);
      expect(breakdown.coupon).toBeNull();
      expect(breakdown).toMatchObject({
        couponTerms: null,
        instructorPercent: 10,
        instructorDiscountForgone: 0,
      });
    },
  },
  {
    name: 'percent coupon WELCOME10 replaces the instructor discount',
    who: () => doctor,
    instructorPercent: 10,
    body: async () =>
      order({
        items: [
          await cartItem(db(), 'PLAN-GUIDE', { planningExtraData: PATIENT }),
          await cartItem(db(), 'PLAN-SMILE'),
        ],
        coupon: ' welcome10 ',
      }),
    check: ({ breakdown }) => {
      expect(breakdown.couponDiscount).toBeGreaterThan(0);
      expect(breakdown.instructorDiscount).toBe(0);
      expect(breakdown.coupon).toBe('WELCOME10');
      // What the summary explains: the coupon's terms and the instructor discount it replaced.
      expect(breakdown.couponTerms).toEqual({ coupomType: 1, value: 10 });
      expect(breakdown.instructorPercent).toBe(10);
      expect(breakdown.instructorDiscountForgone).toBe(breakdown.couponDiscount);
    },
  },
  {
    name: 'combo with sleeves, Sedex and the fixed coupon FIXO50',
    who: () => doctor,
    instructorPercent: 10,
    body: async () =>
      order({
        items: [
          await cartItem(db(), 'COMBO-GUIDE', {
            planningExtraData: PATIENT,
            sleeves: { sleevesManufacture: await sleeveIdByName(db(), 'Neodent'), sleevesQtd: 3 },
          }),
        ],
        shipment: delivery(SHIPPING_OPTIONS.sedex),
        coupon: 'FIXO50',
      }),
    check: ({ breakdown }) => {
      expect(breakdown.comboDiscount).toBeGreaterThan(0);
      expect(breakdown.sleevesPrice).toBe(3 * 700);
      expect(breakdown.shippingFee).toBe(sedexUsd.fees.USD);
      expect(breakdown.couponDiscount).toBe(5000);
      // What the instructor's 10 % would have taken off the planning after the combo discount.
      expect(breakdown.couponTerms).toEqual({ coupomType: 2, value: 5000 });
      expect(breakdown.instructorPercent).toBe(10);
      expect(breakdown.instructorDiscountForgone).toBe(
        Math.round(((breakdown.planningPrice - breakdown.comboDiscount) * 10) / 100),
      );
    },
  },
  {
    name: 'per-element product times its quantity, PAC',
    who: () => doctor,
    instructorPercent: 10,
    body: async () =>
      order({
        items: [await cartItem(db(), 'MFG-MOCKUP', { quantity: 4, planningExtraData: PATIENT })],
        shipment: delivery(SHIPPING_OPTIONS.pac),
      }),
    check: async ({ breakdown }) => {
      const mockup = await productByCode(db(), 'MFG-MOCKUP');
      expect(breakdown.manufacturePrice).toBe(4 * mockup.texts.en.price);
    },
  },
  {
    name: 'unit coupon GUIA1 bound to the guide planning gives one unit',
    who: () => doctor,
    instructorPercent: 10,
    body: async () =>
      order({
        items: [
          await cartItem(db(), 'PLAN-GUIDE', { planningExtraData: PATIENT }),
          await cartItem(db(), 'PLAN-ORTHO'),
        ],
        coupon: 'GUIA1',
      }),
    check: async ({ breakdown }) => {
      const guide = await productByCode(db(), 'PLAN-GUIDE');
      expect(breakdown.couponDiscount).toBe(guide.texts.en.price);
    },
  },
  {
    name: 'BRL: combo and mockup, motoboy in São Paulo, WELCOME10, Pix',
    who: () => brl,
    instructorPercent: 0,
    body: async () =>
      order({
        currency: 'BRL',
        paymentMethod: 'pix',
        items: [
          await cartItem(db(), 'COMBO-GUIDE', {
            planningExtraData: PATIENT,
            sleeves: { sleevesManufacture: await sleeveIdByName(db(), 'Straumann'), sleevesQtd: 2 },
          }),
          await cartItem(db(), 'MFG-MOCKUP', { quantity: 3 }),
        ],
        shipment: delivery(SHIPPING_OPTIONS.motoboy),
        coupon: 'WELCOME10',
      }),
    check: ({ breakdown }) => {
      expect(breakdown.currency).toBe('BRL');
      expect(breakdown.sleevesPrice).toBe(2 * 4200);
      expect(breakdown.shippingFee).toBe(3000);
    },
  },
  {
    name: 'clinic: guide with a sleeve, local withdraw (free), card machine',
    who: () => clinic,
    instructorPercent: 0,
    body: async () =>
      order({
        paymentMethod: 'physical',
        items: [
          await cartItem(db(), 'MFG-GUIDE', {
            planningExtraData: PATIENT,
            sleeves: {
              sleevesManufacture: await sleeveIdByName(db(), 'S.I.N. Implant System'),
              sleevesQtd: 1,
            },
          }),
        ],
        shipment: { ...delivery(SHIPPING_OPTIONS.localWithdraw), address: SAO_PAULO },
      }),
    check: ({ breakdown }) => expect(breakdown.shippingFee).toBe(0),
  },
];

describe('POST /shop/checkout prices every cart with the domain engine', () => {
  it.each(CARTS)('$name', async (cart) => {
    const body = await cart.body();
    const session = cart.who();
    const expected = await engineBreakdown(db(), {
      items: body.items,
      currency: body.currency,
      coupon: body.coupon?.trim() ?? null,
      instructorPercent: cart.instructorPercent,
      shipment: body.shipment,
    });
    const coupon = body.coupon ? await couponRow(body.coupon.trim().toUpperCase()) : null;

    const response = await call(session, 'POST', '/api/v1/shop/checkout', body);
    expect(response.statusCode, response.body).toBe(200);
    const result = objOf<CheckoutResult>(response);
    const { breakdown } = result;
    expect(breakdown.total).toBe(expected.total);
    expect(breakdown).toMatchObject({
      currency: body.currency,
      subtotal: expected.subtotal,
      comboDiscount: expected.comboDiscount,
      couponDiscount: expected.couponDiscount,
      instructorDiscount: expected.instructorDiscount,
      shippingFee: expected.shippingFee,
    });
    expect(breakdown.lines.map((l) => l.cartProductId)).toEqual(
      body.items.map((i) => i.cartProductId),
    );
    await cart.check?.(result);

    const [stored] = await db()
      .select()
      .from(transactions)
      .where(eq(transactions.id, result.transactionId));
    expect(stored).toMatchObject({
      caseId: result.caseId,
      payerId: session.profile.id,
      priceTotal: expected.total,
      priceShipping: expected.shippingFee,
      currency: body.currency,
      paymentMethod: body.paymentMethod,
      // A card machine payment starts pre-paid (payments); the others wait for payment.
      paymentStatus: body.paymentMethod === 'physical' ? 'pre_paid' : 'awaiting_payment',
      coupomId: coupon?.id ?? null,
    });
    expect(stored!.descriptions).toEqual(breakdown);
    expect(stored!.reference).toMatch(new RegExp(`^DF-${result.caseId}-`));
    expect(stored!.shipment === null).toBe(body.shipment === null);

    const [caseRow] = await db().select().from(cases).where(eq(cases.id, result.caseId));
    expect(caseRow).toMatchObject({
      ownerId: session.profile.id,
      caseStatus: 'checkingout',
      listGroup: 'new',
      caseCurrency: body.currency,
    });
    const services = await db()
      .select()
      .from(caseServices)
      .where(eq(caseServices.caseId, result.caseId));
    expect(services.length).toBeGreaterThanOrEqual(body.items.length);
    expect(services.every((s) => s.transactionId === result.transactionId)).toBe(true);
    for (const item of body.items) {
      if (item.productManufactureId === null) continue;
      const service = services.find((s) => s.productId === item.productManufactureId);
      expect(service?.manufactureData).toEqual(item.manufactureData);
    }

    if (coupon) {
      const after = await couponRow(coupon.code);
      expect(after.used).toBeGreaterThan(coupon.used);
      const uses = await db()
        .select()
        .from(couponUses)
        .where(eq(couponUses.transactionId, result.transactionId));
      expect(uses).toEqual([
        expect.objectContaining({
          couponId: coupon.id,
          userId: session.profile.id,
          units: after.used - coupon.used,
        }),
      ]);
    }
  });

  it('ignores prices, totals, fees and product pairings sent by the client', async () => {
    const sleeve = await sleeveIdByName(db(), 'Neodent');
    const genuine = await cartItem(db(), 'COMBO-GUIDE', {
      planningExtraData: PATIENT,
      sleeves: { sleevesManufacture: sleeve, sleevesQtd: 2 },
    });
    const cheap = await productByCode(db(), 'PLAN-ORTHO');
    const tampered = {
      ...order({ items: [], shipment: delivery(SHIPPING_OPTIONS.sedex) }),
      items: [
        {
          ...genuine,
          productPlanningId: cheap.id,
          productManufactureId: null,
          qtdOpt: 3,
          price: 1,
          total: 1,
          unitPrice: 1,
        },
      ],
      shipment: { ...delivery(SHIPPING_OPTIONS.sedex), shipmentOption: { fee: 0, days: 99 } },
      total: 1,
      priceTotal: 1,
      breakdown: { total: 1 },
      instructorDiscount: 100,
    };
    const expected = await engineBreakdown(db(), {
      items: [genuine],
      currency: 'USD',
      instructorPercent: 10,
      shipment: delivery(SHIPPING_OPTIONS.sedex),
    });
    const response = await call(doctor, 'POST', '/api/v1/shop/checkout', tampered);
    expect(response.statusCode, response.body).toBe(200);
    const result = objOf<CheckoutResult>(response);
    expect(result.breakdown.total).toBe(expected.total);
    expect(result.breakdown.shippingFee).toBe(sedexUsd.fees.USD);
    const services = await db()
      .select({ productId: caseServices.productId })
      .from(caseServices)
      .where(eq(caseServices.caseId, result.caseId));
    const combo = await productByCode(db(), 'COMBO-GUIDE');
    expect(services.map((s) => s.productId).sort()).toEqual([...combo.innerProducts].sort());
    const [stored] = await db()
      .select()
      .from(transactions)
      .where(eq(transactions.id, result.transactionId));
    expect(stored!.priceTotal).toBe(expected.total);
    expect(stored!.shipment?.shipmentOption).toEqual({
      fee: sedexUsd.fees.USD,
      days: sedexUsd.days,
    });
  });
});

describe('POST /shop/checkout refuses every rule with its field, saving nothing', () => {
  const guide = (sleeves: { sleevesManufacture: number | null; sleevesQtd: number }) =>
    cartItem(db(), 'MFG-GUIDE', { planningExtraData: PATIENT, sleeves });

  const RULES: {
    name: string;
    who?: () => Session;
    body: () => Promise<object>;
    status: number;
    code: string;
    field: string;
    value?: string;
  }[] = [
    {
      name: 'kit option without a sleeve manufacturer',
      body: async () =>
        order({
          items: [await guide({ sleevesManufacture: null, sleevesQtd: 2 })],
          shipment: delivery(SHIPPING_OPTIONS.sedex),
        }),
      status: 400,
      code: 'VALIDATION_ERROR',
      field: 'items.0.manufactureData.sleevesManufacture',
    },
    {
      name: 'sleeve option with no sleeves',
      body: async () =>
        order({
          items: [
            await guide({
              sleevesManufacture: await sleeveIdByName(db(), 'Neodent'),
              sleevesQtd: 0,
            }),
          ],
          shipment: delivery(SHIPPING_OPTIONS.sedex),
        }),
      status: 400,
      code: 'VALIDATION_ERROR',
      field: 'items.0.manufactureData.sleevesQtd',
    },
    {
      name: 'an unknown sleeve manufacturer',
      body: async () =>
        order({
          items: [await guide({ sleevesManufacture: 999_999, sleevesQtd: 1 })],
          shipment: delivery(SHIPPING_OPTIONS.sedex),
        }),
      status: 400,
      code: 'VALIDATION_ERROR',
      field: 'items.0.manufactureData.sleevesManufacture',
    },
    {
      name: 'something ships but no delivery was chosen',
      body: async () =>
        order({
          items: [
            await guide({
              sleevesManufacture: await sleeveIdByName(db(), 'Neodent'),
              sleevesQtd: 1,
            }),
          ],
          shipment: null,
        }),
      status: 400,
      code: 'VALIDATION_ERROR',
      field: 'shipment',
    },
    {
      name: 'a delivery address without a city',
      body: async () =>
        order({
          items: [
            await guide({
              sleevesManufacture: await sleeveIdByName(db(), 'Neodent'),
              sleevesQtd: 1,
            }),
          ],
          shipment: delivery(SHIPPING_OPTIONS.sedex, { ...SAO_PAULO, city: '' }),
        }),
      status: 400,
      code: 'VALIDATION_ERROR',
      field: 'shipment',
    },
    {
      name: 'motoboy outside its zip ranges',
      body: async () =>
        order({
          items: [
            await guide({
              sleevesManufacture: await sleeveIdByName(db(), 'Neodent'),
              sleevesQtd: 1,
            }),
          ],
          shipment: delivery(SHIPPING_OPTIONS.motoboy, RIO),
        }),
      status: 400,
      code: 'SHIPPING_UNAVAILABLE',
      field: 'shipment.shipmentType',
    },
    {
      name: 'a payment method the caller may not use (Pix in USD)',
      body: async () =>
        order({
          items: [await cartItem(db(), 'PLAN-SMILE', { planningExtraData: PATIENT })],
          paymentMethod: 'pix',
        }),
      status: 400,
      code: 'VALIDATION_ERROR',
      field: 'paymentMethod',
    },
    {
      name: 'the card machine without the capability',
      body: async () =>
        order({
          items: [await cartItem(db(), 'PLAN-SMILE', { planningExtraData: PATIENT })],
          paymentMethod: 'physical',
        }),
      status: 400,
      code: 'VALIDATION_ERROR',
      field: 'paymentMethod',
    },
    {
      name: 'no patient and no case',
      body: async () => order({ items: [await cartItem(db(), 'PLAN-SMILE')] }),
      status: 400,
      code: 'VALIDATION_ERROR',
      field: 'items.0.planningExtraData.patient',
    },
    {
      name: 'a patient without a first name',
      body: async () =>
        order({
          items: [
            await cartItem(db(), 'PLAN-SMILE', {
              planningExtraData: { patient: { fname: ' ', lname: 'Lima' } },
            }),
          ],
        }),
      status: 400,
      code: 'VALIDATION_ERROR',
      field: 'items.0.planningExtraData.patient.fname',
    },
    {
      name: 'a quantity above the product range',
      body: async () =>
        order({
          items: [await cartItem(db(), 'PLAN-GUIDE', { quantity: 3, planningExtraData: PATIENT })],
        }),
      status: 400,
      code: 'VALIDATION_ERROR',
      field: 'items.0.quantity',
    },
    {
      name: 'an unknown product',
      body: async () => {
        const item = await cartItem(db(), 'PLAN-SMILE', { planningExtraData: PATIENT });
        return order({ items: [{ ...item, cartProductId: 999_999 }] });
      },
      status: 400,
      code: 'PRODUCT_UNAVAILABLE',
      field: 'items.0.cartProductId',
    },
    {
      name: 'an expired coupon',
      body: async () =>
        order({
          items: [await cartItem(db(), 'PLAN-SMILE', { planningExtraData: PATIENT })],
          coupon: 'OLD20',
        }),
      status: 400,
      code: 'COUPON_NOT_APPLICABLE',
      field: 'coupon',
      value: translate('en', 'domain', 'couponRejections.expired'),
    },
    {
      name: 'an unknown coupon',
      body: async () =>
        order({
          items: [await cartItem(db(), 'PLAN-SMILE', { planningExtraData: PATIENT })],
          coupon: 'NOPE-123',
        }),
      status: 400,
      code: 'COUPON_NOT_APPLICABLE',
      field: 'coupon',
      value: translate('en', 'domain', 'couponRejections.deleted'),
    },
    {
      name: 'a coupon bound to a product not in the cart',
      body: async () =>
        order({
          items: [await cartItem(db(), 'PLAN-SMILE', { planningExtraData: PATIENT })],
          coupon: 'ORTHO5',
        }),
      status: 400,
      code: 'COUPON_NOT_APPLICABLE',
      field: 'coupon',
      value: translate('en', 'domain', 'couponRejections.notInCart'),
    },
  ];

  it.each(RULES)('$name', async (rule) => {
    const before = await shopCounts(db());
    const response = await call(
      (rule.who ?? (() => doctor))(),
      'POST',
      '/api/v1/shop/checkout',
      await rule.body(),
    );
    expect(response.statusCode, response.body).toBe(rule.status);
    const body = failure(response);
    expect(body.code).toBe(rule.code);
    expect(Object.keys(body.fields ?? {})).toContain(rule.field);
    if (rule.value) expect(body.fields?.[rule.field]).toBe(rule.value);
    expect(await shopCounts(db())).toEqual(before);
  });

  it('answers an unpublished product as unavailable', async () => {
    const ortho = await productByCode(db(), 'PLAN-ORTHO');
    const item = await cartItem(db(), 'PLAN-ORTHO', { planningExtraData: PATIENT });
    await db()
      .update(products)
      .set({ texts: { ...ortho.texts, en: { ...ortho.texts.en, publish: false } } })
      .where(eq(products.id, ortho.id));
    try {
      const response = await call(
        doctor,
        'POST',
        '/api/v1/shop/checkout',
        order({ items: [item] }),
      );
      expect(response.statusCode).toBe(400);
      expect(failure(response)).toMatchObject({
        code: 'PRODUCT_UNAVAILABLE',
        fields: { 'items.0.cartProductId': expect.any(String) },
      });
    } finally {
      await db().update(products).set({ texts: ortho.texts }).where(eq(products.id, ortho.id));
    }
  });
});

describe('POST /shop/checkout on an existing case', () => {
  const api = () => caseApi(t.app);
  async function openCaseOf(session: Session) {
    const response = await api()(session, 'POST', 'new', PATIENT);
    expect(response.statusCode).toBe(200);
    return objOf(response).id;
  }
  const smileOrder = async (caseId: number) =>
    order({ caseId, items: [await cartItem(db(), 'PLAN-SMILE')] });

  it("adds the items to the owner's new case, moves it to checkingout with a history row and an event", async () => {
    const caseId = await openCaseOf(doctor);
    const published: CaseEventMessage[] = [];
    const off = t.app.caseEvents.on((event) => void published.push(event));
    const [before] = await db().select().from(cases).where(eq(cases.id, caseId));
    const response = await call(doctor, 'POST', '/api/v1/shop/checkout', await smileOrder(caseId));
    off();
    expect(response.statusCode, response.body).toBe(200);
    const result = objOf<CheckoutResult>(response);
    expect(result.caseId).toBe(caseId);
    const detail = objOf(await api()(doctor, 'GET', `${caseId}/get`));
    expect(detail.caseStatus).toBe('checkingout');
    expect(detail.services.map((s) => s.productId)).toEqual([
      (await productByCode(db(), 'PLAN-SMILE')).id,
    ]);
    expect(Date.parse(detail.modifiedAt)).toBeGreaterThan(before!.modifiedAt.getTime());
    const history = objOf<CaseEvent[]>(await api()(doctor, 'GET', `${caseId}/history`));
    expect(history).toContainEqual(
      expect.objectContaining({
        action: 'checkout',
        fromStatus: 'new',
        toStatus: 'checkingout',
        detail: {
          transactionId: result.transactionId,
          total: result.breakdown.total,
          currency: 'USD',
        },
      }),
    );
    expect(published).toEqual([
      expect.objectContaining({ caseId, action: 'checkout', toStatus: 'checkingout' }),
    ]);
  });

  it('a case in checkingout takes another order and stays there', async () => {
    const caseId = await openCaseOf(doctor);
    expect(
      (await call(doctor, 'POST', '/api/v1/shop/checkout', await smileOrder(caseId))).statusCode,
    ).toBe(200);
    const again = await call(doctor, 'POST', '/api/v1/shop/checkout', await smileOrder(caseId));
    expect(again.statusCode, again.body).toBe(200);
    const [row] = await db().select().from(cases).where(eq(cases.id, caseId));
    expect(row!.caseStatus).toBe('checkingout');
  });

  it("answers another user's case as missing (404) and saves nothing", async () => {
    const caseId = await openCaseOf(clinic);
    const before = await shopCounts(db());
    const response = await call(doctor, 'POST', '/api/v1/shop/checkout', await smileOrder(caseId));
    expect(response.statusCode).toBe(404);
    expect(failure(response).code).toBe('NOT_FOUND');
    expect(await shopCounts(db())).toEqual(before);
  });

  it('refuses a case the caller sees without owning it (403)', async () => {
    const caseId = await openCaseOf(doctor);
    const response = await call(admin, 'POST', '/api/v1/shop/checkout', await smileOrder(caseId));
    expect(response.statusCode).toBe(403);
    expect(failure(response).code).toBe('FORBIDDEN');
  });

  it('refuses a case past approval, and an archived one (409)', async () => {
    const [finishing] = await db()
      .select({ id: cases.id })
      .from(cases)
      .where(
        and(
          eq(cases.ownerId, doctor.profile.id),
          eq(cases.caseStatus, 'finishing'),
          eq(cases.caseArchived, false),
        ),
      )
      .limit(1);
    expect(finishing).toBeDefined();
    const archived = await openCaseOf(doctor);
    await db().update(cases).set({ caseArchived: true }).where(eq(cases.id, archived));
    for (const [caseId, code] of [
      [finishing!.id, 'CASE_NOT_ORDERABLE'],
      [archived, 'CASE_ARCHIVED'],
    ] as const) {
      const before = await shopCounts(db());
      const response = await call(
        doctor,
        'POST',
        '/api/v1/shop/checkout',
        await smileOrder(caseId),
      );
      expect(response.statusCode).toBe(409);
      expect(failure(response).code).toBe(code);
      expect(await shopCounts(db())).toEqual(before);
    }
  });

  it('prices in the case currency: a BRL case refuses a USD order', async () => {
    const caseId = await openCaseOf(brl);
    const response = await call(brl, 'POST', '/api/v1/shop/checkout', await smileOrder(caseId));
    expect(response.statusCode).toBe(400);
    expect(failure(response).fields).toHaveProperty('currency');
  });
});

describe('POST /shop/quote', () => {
  it('answers the same breakdown a checkout charges, and creates nothing', async () => {
    const items = [
      await cartItem(db(), 'COMBO-GUIDE', {
        planningExtraData: PATIENT,
        sleeves: { sleevesManufacture: await sleeveIdByName(db(), 'Neodent'), sleevesQtd: 2 },
      }),
    ];
    const body = order({ items, shipment: delivery(SHIPPING_OPTIONS.pac), coupon: 'WELCOME10' });
    const { idempotencyKey, ...quoteBody } = body;
    const before = await shopCounts(db());
    const coupon = await couponRow('WELCOME10');
    const quoted = await call(doctor, 'POST', '/api/v1/shop/quote', quoteBody);
    expect(quoted.statusCode, quoted.body).toBe(200);
    const quote = objOf<QuoteResponse>(quoted);
    expect(quote).toMatchObject({
      problems: {},
      couponRejection: null,
      paymentMethods: ['paypal'],
    });
    expect(await shopCounts(db())).toEqual(before);
    expect((await couponRow('WELCOME10')).used).toBe(coupon.used);

    const placed = await call(doctor, 'POST', '/api/v1/shop/checkout', {
      ...quoteBody,
      idempotencyKey,
    });
    expect(objOf<CheckoutResult>(placed).breakdown).toEqual(quote.breakdown);
  });

  it('lists what a checkout would refuse, the coupon rejection and the payment methods', async () => {
    const quoted = await call(doctor, 'POST', '/api/v1/shop/quote', {
      caseId: null,
      items: [
        await cartItem(db(), 'MFG-GUIDE', { sleeves: { sleevesManufacture: null, sleevesQtd: 0 } }),
      ],
      shipment: null,
      coupon: 'OLD20',
      paymentMethod: 'pix',
      currency: 'USD',
    });
    expect(quoted.statusCode, quoted.body).toBe(200);
    const quote = objOf<QuoteResponse>(quoted);
    expect(Object.keys(quote.problems).sort()).toEqual(
      [
        'items.0.manufactureData.sleevesManufacture',
        'items.0.manufactureData.sleevesQtd',
        'items.0.planningExtraData.patient',
        'paymentMethod',
        'shipment',
      ].sort(),
    );
    expect(quote.problems.shipment).toBe('validation.required');
    expect(quote.couponRejection).toBe('expired');
    // Without an applicable coupon the instructor discount applies.
    expect(quote.breakdown.coupon).toBeNull();
    expect(quote.breakdown.instructorDiscount).toBeGreaterThanOrEqual(0);

    const brlQuote = objOf<QuoteResponse>(
      await call(brl, 'POST', '/api/v1/shop/quote', {
        caseId: null,
        items: [await cartItem(db(), 'PLAN-SMILE', { planningExtraData: PATIENT })],
        shipment: null,
        coupon: null,
        paymentMethod: null,
        currency: 'BRL',
      }),
    );
    expect(brlQuote.paymentMethods).toEqual(['pix', 'paypal', 'pagseguro']);
    expect(brlQuote.breakdown.lines[0]!.name).toBe('Planejamento digital do sorriso');
    const clinicQuote = objOf<QuoteResponse>(
      await call(clinic, 'POST', '/api/v1/shop/quote', {
        caseId: null,
        items: [await cartItem(db(), 'PLAN-SMILE', { planningExtraData: PATIENT })],
        shipment: null,
        coupon: null,
        paymentMethod: 'physical',
        currency: 'USD',
      }),
    );
    expect(clinicQuote.paymentMethods).toEqual(['physical', 'dentalPrev', 'paypal']);
    expect(clinicQuote.problems).toEqual({});
  });

  it("answers another user's case as missing", async () => {
    const created = objOf(await caseApi(t.app)(clinic, 'POST', 'new', PATIENT));
    const response = await call(doctor, 'POST', '/api/v1/shop/quote', {
      caseId: created.id,
      items: [await cartItem(db(), 'PLAN-SMILE')],
      shipment: null,
      coupon: null,
      paymentMethod: null,
      currency: 'USD',
    });
    expect(response.statusCode).toBe(404);
  });
});

describe('shop ordering routes: who may call them and bad input', () => {
  it('needs a signed-in clinic or doctor (admins pass)', async () => {
    const body = order({
      items: [await cartItem(db(), 'PLAN-SMILE', { planningExtraData: PATIENT })],
    });
    for (const url of ['/api/v1/shop/quote', '/api/v1/shop/checkout']) {
      expect((await call(null, 'POST', url, body)).statusCode).toBe(401);
      expect((await call(planner, 'POST', url, body)).statusCode).toBe(403);
    }
    const quote = await call(admin, 'POST', '/api/v1/shop/quote', { ...body, paymentMethod: null });
    expect(quote.statusCode, quote.body).toBe(200);
  });

  it('refuses malformed bodies with 400 and the field', async () => {
    const item = await cartItem(db(), 'PLAN-SMILE', { planningExtraData: PATIENT });
    const cases: [object, string][] = [
      [order({ items: [] }), 'items'],
      [{ ...order({ items: [item] }), idempotencyKey: 'short' }, 'idempotencyKey'],
      [{ ...order({ items: [item] }), idempotencyKey: undefined }, 'idempotencyKey'],
      [order({ items: [{ ...item, quantity: 0 }] }), 'items.0.quantity'],
      [{ ...order({ items: [item] }), paymentMethod: 'cash' }, 'paymentMethod'],
      [{ ...order({ items: [item] }), currency: 'EUR' }, 'currency'],
      [order({ items: Array.from({ length: 31 }, () => item) }), 'items'],
    ];
    for (const [body, field] of cases) {
      const response = await call(doctor, 'POST', '/api/v1/shop/checkout', body);
      expect(response.statusCode, JSON.stringify(body).slice(0, 80)).toBe(400);
      expect(Object.keys(failure(response).fields ?? {})).toContain(field);
    }
    const notJson = await t.app.inject({
      method: 'POST',
      url: '/api/v1/shop/checkout',
      headers: {
        ...{ authorization: `Bearer ${doctor.accessToken}` },
        'content-type': 'application/json',
      },
      payload: '{"items": [',
    });
    expect(notJson.statusCode).toBe(400);
    const quote = await call(doctor, 'POST', '/api/v1/shop/quote', { items: 'x' });
    expect(quote.statusCode).toBe(400);
  });

  it('keeps the demo doctor a student with 10 % off (the table above depends on it)', async () => {
    const [row] = await db()
      .select({ capabilities: users.dataCapabilities })
      .from(users)
      .where(eq(users.id, doctor.profile.id));
    expect(row!.capabilities).toMatchObject({ instructorDiscount: 10 });
    expect(row!.capabilities.instructorId).not.toBeNull();
  });
});
