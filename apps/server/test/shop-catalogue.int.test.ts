import { asc, desc, eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SHOP_PAGE_SIZE, type ShopProduct, type ShopProductPage } from '@dentflow/domain';
import { caseServices, productCategories, products, users } from '../src/db/schema';
import {
  caseApi,
  createUser,
  objOf,
  productIdByCode,
  speakEnglish,
} from './support/cases-fixtures';
import { bearer, json, login, startTestApp, type Session, type TestApp } from './support/test-app';

let t: TestApp;
let enDoctor: Session;
let ptDoctor: Session;
let esDoctor: Session;

beforeAll(async () => {
  t = await startTestApp();
  await speakEnglish(t.app, 'doctor');
  enDoctor = await login(t.app, 'doctor');
  ptDoctor = await createUser(t.app, ['doctor'], { language: 'ptBR' });
  esDoctor = await createUser(t.app, ['doctor'], { language: 'es' });
});
afterAll(async () => {
  await t?.close();
});

const shop = (session: Session | null, query = '') =>
  t.app.inject({
    method: 'GET',
    url: `/api/v2/shop/products${query}`,
    headers: session ? bearer(session) : {},
  });

async function page(session: Session, query = ''): Promise<ShopProductPage> {
  const response = await shop(session, query);
  expect(response.statusCode, response.body).toBe(200);
  return json<{ obj: ShopProductPage }>(response).obj;
}

/** Every item of every page (the demo catalogue fits in one, but the test does not rely on it). */
async function all(session: Session, query = ''): Promise<ShopProduct[]> {
  const items: ShopProduct[] = [];
  for (let index = 0; ; index++) {
    const separator = query ? '&' : '?';
    const result = await page(session, `${query}${separator}page=${index}`);
    items.push(...result.items);
    if (items.length >= result.total || result.items.length === 0) return items;
  }
}

const byCode = (items: ShopProduct[], code: string) => {
  const found = items.find((item) => item.code === code);
  if (!found) throw new Error(`${code} not in the shop`);
  return found;
};

describe('language and currency', () => {
  it('a ptBR user sees ptBR names and BRL prices, an en user en names and USD', async () => {
    const pt = byCode(await all(ptDoctor), 'PLAN-GUIDE');
    expect(pt).toMatchObject({
      name: 'Planejamento de guia cirúrgico',
      categoryName: 'Cirurgia guiada de implantes',
      currency: 'BRL',
      price: 45000,
      discount: 0,
      innerProducts: [],
    });
    const en = byCode(await all(enDoctor), 'PLAN-GUIDE');
    expect(en).toMatchObject({
      name: 'Surgical guide planning',
      categoryName: 'Guided implant surgery',
      currency: 'USD',
      price: 9000,
    });
    const es = byCode(await all(esDoctor), 'MFG-GUIDE');
    expect(es).toMatchObject({ name: 'Guía quirúrgica impresa', currency: 'USD', price: 7000 });
  });

  it("prices follow the profile's currency, names the language", async () => {
    const user = await createUser(t.app, ['doctor'], { language: 'en' });
    const [row] = await t.app.database.db.select().from(users).where(eq(users.id, user.profile.id));
    await t.app.database.db
      .update(users)
      .set({ dataInfo: { ...row!.dataInfo, currency: 'BRL' } })
      .where(eq(users.id, user.profile.id));
    const guide = byCode(await all(user), 'MFG-GUIDE');
    expect(guide).toMatchObject({ name: 'Printed surgical guide', currency: 'BRL', price: 35000 });
  });

  it('a combo costs the sum of its parts, with its combo discount and the parts resolved', async () => {
    const pt = byCode(await all(ptDoctor), 'COMBO-GUIDE');
    expect(pt).toMatchObject({
      productType: 2,
      currency: 'BRL',
      price: 45000 + 35000,
      discount: 10,
    });
    expect(pt.innerProducts).toEqual([
      expect.objectContaining({
        name: 'Planejamento de guia cirúrgico',
        price: 45000,
        productKind: 1,
        enableKit: false,
      }),
      expect.objectContaining({
        name: 'Guia cirúrgico impresso',
        price: 35000,
        productKind: 2,
        enableKit: true,
        enableSleeve: true,
        shipping: true,
      }),
    ]);
    const en = byCode(await all(enDoctor), 'COMBO-GUIDE');
    expect(en).toMatchObject({ currency: 'USD', price: 9000 + 7000, discount: 10 });
    expect(en.innerProducts.map((p) => p.name)).toEqual([
      'Surgical guide planning',
      'Printed surgical guide',
    ]);
  });

  it('answers product images by URL, and favourites first, then category, then id', async () => {
    const items = await all(enDoctor);
    const favourites = items.filter((item) => item.favorite).length;
    expect(favourites).toBeGreaterThan(0);
    expect(items.slice(0, favourites).every((item) => item.favorite)).toBe(true);
    const rest = items.slice(favourites);
    const sorted = [...rest].sort(
      (a, b) => a.productCategoryId - b.productCategoryId || a.id - b.id,
    );
    expect(rest.map((item) => item.id)).toEqual(sorted.map((item) => item.id));
    // The test template is seeded without a storage: no images, but the field is there.
    expect(items.every((item) => item.imageUrl === null)).toBe(true);
  });
});

