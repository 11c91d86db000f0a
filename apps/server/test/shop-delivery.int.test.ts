import { and, eq, isNull } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  SHIPPING_OPTIONS,
  percentOf,
  translate,
  type CouponLookupResponse,
  type KnownAddresses,
  type ShippingQuote,
  type SleeveOffer,
} from '@dentflow/domain';
import { DEMO_SHIPPING } from '../src/db/seed/demo/shop';
import { cases, coupons, sleeves, transactions, users } from '../src/db/schema';
import { createUser, objOf, speakEnglish } from './support/cases-fixtures';
import {
  PATIENT,
  RIO,
  SAO_PAULO,
  cartItem,
  productByCode,
  shopCall,
} from './support/shop-fixtures';
import { json, login, startTestApp, type Session, type TestApp } from './support/test-app';

let t: TestApp;
let doctor: Session;
let call: ReturnType<typeof shopCall>;
const db = () => t.app.database.db;

beforeAll(async () => {
  t = await startTestApp();
  await speakEnglish(t.app, 'doctor');
  call = shopCall(t.app);
  doctor = await login(t.app, 'doctor');
});
afterAll(async () => {
  await t?.close();
});

const failure = (response: { json(): unknown }) =>
  response.json() as { code: string; fields?: Record<string, string> };

describe('GET /shop/fetchSleeves', () => {
  it("lists the sleeve manufacturers with prices in the caller's currency or the one asked", async () => {
    const usd = objOf<SleeveOffer[]>(await call(doctor, 'GET', '/api/v1/shop/fetchSleeves'));
    expect(usd.map((s) => [s.sleeve_manufacture, s.sleeve_price, s.currency])).toEqual([
      ['Neodent', 700, 'USD'],
      ['Straumann', 850, 'USD'],
      ['S.I.N. Implant System', 550, 'USD'],
    ]);
    const brl = objOf<SleeveOffer[]>(
      await call(doctor, 'GET', '/api/v1/shop/fetchSleeves?currency=BRL'),
    );
    expect(brl.map((s) => s.sleeve_price)).toEqual([3500, 4200, 2800]);
    const ptBR = await createUser(t.app, ['doctor'], { language: 'ptBR' });
    const own = objOf<SleeveOffer[]>(await call(ptBR, 'GET', '/api/v1/shop/fetchSleeves'));
    expect(own.every((s) => s.currency === 'BRL')).toBe(true);
  });

  it('hides a deleted manufacturer', async () => {
    const [straumann] = await db()
      .select()
      .from(sleeves)
      .where(eq(sleeves.sleeveManufacture, 'Straumann'));
    await db().update(sleeves).set({ deletedAt: new Date() }).where(eq(sleeves.id, straumann!.id));
    try {
      const list = objOf<SleeveOffer[]>(await call(doctor, 'GET', '/api/v1/shop/fetchSleeves'));
      expect(list.map((s) => s.sleeve_manufacture)).not.toContain('Straumann');
    } finally {
      await db().update(sleeves).set({ deletedAt: null }).where(eq(sleeves.id, straumann!.id));
    }
  });

  it('refuses an unknown currency (400) and an anonymous caller (401)', async () => {
    expect((await call(doctor, 'GET', '/api/v1/shop/fetchSleeves?currency=EUR')).statusCode).toBe(
      400,
    );
    expect((await call(null, 'GET', '/api/v1/shop/fetchSleeves')).statusCode).toBe(401);
  });
});

