import { and, eq } from 'drizzle-orm';
import type { LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ADMIN_PAGE_SIZE, type AdminCoupon, type CouponPage } from '@dentflow/domain';
import { auditLog, couponUses, coupons, products, transactions } from '../src/db/schema';
import { caseApi, createUser, productIdByCode } from './support/cases-fixtures';
import { bearer, json, login, startTestApp, type Session, type TestApp } from './support/test-app';

let t: TestApp;
let admin: Session;
let doctor: Session;
let guideId: number;
beforeAll(async () => {
  t = await startTestApp();
  admin = await login(t.app, 'admin');
  doctor = await login(t.app, 'doctor');
  guideId = await productIdByCode(t.app.database.db, 'PLAN-GUIDE');
});
afterAll(async () => {
  await t?.close();
});

const BASE = '/api/v1/products/coupom';
type Method = 'GET' | 'POST' | 'DELETE';

const call = (session: Session | null, method: Method, url: string, payload?: object) =>
  t.app.inject({
    method,
    url: `${BASE}/${url}`,
    headers: session ? bearer(session) : {},
    ...(payload ? { payload } : {}),
  });

const obj = <T>(response: LightMyRequestResponse): T => json<{ obj: T }>(response).obj;
const errorOf = (response: LightMyRequestResponse) =>
  json<{ code: string; fields?: Record<string, string> }>(response);

let counter = 0;
/** A unique code per test run (codes are unique across the whole table). */
const uniqueCode = (prefix: string) => `${prefix}${Date.now().toString(36)}${(counter += 1)}`;

function couponForm(overrides: Record<string, unknown> = {}) {
  return {
    name: uniqueCode('c'),
    bind2User: null,
    bind2Product: null,
    bind2Category: null,
    maxUsage: null,
    coupomType: 1,
    value: 10,
    oncePerUser: false,
    applyOnManufactureService: false,
    active: true,
    expireAt: null,
    ...overrides,
  };
}

async function create(overrides: Record<string, unknown> = {}): Promise<AdminCoupon> {
  const response = await call(admin, 'POST', 'set/0', couponForm(overrides));
  if (response.statusCode !== 200) throw new Error(`${response.statusCode} ${response.body}`);
  return obj<AdminCoupon>(response);
}

const query = async (filter: string, page: number, q: string) => {
  const response = await call(admin, 'GET', `query/${filter}/${page}?q=${encodeURIComponent(q)}`);
  expect(response.statusCode).toBe(200);
  return obj<CouponPage>(response);
};

describe('who may call the coupon admin', () => {
  it('refuses a doctor with 403 and an anonymous caller with 401 on every route', async () => {
    const coupon = await create();
    const routes: [Method, string, object?][] = [
      ['GET', 'query/all/0'],
      ['GET', `get/${coupon.id}`],
      ['POST', 'set/0', couponForm()],
      ['POST', `set/${coupon.id}`, couponForm()],
      ['DELETE', `delete/${coupon.id}`],
    ];
    for (const [method, url, payload] of routes) {
      const asDoctor = await call(doctor, method, url, payload);
      expect(asDoctor.statusCode, `${method} ${url}`).toBe(403);
      expect(errorOf(asDoctor).code).toBe('FORBIDDEN');
      const anonymous = await call(null, method, url, payload);
      expect(anonymous.statusCode, `${method} ${url}`).toBe(401);
      expect(errorOf(anonymous).code).toBe('NOT_AUTHORIZED');
    }
    // Nothing was changed by the refused calls.
    expect(obj<AdminCoupon>(await call(admin, 'GET', `get/${coupon.id}`))).toEqual(coupon);
  });
});

