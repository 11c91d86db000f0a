import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { products } from '../src/db/schema';
import { bearer, json, login, startTestApp, type Session, type TestApp } from './support/test-app';
import { speakEnglish } from './support/cases-fixtures';

let t: TestApp;
let doctor: Session;
let supervisor: Session;
beforeAll(async () => {
  t = await startTestApp();
  await speakEnglish(t.app, 'doctor');
  doctor = await login(t.app, 'doctor');
  supervisor = await login(t.app, 'supervisor');
});
afterAll(async () => {
  await t?.close();
});

interface ListedProduct {
  id: number;
  code: string;
  name: string;
  productCategoryId: number;
  qtdOption: number;
  prices: { BRL: number; USD: number };
}

const get = (url: string, session?: Session, headers: Record<string, string> = {}) =>
  t.app.inject({
    method: 'GET',
    url,
    headers: { ...(session ? bearer(session) : {}), ...headers },
  });

describe('GET /products/list', () => {
  it("lists published products with the caller's language texts and prices per currency", async () => {
    const response = await get('/api/v1/products/list', doctor);
    expect(response.statusCode).toBe(200);
    const list = json<{ obj: ListedProduct[] }>(response).obj;
    const guide = list.find((p) => p.code === 'PLAN-GUIDE');
    // The demo doctor's profile language is en.
    expect(guide).toMatchObject({
      name: 'Surgical guide planning',
      categoryName: 'Guided implant surgery',
      productCategoryId: 3,
      qtdOption: 2,
      prices: { BRL: 45000, USD: 9000 },
    });
  });

  it('leaves out deleted products and those unpublished in the language', async () => {
    const [smile] = await t.app.database.db
      .select()
      .from(products)
      .where(eq(products.code, 'PLAN-SMILE'));
    const [ortho] = await t.app.database.db
      .select()
      .from(products)
      .where(eq(products.code, 'PLAN-ORTHO'));
    if (!smile || !ortho) throw new Error('seed products missing');
    await t.app.database.db
      .update(products)
      .set({ deletedAt: new Date() })
      .where(eq(products.id, smile.id));
    await t.app.database.db
      .update(products)
      .set({ texts: { ...ortho.texts, en: { ...ortho.texts.en, publish: false } } })
      .where(eq(products.id, ortho.id));
    const codes = json<{ obj: ListedProduct[] }>(
      await get('/api/v1/products/list', doctor),
    ).obj.map((p) => p.code);
    expect(codes).not.toContain('PLAN-SMILE');
    expect(codes).not.toContain('PLAN-ORTHO');
    expect(codes).toContain('MFG-GUIDE');
  });

  it('refuses an anonymous caller with 401 in the envelope', async () => {
    const response = await get('/api/v1/products/list');
    expect(response.statusCode).toBe(401);
    expect(json(response)).toMatchObject({ code: 'NOT_AUTHORIZED' });
  });
});

describe('GET /users/planners', () => {
  it('gives a supervisor the planners (id and display name only)', async () => {
    const response = await get('/api/v1/users/planners', supervisor);
    expect(response.statusCode).toBe(200);
    const planners = json<{ obj: { id: number; displayName: string }[] }>(response).obj;
    expect(planners.length).toBeGreaterThanOrEqual(1);
    for (const planner of planners)
      expect(Object.keys(planner).sort()).toEqual(['displayName', 'id']);
    const plannerSession = await login(t.app, 'planner');
    const me = json<{ obj: { id: number } }>(await get('/api/v1/profile/get', plannerSession)).obj;
    expect(planners.map((p) => p.id)).toContain(me.id);
    const doctorMe = json<{ obj: { id: number } }>(await get('/api/v1/profile/get', doctor)).obj;
    expect(planners.map((p) => p.id)).not.toContain(doctorMe.id);
  });

  it('refuses a doctor with 403 in the envelope', async () => {
    const response = await get('/api/v1/users/planners', doctor);
    expect(response.statusCode).toBe(403);
    expect(json(response)).toHaveProperty('code');
  });
});