describe('GET /shop/getShippingPrice/{zipcode}', () => {
  const sedex = DEMO_SHIPPING.options.find((o) => o.shipmentType === SHIPPING_OPTIONS.sedex)!;

  it('offers the motoboy only in São Paulo, local withdraw free, fees in the currency', async () => {
    const paulista = objOf<ShippingQuote[]>(
      await call(doctor, 'GET', '/api/v1/shop/getShippingPrice/01310-100'),
    );
    expect(paulista.map((o) => o.shipmentType)).toEqual([0, 1, 2, 3]);
    expect(paulista[0]).toEqual({
      shipmentType: 0,
      fee: sedex.fees.USD,
      days: sedex.days,
      currency: 'USD',
    });
    expect(paulista.find((o) => o.shipmentType === SHIPPING_OPTIONS.localWithdraw)?.fee).toBe(0);
    const rio = objOf<ShippingQuote[]>(
      await call(doctor, 'GET', '/api/v1/shop/getShippingPrice/20040020?currency=BRL'),
    );
    expect(rio.map((o) => o.shipmentType)).toEqual([0, 1, 2]);
    expect(rio[0]).toMatchObject({ fee: sedex.fees.BRL, currency: 'BRL' });
  });

  it('refuses a malformed zip code, an unknown currency and an anonymous caller', async () => {
    for (const zip of ['123', 'abcdefgh', '0131-0100-99']) {
      const response = await call(doctor, 'GET', `/api/v1/shop/getShippingPrice/${zip}`);
      expect(response.statusCode, zip).toBe(400);
      expect(failure(response).code).toBe('INVALID_ZIP');
    }
    expect(
      (await call(doctor, 'GET', '/api/v1/shop/getShippingPrice/01310100?currency=XX')).statusCode,
    ).toBe(400);
    expect((await call(null, 'GET', '/api/v1/shop/getShippingPrice/01310100')).statusCode).toBe(
      401,
    );
  });
});

describe('POST /shop/fetchAddress', () => {
  it("answers the profile address and the caller's earlier delivery addresses, newest first", async () => {
    const user = await createUser(t.app, ['doctor']);
    const other = await createUser(t.app, ['doctor']);
    const [anyCase] = await db()
      .select({ id: cases.id })
      .from(cases)
      .where(eq(cases.ownerId, doctor.profile.id))
      .limit(1);
    const [profileRow] = await db()
      .select({ address: users.dataAddress })
      .from(users)
      .where(eq(users.id, user.profile.id));
    const street = (n: number) => ({ ...RIO, address: `Rua ${n}` });
    // Oldest first: 1..7, a repeat of 2, an incomplete one, a local withdraw, the profile's.
    const shipped = [
      street(1),
      street(2),
      street(3),
      street(4),
      street(5),
      street(6),
      street(7),
      { ...street(2), city: ' rio de janeiro ' },
      { ...street(8), city: '' },
      street(9),
      profileRow!.address,
    ];
    let at = Date.now() - 3600_000;
    for (const [index, address] of shipped.entries()) {
      at += 1000;
      await db()
        .insert(transactions)
        .values({
          caseId: anyCase!.id,
          payerId: user.profile.id,
          reference: `TEST-${user.profile.id}-${index}`,
          paymentMethod: 'paypal',
          paymentStatus: 'awaiting_payment',
          currency: 'USD',
          priceTotal: 100,
          descriptions: {} as never,
          shipment: {
            addressType: 1,
            address,
            shipmentType: address.address === 'Rua 9' ? SHIPPING_OPTIONS.localWithdraw : 0,
            shipmentOption: { fee: 0, days: 1 },
          },
          createdAt: new Date(at),
        });
    }
    await db()
      .insert(transactions)
      .values({
        caseId: anyCase!.id,
        payerId: other.profile.id,
        reference: `TEST-${other.profile.id}-x`,
        paymentMethod: 'paypal',
        paymentStatus: 'awaiting_payment',
        currency: 'USD',
        priceTotal: 100,
        descriptions: {} as never,
        shipment: {
          addressType: 1,
          address: street(99),
          shipmentType: 0,
          shipmentOption: { fee: 0, days: 1 },
        },
      });

    const known = objOf<KnownAddresses>(await call(user, 'POST', '/api/v1/shop/fetchAddress', {}));
    expect(known.profile).toEqual(profileRow!.address);
    expect(known.deliveries.map((a) => a.address)).toEqual([
      'Rua 2',
      'Rua 7',
      'Rua 6',
      'Rua 5',
      'Rua 4',
    ]);
  });

  it('answers a null profile address when it is incomplete, and no deliveries before any', async () => {
    const user = await createUser(t.app, ['doctor']);
    await db()
      .update(users)
      .set({ dataAddress: { ...SAO_PAULO, zipCode: '' } })
      .where(eq(users.id, user.profile.id));
    const known = objOf<KnownAddresses>(await call(user, 'POST', '/api/v1/shop/fetchAddress', {}));
    expect(known).toEqual({ profile: null, deliveries: [] });
    expect((await call(null, 'POST', '/api/v1/shop/fetchAddress', {})).statusCode).toBe(401);
    const stray = await call(user, 'POST', '/api/v1/shop/fetchAddress', { userId: 1 });
    expect(stray.statusCode).toBe(400);
  });
});

