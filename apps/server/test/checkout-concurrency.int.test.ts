import { randomUUID } from 'node:crypto';
import { and, eq, inArray } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SHIPPING_OPTIONS, translate, type CheckoutResult } from '@dentflow/domain';
import { cases, checkoutRequests, couponUses, coupons, transactions } from '../src/db/schema';
import { createUser, objOf } from './support/cases-fixtures';
import {
  PATIENT,
  cartItem,
  delivery,
  order,
  shopCall,
  shopCounts,
  sleeveIdByName,
} from './support/shop-fixtures';
import { startTestApp, type Session, type TestApp } from './support/test-app';

let t: TestApp;
let call: ReturnType<typeof shopCall>;
const db = () => t.app.database.db;

beforeAll(async () => {
  t = await startTestApp();
  call = shopCall(t.app);
});
afterAll(async () => {
  await t?.close();
});

const failure = (response: { json(): unknown }) =>
  response.json() as { code: string; fields?: Record<string, string> };

async function newCoupon(code: string, values: Partial<typeof coupons.$inferInsert> = {}) {
  const [row] = await db()
    .insert(coupons)
    .values({ code, coupomType: 1, value: 5, ...values })
    .returning();
  return row!;
}

const smileOrder = async (coupon: string | null = null) =>
  order({ items: [await cartItem(db(), 'PLAN-SMILE', { planningExtraData: PATIENT })], coupon });

describe('a coupon with maxUsage under concurrent checkouts', () => {
  it('lets exactly maxUsage of 30 concurrent checkouts use it; the others fail and save nothing', async () => {
    const coupon = await newCoupon('LIMIT10', { maxUsage: 10 });
    const users = await Promise.all([1, 2, 3].map(() => createUser(t.app, ['doctor'])));
    const bodies = await Promise.all(
      Array.from({ length: 30 }, async (_, i) => ({
        session: users[i % users.length]!,
        body: await smileOrder('LIMIT10'),
      })),
    );
    const before = await shopCounts(db());
    const responses = await Promise.all(
      bodies.map(({ session, body }) => call(session, 'POST', '/api/v1/shop/checkout', body)),
    );

    const ok = responses.filter((r) => r.statusCode === 200);
    const refused = responses.filter((r) => r.statusCode !== 200);
    expect(ok).toHaveLength(10);
    for (const response of refused) {
      expect(response.statusCode, response.body).toBe(409);
      expect(failure(response)).toMatchObject({
        code: 'COUPON_NOT_APPLICABLE',
        fields: { coupon: translate('en', 'domain', 'couponRejections.exhausted') },
      });
    }
    const [after] = await db().select().from(coupons).where(eq(coupons.id, coupon.id));
    expect(after!.used).toBe(10);
    const uses = await db().select().from(couponUses).where(eq(couponUses.couponId, coupon.id));
    expect(uses).toHaveLength(10);
    const paid = await db().select().from(transactions).where(eq(transactions.coupomId, coupon.id));
    expect(paid.map((tx) => tx.id).sort()).toEqual(
      ok.map((r) => objOf<CheckoutResult>(r).transactionId).sort(),
    );
    // Refused checkouts left no case, service, transaction or idempotency row behind.
    const counts = await shopCounts(db());
    expect(counts.transactions - before.transactions).toBe(10);
    expect(counts.cases - before.cases).toBe(10);
    expect(counts.caseServices - before.caseServices).toBe(10);
    expect(counts.checkoutRequests - before.checkoutRequests).toBe(10);
  });

  it('lets a once-per-user coupon through once for concurrent orders of one user', async () => {
    await newCoupon('ONCE5', { oncePerUser: true });
    const user = await createUser(t.app, ['doctor']);
    const bodies = await Promise.all(Array.from({ length: 5 }, () => smileOrder('ONCE5')));
    const responses = await Promise.all(
      bodies.map((body) => call(user, 'POST', '/api/v1/shop/checkout', body)),
    );
    expect(responses.filter((r) => r.statusCode === 200)).toHaveLength(1);
    for (const response of responses.filter((r) => r.statusCode !== 200)) {
      expect(failure(response)).toMatchObject({
        code: 'COUPON_NOT_APPLICABLE',
        fields: { coupon: translate('en', 'domain', 'couponRejections.alreadyUsed') },
      });
    }
  });
});