describe('filters and paging', () => {
  it('filters by a list of categories', async () => {
    const guided = await all(enDoctor, '?category=3');
    expect(guided.length).toBeGreaterThan(2);
    expect(guided.every((item) => item.productCategoryId === 3)).toBe(true);
    const two = await all(enDoctor, '?category=1,6');
    expect(new Set(two.map((item) => item.productCategoryId))).toEqual(new Set([1, 6]));
    expect((await page(enDoctor, '?category=99')).total).toBe(0);
  });

  it('searches names and codes without regard to accents and case', async () => {
    const pt = (await all(ptDoctor, `?q=${encodeURIComponent('GUIA CIRURGICO')}`)).map(
      (item) => item.code,
    );
    expect(pt.sort()).toEqual(['COMBO-GUIDE', 'MFG-GUIDE', 'PLAN-GUIDE']);
    const es = await all(esDoctor, `?q=${encodeURIComponent('guia quirurgica')}`);
    expect(es.map((item) => item.name)).toContain('Guía quirúrgica impresa');
    const accented = await all(enDoctor, `?q=${encodeURIComponent('Ĉombo-gúide')}`);
    expect(accented.map((item) => item.code)).toEqual(['COMBO-GUIDE']);
    const combined = await all(ptDoctor, `?q=combo&category=1`);
    expect(combined.map((item) => item.code)).toEqual(['COMBO-ORTHO']);
    expect((await page(enDoctor, '?q=nothing-like-this')).total).toBe(0);
  });

  it('pages by SHOP_PAGE_SIZE with the filtered total', async () => {
    const first = await page(enDoctor);
    expect(first.pageSize).toBe(SHOP_PAGE_SIZE);
    expect(first.page).toBe(0);
    expect(first.items.length).toBe(Math.min(first.total, SHOP_PAGE_SIZE));
    const beyond = await page(enDoctor, '?page=5');
    expect(beyond).toMatchObject({ items: [], page: 5, total: first.total });

    // More products than a page: a category of its own with SHOP_PAGE_SIZE + 3 products.
    const db = t.app.database.db;
    await db
      .insert(productCategories)
      .values({ id: 90, names: { ptBR: 'Lote', en: 'Batch', es: 'Lote' } });
    const [template] = await db.select().from(products).where(eq(products.code, 'PLAN-REPORT'));
    const { id: _id, ...copy } = template!;
    await db.insert(products).values(
      Array.from({ length: SHOP_PAGE_SIZE + 3 }, (_, i) => ({
        ...copy,
        code: `BATCH-${i}`,
        productCategoryId: 90,
      })),
    );
    const p0 = await page(enDoctor, '?category=90');
    const p1 = await page(enDoctor, '?category=90&page=1');
    expect(p0.total).toBe(SHOP_PAGE_SIZE + 3);
    expect(p0.items).toHaveLength(SHOP_PAGE_SIZE);
    expect(p1.items).toHaveLength(3);
    expect(new Set([...p0.items, ...p1.items].map((item) => item.code)).size).toBe(
      SHOP_PAGE_SIZE + 3,
    );
    expect((await page(enDoctor)).total).toBe(first.total + SHOP_PAGE_SIZE + 3);
  });
});

describe('what the shop hides', () => {
  it('leaves out unpublished, deleted and inactive-category products and combos with a gone part', async () => {
    const db = t.app.database.db;
    const before = (await all(ptDoctor)).map((item) => item.code);
    // The draft demo product is published in no language.
    expect(before).not.toContain('PLAN-TMJ');
    expect(before).toEqual(expect.arrayContaining(['PLAN-PERIO', 'MFG-PERIO', 'PLAN-CROWN']));

    const [perio] = await db.select().from(products).where(eq(products.code, 'PLAN-PERIO'));
    // Published in en only: gone for ptBR, there for en.
    await db
      .update(products)
      .set({ texts: { ...perio!.texts, ptBR: { ...perio!.texts.ptBR, publish: false } } })
      .where(eq(products.id, perio!.id));
    await db.update(products).set({ deletedAt: new Date() }).where(eq(products.code, 'PLAN-CROWN'));
    // A deleted part takes its combo out of the shop too.
    await db
      .update(products)
      .set({ deletedAt: new Date() })
      .where(eq(products.code, 'MFG-ALIGNER'));
    // Category 7 (maxillofacial surgery) inactive.
    await db.update(productCategories).set({ active: false }).where(eq(productCategories.id, 7));

    const pt = (await all(ptDoctor)).map((item) => item.code);
    const en = (await all(enDoctor)).map((item) => item.code);
    expect(pt).not.toContain('PLAN-PERIO');
    expect(en).toContain('PLAN-PERIO');
    for (const code of ['PLAN-CROWN', 'MFG-ALIGNER', 'COMBO-ORTHO', 'PLAN-ORTHOGNATHIC']) {
      expect(pt).not.toContain(code);
      expect(en).not.toContain(code);
    }
    expect(en).toEqual(expect.arrayContaining(['MFG-CROWN', 'PLAN-ORTHO', 'MFG-PERIO']));
    expect((await page(enDoctor, '?category=7')).total).toBe(0);

    await db.update(productCategories).set({ active: true }).where(eq(productCategories.id, 7));
    await db.update(products).set({ deletedAt: null }).where(eq(products.code, 'MFG-ALIGNER'));
  });
});