describe('GET /products/coupom/lookup/{code}', () => {
  const lookup = (session: Session | null, code: string, cart?: unknown) =>
    call(
      session,
      'GET',
      `/api/v1/products/coupom/lookup/${encodeURIComponent(code)}${
        cart === undefined
          ? ''
          : `?cart=${encodeURIComponent(typeof cart === 'string' ? cart : JSON.stringify(cart))}`
      }`,
    );

  it('says a coupon applies, and what it takes off the cart given', async () => {
    const alone = objOf<CouponLookupResponse>(await lookup(doctor, 'welcome10'));
    expect(alone).toEqual({
      code: 'WELCOME10',
      applicable: true,
      rejection: null,
      message: '',
      coupomType: 1,
      value: 10,
      discount: 0,
      currency: 'USD',
    });
    const guide = await productByCode(db(), 'PLAN-GUIDE');
    const items = [await cartItem(db(), 'PLAN-GUIDE', { planningExtraData: PATIENT })];
    const withCart = objOf<CouponLookupResponse>(
      await lookup(doctor, 'WELCOME10', { items, currency: 'USD' }),
    );
    expect(withCart).toMatchObject({
      applicable: true,
      discount: percentOf(guide.texts.en.price, 10),
      currency: 'USD',
    });
    const unit = objOf<CouponLookupResponse>(
      await lookup(doctor, 'GUIA1', { items, currency: 'USD' }),
    );
    expect(unit).toMatchObject({ applicable: true, coupomType: 3, discount: guide.texts.en.price });
    const notInCart = objOf<CouponLookupResponse>(
      await lookup(doctor, 'GUIA1', {
        items: [await cartItem(db(), 'PLAN-SMILE')],
        currency: 'USD',
      }),
    );
    expect(notInCart).toMatchObject({ applicable: false, rejection: 'notInCart', discount: 0 });
  });

  it("gives the reason in the caller's language", async () => {
    const sessions = {
      en: doctor,
      ptBR: await createUser(t.app, ['doctor'], { language: 'ptBR' }),
      es: await createUser(t.app, ['doctor'], { language: 'es' }),
    };
    const messages = new Set<string>();
    for (const [language, session] of Object.entries(sessions)) {
      const answer = objOf<CouponLookupResponse>(await lookup(session, 'OLD20'));
      expect(answer).toMatchObject({ applicable: false, rejection: 'expired' });
      expect(answer.message).toBe(
        translate(language as 'en', 'domain', 'couponRejections.expired'),
      );
      messages.add(answer.message);
    }
    expect(messages.size).toBe(3);
    expect(objOf<CouponLookupResponse>(await lookup(doctor, 'OLD20')).message).toBe(
      'This coupon has expired',
    );
  });

  it('answers an unknown code exactly like a deleted one', async () => {
    await db().insert(coupons).values({ code: 'GONE15', coupomType: 1, value: 15 });
    await db()
      .update(coupons)
      .set({ deletedAt: new Date() })
      .where(and(eq(coupons.code, 'GONE15'), isNull(coupons.deletedAt)));
    const unknown = objOf<CouponLookupResponse>(await lookup(doctor, 'NO-SUCH-CODE'));
    const deleted = objOf<CouponLookupResponse>(await lookup(doctor, 'GONE15'));
    for (const answer of [unknown, deleted]) {
      expect(answer).toMatchObject({
        applicable: false,
        rejection: 'deleted',
        coupomType: null,
        value: null,
        discount: 0,
      });
    }
    expect(unknown.message).toBe(deleted.message);
  });

  it('answers a code bound to another user exactly like an unknown one', async () => {
    const holder = await createUser(t.app, ['doctor']);
    await db()
      .insert(coupons)
      .values([
        { code: 'BOUND25', coupomType: 1, value: 25, bind2User: holder.profile.id },
        {
          code: 'BOUNDOLD',
          coupomType: 2,
          value: 5000,
          bind2User: holder.profile.id,
          expireAt: new Date('2020-01-01T00:00:00Z'),
        },
        {
          code: 'BOUNDOFF',
          coupomType: 1,
          value: 30,
          bind2User: holder.profile.id,
          active: false,
        },
      ]);
    // The holder's coupon is real: it applies to them.
    expect(objOf<CouponLookupResponse>(await lookup(holder, 'BOUND25'))).toMatchObject({
      applicable: true,
      coupomType: 1,
      value: 25,
    });
    const items = [await cartItem(db(), 'PLAN-GUIDE', { planningExtraData: PATIENT })];
    for (const cart of [undefined, { items, currency: 'USD' }]) {
      const answer = async (code: string) => {
        const response = await lookup(doctor, code, cart);
        const { code: echoed, ...body } = json<{ obj: CouponLookupResponse }>(response).obj;
        expect(echoed).toBe(code);
        return { status: response.statusCode, body };
      };
      const unknown = await answer('NOSUCH25');
      expect(unknown).toMatchObject({ status: 200, body: { rejection: 'deleted' } });
      for (const code of ['BOUND25', 'BOUNDOLD', 'BOUNDOFF']) {
        expect(await answer(code), `${code} ${JSON.stringify(cart)}`).toEqual(unknown);
      }
    }
  });

  it('refuses a malformed cart, an unknown product, a long code and an anonymous caller', async () => {
    const bad: [unknown, string][] = [
      ['{"items": [', 'VALIDATION_ERROR'],
      [{ items: 'x', currency: 'USD' }, 'VALIDATION_ERROR'],
      [{ items: [], currency: 'USD' }, 'VALIDATION_ERROR'],
      [
        {
          items: [{ ...(await cartItem(db(), 'PLAN-SMILE')), cartProductId: 999_999 }],
          currency: 'USD',
        },
        'PRODUCT_UNAVAILABLE',
      ],
      // A new case may open in either currency, but only in a supported one.
      [{ items: [await cartItem(db(), 'PLAN-SMILE')], currency: 'EUR' }, 'VALIDATION_ERROR'],
    ];
    for (const [cart, code] of bad) {
      const response = await lookup(doctor, 'WELCOME10', cart);
      expect(response.statusCode, JSON.stringify(cart)).toBe(400);
      expect(failure(response).code).toBe(code);
    }
    expect((await lookup(doctor, 'X'.repeat(61))).statusCode).toBe(400);
    expect((await lookup(doctor, 'no code!')).statusCode).toBe(400);
    expect((await lookup(null, 'WELCOME10')).statusCode).toBe(401);
  });
});

describe('the coupon lookup is rate limited (it could probe for codes)', () => {
  it('answers 429 RATE_LIMITED past the limit', async () => {
    const limited = await startTestApp({ RATE_LIMIT_NICKNAME_MAX: '3' });
    try {
      const session = await login(limited.app, 'doctor');
      const codes: number[] = [];
      for (let i = 0; i < 5; i += 1) {
        const response = await limited.app.inject({
          method: 'GET',
          url: `/api/v1/products/coupom/lookup/GUESS${i}`,
          headers: { authorization: `Bearer ${session.accessToken}` },
        });
        codes.push(response.statusCode);
      }
      expect(codes).toEqual([200, 200, 200, 429, 429]);
    } finally {
      await limited.close();
    }
  }, 60_000);
});