describe('creating coupons', () => {
  it('creates a percent coupon with its code upper-cased, and gets it back', async () => {
    const code = uniqueCode('welcome');
    const expireAt = new Date(Date.now() + 86_400_000).toISOString();
    const created = await create({
      name: `  ${code} `,
      value: 15,
      maxUsage: 5,
      oncePerUser: true,
      applyOnManufactureService: true,
      bind2Category: 3,
      expireAt,
    });
    expect(created).toMatchObject({
      name: code.toUpperCase(),
      coupomType: 1,
      value: 15,
      maxUsage: 5,
      used: 0,
      usersCount: 0,
      oncePerUser: true,
      applyOnManufactureService: true,
      bind2Category: 3,
      active: true,
      deletedAt: null,
      expireAt,
    });
    expect(obj<AdminCoupon>(await call(admin, 'GET', `get/${created.id}`))).toEqual(created);
    const [audit] = await t.app.database.db
      .select()
      .from(auditLog)
      .where(and(eq(auditLog.entity, 'coupon'), eq(auditLog.entityId, String(created.id))));
    expect(audit).toMatchObject({ action: 'coupon.create', entity: 'coupon' });
  });

  it('creates a fixed coupon (minor units) and a unit coupon bound to a product', async () => {
    const fixed = await create({ coupomType: 2, value: 2550 });
    expect(fixed).toMatchObject({ coupomType: 2, value: 2550, bind2Product: null });
    const unit = await create({ coupomType: 3, value: 2, bind2Product: guideId });
    expect(unit).toMatchObject({ coupomType: 3, value: 2, bind2Product: guideId });
  });

  it('refuses a percent over 100 and a unit coupon without a product, on the field', async () => {
    const percent = await call(admin, 'POST', 'set/0', couponForm({ value: 101 }));
    expect(percent.statusCode).toBe(400);
    expect(errorOf(percent)).toMatchObject({
      code: 'VALIDATION_ERROR',
      fields: { value: 'Too long' },
    });
    const unit = await call(admin, 'POST', 'set/0', couponForm({ coupomType: 3, value: 1 }));
    expect(unit.statusCode).toBe(400);
    expect(Object.keys(errorOf(unit).fields ?? {})).toEqual(['bind2Product']);
    // A fixed coupon may take more than 100 (it is an amount).
    expect(
      (await call(admin, 'POST', 'set/0', couponForm({ coupomType: 2, value: 101 }))).statusCode,
    ).toBe(200);
  });

  it('refuses an unknown bound user, product or category, and an unreadable expiry', async () => {
    const code = uniqueCode('bad');
    const cases: [Record<string, unknown>, string][] = [
      [{ bind2User: 987_654 }, 'bind2User'],
      [{ bind2Product: 987_654 }, 'bind2Product'],
      [{ bind2Category: 987_654 }, 'bind2Category'],
      [{ expireAt: 'next tuesday' }, 'expireAt'],
    ];
    for (const [overrides, field] of cases) {
      const response = await call(admin, 'POST', 'set/0', couponForm({ name: code, ...overrides }));
      expect(response.statusCode, field).toBe(400);
      expect(errorOf(response)).toMatchObject({
        code: 'VALIDATION_ERROR',
        fields: { [field]: 'Invalid value' },
      });
    }
    // A deleted product cannot be bound either.
    const smileId = await productIdByCode(t.app.database.db, 'PLAN-SMILE');
    await t.app.database.db
      .update(products)
      .set({ deletedAt: new Date() })
      .where(eq(products.id, smileId));
    const deletedProduct = await call(
      admin,
      'POST',
      'set/0',
      couponForm({ name: code, coupomType: 3, value: 1, bind2Product: smileId }),
    );
    expect(deletedProduct.statusCode).toBe(400);
    expect(errorOf(deletedProduct).fields).toEqual({ bind2Product: 'Invalid value' });
    // Nothing was saved by any refused call.
    expect((await query('all', 0, code)).total).toBe(0);
  });

  it('refuses a code taken in another case, deleted coupons included (409 on the name)', async () => {
    const taken = await call(admin, 'POST', 'set/0', couponForm({ name: 'welcome10' }));
    expect(taken.statusCode).toBe(409);
    expect(errorOf(taken)).toMatchObject({
      code: 'CODE_TAKEN',
      fields: { name: 'This code is already in use' },
    });
    const first = await create();
    const other = await create();
    const clash = await call(
      admin,
      'POST',
      `set/${other.id}`,
      couponForm({ name: first.name.toLowerCase() }),
    );
    expect(clash.statusCode).toBe(409);
    expect(errorOf(clash).code).toBe('CODE_TAKEN');
    expect(obj<AdminCoupon>(await call(admin, 'GET', `get/${other.id}`)).name).toBe(other.name);
    expect((await call(admin, 'DELETE', `delete/${first.id}`)).statusCode).toBe(200);
    const again = await call(admin, 'POST', 'set/0', couponForm({ name: first.name }));
    expect(again.statusCode).toBe(409);
  });
});