describe('idempotent checkout', () => {
  let doctor: Session;
  beforeAll(async () => {
    doctor = await createUser(t.app, ['doctor']);
  });

  async function transactionsOf(session: Session) {
    return db().select().from(transactions).where(eq(transactions.payerId, session.profile.id));
  }

  it('answers the same key and body again with the stored result, creating nothing', async () => {
    const body = await smileOrder('WELCOME10');
    const first = await call(doctor, 'POST', '/api/v1/shop/checkout', body);
    expect(first.statusCode, first.body).toBe(200);
    const [welcome] = await db().select().from(coupons).where(eq(coupons.code, 'WELCOME10'));
    const before = await shopCounts(db());
    const second = await call(doctor, 'POST', '/api/v1/shop/checkout', body);
    expect(second.statusCode).toBe(200);
    expect(second.json()).toEqual(first.json());
    expect(await shopCounts(db())).toEqual(before);
    const [welcomeAfter] = await db().select().from(coupons).where(eq(coupons.code, 'WELCOME10'));
    expect(welcomeAfter!.used).toBe(welcome!.used);
  });

  it('gives concurrent duplicates one order and the same answer', async () => {
    const user = await createUser(t.app, ['doctor']);
    const body = order({
      items: [
        await cartItem(db(), 'MFG-GUIDE', {
          planningExtraData: PATIENT,
          sleeves: { sleevesManufacture: await sleeveIdByName(db(), 'Neodent'), sleevesQtd: 2 },
        }),
      ],
      shipment: delivery(SHIPPING_OPTIONS.sedex),
    });
    const responses = await Promise.all(
      Array.from({ length: 6 }, () => call(user, 'POST', '/api/v1/shop/checkout', body)),
    );
    for (const response of responses) expect(response.statusCode, response.body).toBe(200);
    const answers = responses.map((r) => r.json());
    for (const answer of answers) expect(answer).toEqual(answers[0]);
    const own = await transactionsOf(user);
    expect(own).toHaveLength(1);
    const ownCases = await db().select().from(cases).where(eq(cases.ownerId, user.profile.id));
    expect(ownCases).toHaveLength(1);
  });

  it('refuses the same key with another order (409) and saves nothing', async () => {
    const body = await smileOrder();
    expect((await call(doctor, 'POST', '/api/v1/shop/checkout', body)).statusCode).toBe(200);
    const before = await shopCounts(db());
    const other = {
      ...body,
      items: [{ ...body.items[0]!, planningExtraData: { patient: { fname: 'Rui', lname: 'Sá' } } }],
    };
    const response = await call(doctor, 'POST', '/api/v1/shop/checkout', other);
    expect(response.statusCode).toBe(409);
    expect(failure(response).code).toBe('IDEMPOTENCY_KEY_REUSED');
    expect(await shopCounts(db())).toEqual(before);
  });

  it('keeps keys per user, and frees a key whose checkout failed', async () => {
    const key = randomUUID();
    const someoneElse = await createUser(t.app, ['doctor']);
    const body = { ...(await smileOrder()), idempotencyKey: key };
    const mine = await call(doctor, 'POST', '/api/v1/shop/checkout', body);
    const theirs = await call(someoneElse, 'POST', '/api/v1/shop/checkout', body);
    expect([mine.statusCode, theirs.statusCode]).toEqual([200, 200]);
    expect(objOf<CheckoutResult>(theirs).caseId).not.toBe(objOf<CheckoutResult>(mine).caseId);

    const retryKey = randomUUID();
    const refused = await call(doctor, 'POST', '/api/v1/shop/checkout', {
      ...body,
      idempotencyKey: retryKey,
      paymentMethod: 'pix',
    });
    expect(refused.statusCode).toBe(400);
    const stored = await db()
      .select()
      .from(checkoutRequests)
      .where(
        and(
          eq(checkoutRequests.userId, doctor.profile.id),
          inArray(checkoutRequests.idempotencyKey, [retryKey]),
        ),
      );
    expect(stored).toEqual([]);
    const retried = await call(doctor, 'POST', '/api/v1/shop/checkout', {
      ...body,
      idempotencyKey: retryKey,
    });
    expect(retried.statusCode, retried.body).toBe(200);
  });
});