describe('most ordered', () => {
  it("ranks the caller's products first, then everyone's, then by id", async () => {
    const db = t.app.database.db;
    const api = caseApi(t.app);
    const orderer = await createUser(t.app, ['doctor']);
    const other = await createUser(t.app, ['doctor']);
    const order = async (session: Session, codes: string[]) => {
      const created = await api(session, 'POST', 'new', {
        patient: { fname: 'Rank', lname: 'Test' },
      });
      expect(created.statusCode, created.body).toBe(200);
      const caseId = objOf(created).id;
      for (const code of codes) {
        const added = await api(session, 'POST', `${caseId}/services/add`, {
          productId: await productIdByCode(db, code),
        });
        expect(added.statusCode, added.body).toBe(200);
      }
    };
    // PLAN-ENDO: 3 cases directly and once inside the combo; the combo once (its two inner
    // services count as one order of it); MFG-CROWN once.
    await order(orderer, ['PLAN-ENDO', 'MFG-CROWN']);
    await order(orderer, ['PLAN-ENDO']);
    await order(orderer, ['PLAN-ENDO', 'COMBO-ENDO']);

    const mine = (await all(orderer, '?mostOrdered=true')).map((item) => item.code);
    // PLAN-ENDO 4; then MFG-CROWN, MFG-ENDO, COMBO-ENDO with one each, by id.
    expect(mine.slice(0, 4)).toEqual(['PLAN-ENDO', 'MFG-CROWN', 'MFG-ENDO', 'COMBO-ENDO']);

    // Someone who ordered nothing gets everyone's ranking: the most used product of all cases
    // first (the demo cases hold no combo, so direct services count), PLAN-ENDO (4 uses) before
    // MFG-CROWN (1) before a product never ordered.
    const [top] = await db
      .select({ code: products.code, uses: sql<number>`count(*)::int` })
      .from(caseServices)
      .innerJoin(products, eq(products.id, caseServices.productId))
      .groupBy(products.id, products.code)
      .orderBy(desc(sql`count(*)`), asc(products.id))
      .limit(1);
    expect(top!.uses).toBeGreaterThan(4);
    const theirs = (await all(other, '?mostOrdered=1')).map((item) => item.code);
    expect(theirs[0]).toBe(top!.code);
    expect(theirs.indexOf('PLAN-ENDO')).toBeLessThan(theirs.indexOf('MFG-CROWN'));
    expect(theirs.indexOf('MFG-CROWN')).toBeLessThan(theirs.indexOf('PLAN-REPORT'));
    expect(theirs.indexOf('COMBO-ENDO')).toBeLessThan(theirs.indexOf('PLAN-REPORT'));

    // The other user's own order moves their product ahead of everyone's favourites.
    await order(other, ['PLAN-REPORT']);
    const after = (await all(other, '?mostOrdered=true')).map((item) => item.code);
    expect(after[0]).toBe('PLAN-REPORT');
    // The filters still apply.
    const filtered = await all(orderer, '?mostOrdered=true&category=4');
    expect(filtered.map((item) => item.code)[0]).toBe('MFG-CROWN');
  });
});

describe('bad input and access', () => {
  it('refuses bad queries with 400 and a translated message', async () => {
    for (const query of [
      '?page=-1',
      '?page=abc',
      '?category=abc',
      '?category=1,,2',
      '?mostOrdered=maybe',
      `?q=${'x'.repeat(121)}`,
    ]) {
      const response = await shop(enDoctor, query);
      expect(response.statusCode, query).toBe(400);
      expect(json(response)).toMatchObject({ code: 'VALIDATION_ERROR' });
    }
  });

  it('needs a signed-in user', async () => {
    const response = await shop(null);
    expect(response.statusCode).toBe(401);
    expect(json(response)).toMatchObject({ code: 'NOT_AUTHORIZED' });
  });
});