describe('editing and deleting', () => {
  it('edits every form field but never `used`, and keeps its own code', async () => {
    const created = await create({ maxUsage: 10 });
    await t.app.database.db.update(coupons).set({ used: 3 }).where(eq(coupons.id, created.id));
    const response = await call(admin, 'POST', `set/${created.id}`, {
      ...couponForm({
        name: created.name.toLowerCase(),
        coupomType: 2,
        value: 990,
        maxUsage: 20,
        active: false,
        bind2User: doctor.profile.id,
      }),
      used: 0,
    });
    expect(response.statusCode).toBe(200);
    expect(obj<AdminCoupon>(response)).toMatchObject({
      id: created.id,
      name: created.name,
      coupomType: 2,
      value: 990,
      maxUsage: 20,
      active: false,
      bind2User: doctor.profile.id,
      used: 3,
      createdAt: created.createdAt,
    });
  });

  it('answers 404 for an unknown or deleted coupon', async () => {
    const created = await create();
    expect((await call(admin, 'GET', 'get/987654')).statusCode).toBe(404);
    expect((await call(admin, 'POST', 'set/987654', couponForm())).statusCode).toBe(404);
    expect((await call(admin, 'DELETE', 'delete/987654')).statusCode).toBe(404);
    const deleted = await call(admin, 'DELETE', `delete/${created.id}`);
    expect(deleted.statusCode).toBe(200);
    expect(obj(deleted)).toEqual({ id: created.id });
    expect((await call(admin, 'GET', `get/${created.id}`)).statusCode).toBe(404);
    expect((await call(admin, 'POST', `set/${created.id}`, couponForm())).statusCode).toBe(404);
    expect((await call(admin, 'DELETE', `delete/${created.id}`)).statusCode).toBe(404);
    expect((await query('all', 0, created.name)).items).toEqual([]);
    // Soft: the row stays (old transactions point at it).
    const [row] = await t.app.database.db.select().from(coupons).where(eq(coupons.id, created.id));
    expect(row?.deletedAt).toBeInstanceOf(Date);
  });

  it('refuses registration with a deleted coupon, accepts it before', async () => {
    const created = await create();
    const register = (n: number) =>
      t.app.inject({
        method: 'POST',
        url: '/api/v1/auth/register',
        payload: {
          email: `coupon.user${n}.${created.id}@example.com`,
          password: 'Secret123',
          fname: 'Ana',
          lname: 'Souza',
          nickName: `coupuser${n}x${created.id}`,
          terms: true,
          coupom: created.name.toLowerCase(),
        },
      });
    expect((await register(1)).statusCode).toBe(200);
    await call(admin, 'DELETE', `delete/${created.id}`);
    const refused = await register(2);
    expect(refused.statusCode).toBe(400);
    expect(errorOf(refused).code).toBe('INVALID_COUPON');
  });
});

describe('the coupon list', () => {
  it('filters active, inactive and expired, pages newest first, searches the code in any case', async () => {
    const prefix = uniqueCode('list');
    const past = new Date(Date.now() - 86_400_000).toISOString();
    const future = new Date(Date.now() + 86_400_000).toISOString();
    const made: AdminCoupon[] = [];
    for (let i = 0; i < ADMIN_PAGE_SIZE + 1; i++)
      made.push(await create({ name: `${prefix}A${i}` }));
    made.push(await create({ name: `${prefix}F`, expireAt: future }));
    made.push(await create({ name: `${prefix}I1`, active: false }));
    made.push(await create({ name: `${prefix}I2`, active: false }));
    made.push(await create({ name: `${prefix}E1`, expireAt: past }));
    made.push(await create({ name: `${prefix}E2`, expireAt: past, active: false }));
    const deleted = await create({ name: `${prefix}D` });
    await call(admin, 'DELETE', `delete/${deleted.id}`);

    const first = await query('all', 0, prefix.toLowerCase());
    expect(first).toMatchObject({ total: made.length, page: 0, pageSize: ADMIN_PAGE_SIZE });
    const newestFirst = [...made].reverse().map((c) => c.id);
    expect(first.items.map((c) => c.id)).toEqual(newestFirst.slice(0, ADMIN_PAGE_SIZE));
    const second = await query('all', 1, prefix.toUpperCase());
    expect(second.items.map((c) => c.id)).toEqual(newestFirst.slice(ADMIN_PAGE_SIZE));
    expect((await query('all', 5, prefix)).items).toEqual([]);

    const names = async (filter: string) =>
      (await query(filter, 0, prefix)).items.map((c) => c.name.slice(prefix.length)).sort();
    expect((await query('active', 0, prefix)).total).toBe(ADMIN_PAGE_SIZE + 2);
    expect(await names('inactive')).toEqual(['E2', 'I1', 'I2']);
    expect(await names('expired')).toEqual(['E1', 'E2']);
    expect((await query('active', 1, prefix)).items.map((c) => c.name)).toEqual([
      `${prefix}A1`.toUpperCase(),
      `${prefix}A0`.toUpperCase(),
    ]);
    // Like wildcards in q are plain text.
    expect((await query('all', 0, `${prefix}%`)).total).toBe(0);
  });

  it('counts the distinct users who used a coupon', async () => {
    const coupon = await create();
    const other = await createUser(t.app, ['doctor']);
    const opened = await caseApi(t.app)(doctor, 'POST', 'new', {
      patient: { fname: 'Ana', lname: 'Lima' },
    });
    expect(opened.statusCode).toBe(200);
    const caseId = obj<{ id: number }>(opened).id;
    const db = t.app.database.db;
    const uses = [doctor.profile.id, doctor.profile.id, other.profile.id];
    for (const [index, userId] of uses.entries()) {
      const [transaction] = await db
        .insert(transactions)
        .values({
          caseId,
          payerId: userId,
          coupomId: coupon.id,
          reference: `coupon-test-${coupon.id}-${index}`,
          paymentMethod: 'pix',
          paymentStatus: 'awaiting_payment',
          currency: 'USD',
          priceTotal: 1000,
          descriptions: {} as never,
        })
        .returning({ id: transactions.id });
      await db
        .insert(couponUses)
        .values({ couponId: coupon.id, userId, transactionId: transaction!.id });
    }
    await db.update(coupons).set({ used: 3 }).where(eq(coupons.id, coupon.id));
    expect(obj<AdminCoupon>(await call(admin, 'GET', `get/${coupon.id}`))).toMatchObject({
      used: 3,
      usersCount: 2,
    });
    expect((await query('all', 0, coupon.name)).items[0]).toMatchObject({ used: 3, usersCount: 2 });
  });

  it('refuses bad parameters with a 4xx in the envelope', async () => {
    const bad: [Method, string, object?][] = [
      ['GET', 'query/all/-1'],
      ['GET', 'query/x/0'],
      ['GET', 'query/all/abc'],
      ['GET', `query/all/0?q=${'a'.repeat(61)}`],
      ['GET', 'get/abc'],
      ['GET', 'get/0'],
      ['POST', 'set/abc', couponForm()],
      ['POST', 'set/-1', couponForm()],
      ['POST', 'set/0', { ...couponForm(), coupomType: 4 }],
      ['POST', 'set/0', { ...couponForm(), value: 1.5 }],
      ['POST', 'set/0', { ...couponForm(), name: 'two words' }],
      ['POST', 'set/0', { ...couponForm(), maxUsage: 0 }],
      ['POST', 'set/0', {}],
      ['DELETE', 'delete/abc'],
    ];
    for (const [method, url, payload] of bad) {
      const response = await call(admin, method, url, payload);
      expect(response.statusCode, `${method} ${url}`).toBeGreaterThanOrEqual(400);
      expect(response.statusCode, `${method} ${url}`).toBeLessThan(500);
      expect(errorOf(response).code, `${method} ${url}`).toBeTruthy();
    }
  });
});
