import { eq, sql } from 'drizzle-orm';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  translate,
  type AdminProduct,
  type CatalogueProduct,
  type Category,
  type ProductForm,
  type ShopProductPage,
} from '@dentflow/domain';
import { attachments, auditLog, caseServices, products } from '../src/db/schema';
import { productIdByCode, speakEnglish } from './support/cases-fixtures';
import { attachmentRow, postLocal, samplePng, type Announced } from './support/storage-fixtures';
import { bearer, json, login, startTestApp, type Session, type TestApp } from './support/test-app';

let t: TestApp;
let admin: Session;
let doctor: Session;

beforeAll(async () => {
  t = await startTestApp();
  await speakEnglish(t.app, 'doctor');
  admin = await login(t.app, 'admin');
  doctor = await login(t.app, 'doctor');
});
afterAll(async () => {
  await t?.close();
});

type Method = 'GET' | 'POST';
const call = (session: Session | null, method: Method, url: string, payload?: object) =>
  t.app.inject({
    method,
    url,
    headers: session ? bearer(session) : {},
    ...(payload ? { payload } : {}),
  });
const obj = <T>(response: { json<R>(): R }) => response.json<{ obj: T }>().obj;
/** Field errors as the envelope answers them: catalogue keys translated (the callers use en). */
const messages = (fields: Record<string, string>) =>
  Object.fromEntries(
    Object.entries(fields).map(([field, key]) => [field, translate('en', 'errors', key)]),
  );
const errorOf = (response: { json<R>(): R }) =>
  response.json<{ code: string; error: string; fields?: Record<string, string> }>();

let codeCounter = 0;
/** A complete, valid single-product form with a fresh code. */
function productForm(overrides: Partial<ProductForm> = {}): ProductForm {
  codeCounter += 1;
  const text = (name: string, price: number) => ({
    name,
    description: `${name} — test`,
    price,
    discount: 0,
    publish: true,
  });
  return {
    productType: 1,
    productCategory: 8,
    code: `TEST-${codeCounter}`,
    innerProducts: [],
    manufactureTime: 2,
    productKind: 2,
    qtdOption: 3,
    qtdMax: 4,
    alignment: false,
    favorite: false,
    kindOfManufacture: 1,
    enableKit: false,
    enableSleeve: true,
    mockup: false,
    shipping: true,
    clientPrints: false,
    uploadFiles: true,
    downloadFiles: false,
    texts: {
      ptBR: text('Placa de teste', 12345),
      en: text('Test splint', 2500),
      es: text('Férula de prueba', 2500),
    },
    ...overrides,
  };
}

const setProduct = (session: Session | null, id: number | string, body: object) =>
  call(session, 'POST', `/api/v1/products/set/${id}`, body);

async function productCount(): Promise<number> {
  const [row] = await t.app.database.db
    .select({ count: sql<number>`count(*)::int` })
    .from(products);
  return row!.count;
}

/** Announce, send and confirm a temporary upload; returns the attachment id. */
async function tempUpload(
  session: Session,
  attachmentName: 'productThumbnail' | 'avatar',
  file: Buffer,
  filename = 'image.png',
): Promise<number> {
  const created = await call(session, 'POST', '/api/v1/attachment/create/temp', {
    filename,
    filesize: file.length,
    attachment_name: attachmentName,
  });
  expect(created.statusCode, created.body).toBe(200);
  const { attachment, upload } = obj<Announced>(created);
  expect((await postLocal(t.app, upload, file)).statusCode).toBe(204);
  const confirmed = await call(
    session,
    'GET',
    `/api/v1/attachment/uploadedSuccess/${attachment.id}`,
  );
  expect(confirmed.statusCode, confirmed.body).toBe(200);
  return attachment.id;
}

describe('who may call what', () => {
  it('only admins set, delete and query products; no token is 401', async () => {
    const id = await productIdByCode(t.app.database.db, 'PLAN-GUIDE');
    const adminOnly: [Method, string, object?][] = [
      ['POST', '/api/v1/products/set/0', productForm()],
      ['POST', `/api/v1/products/set/${id}`, productForm()],
      ['GET', `/api/v1/products/delete/${id}`],
      ['GET', '/api/v1/products/query/all'],
      [
        'POST',
        '/api/v1/products/category/set/0',
        { name: { ptBR: 'a', en: 'a', es: 'a' }, active: true },
      ],
    ];
    for (const [method, url, body] of adminOnly) {
      const asDoctor = await call(doctor, method, url, body);
      expect(asDoctor.statusCode, url).toBe(403);
      expect(errorOf(asDoctor).code).toBe('FORBIDDEN');
      expect((await call(null, method, url, body)).statusCode, url).toBe(401);
    }
    for (const url of [
      `/api/v1/products/get/${id}`,
      '/api/v1/products/list',
      '/api/v1/products/category/list',
      '/api/v1/products/category/1/get',
    ]) {
      expect((await call(doctor, 'GET', url)).statusCode, url).toBe(200);
      expect((await call(null, 'GET', url)).statusCode, url).toBe(401);
    }
    // The doctor's refused attempts changed nothing.
    const [guide] = await t.app.database.db.select().from(products).where(eq(products.id, id));
    expect(guide!.deletedAt).toBeNull();
    expect(guide!.code).toBe('PLAN-GUIDE');
  });
});

describe('query and get', () => {
  it('lists every product with `all`, unpublished and deleted ones included and flagged', async () => {
    const db = t.app.database.db;
    await db
      .update(products)
      .set({ deletedAt: new Date() })
      .where(eq(products.code, 'PLAN-REPORT'));
    const list = obj<AdminProduct[]>(await call(admin, 'GET', '/api/v1/products/query/all'));
    expect(list.length).toBe(await productCount());
    const draft = list.find((p) => p.code === 'PLAN-TMJ')!;
    expect([draft.texts.ptBR.publish, draft.texts.en.publish, draft.texts.es.publish]).toEqual([
      false,
      false,
      false,
    ]);
    expect(list.find((p) => p.code === 'PLAN-REPORT')!.deletedAt).not.toBeNull();
    const combo = list.find((p) => p.code === 'COMBO-GUIDE')!;
    expect(combo).toMatchObject({
      productType: 2,
      imageUrl: null,
      texts: { ptBR: { price: 80000, discount: 10 }, en: { price: 16000, discount: 10 } },
    });
    expect(combo.innerProducts).toEqual([
      await productIdByCode(db, 'PLAN-GUIDE'),
      await productIdByCode(db, 'MFG-GUIDE'),
    ]);
  });

  it('searches codes and names in every language, accents and case ignored', async () => {
    const codes = async (query: string) =>
      obj<AdminProduct[]>(
        await call(admin, 'GET', `/api/v1/products/query/${encodeURIComponent(query)}`),
      )
        .map((p) => p.code)
        .sort();
    // ptBR 'Guia cirúrgico impresso', 'Planejamento de guia cirúrgico', 'Combo guia cirúrgico'.
    expect(await codes('GUIA CIRURGICO')).toEqual(['COMBO-GUIDE', 'MFG-GUIDE', 'PLAN-GUIDE']);
    // es 'Planificación de ATM' of the unpublished draft.
    expect(await codes('planificacion de atm')).toEqual(['PLAN-TMJ']);
    expect(await codes('mfg-end')).toEqual(['MFG-ENDO']);
    expect(await codes('no such product')).toEqual([]);
  });

  it('gets a product; unpublished or deleted ones only for admins', async () => {
    const db = t.app.database.db;
    const guide = await call(
      doctor,
      'GET',
      `/api/v1/products/get/${await productIdByCode(db, 'MFG-GUIDE')}`,
    );
    expect(guide.statusCode).toBe(200);
    expect(obj<AdminProduct>(guide)).toMatchObject({
      code: 'MFG-GUIDE',
      productCategory: 3,
      enableKit: true,
      enableSleeve: true,
      shipping: true,
      qtdOption: 2,
      kindOfManufacture: 1,
      texts: { ptBR: { price: 35000 }, en: { price: 7000 } },
    });
    for (const code of ['PLAN-TMJ', 'PLAN-REPORT']) {
      const id = await productIdByCode(db, code);
      expect((await call(doctor, 'GET', `/api/v1/products/get/${id}`)).statusCode, code).toBe(404);
      expect((await call(admin, 'GET', `/api/v1/products/get/${id}`)).statusCode, code).toBe(200);
    }
    expect((await call(admin, 'GET', '/api/v1/products/get/999999')).statusCode).toBe(404);
    for (const bad of ['abc', '0', '-1', '1.5']) {
      const response = await call(admin, 'GET', `/api/v1/products/get/${bad}`);
      expect(response.statusCode, bad).toBe(400);
    }
  });
});

describe('set', () => {
  it('creates a product, then replaces it; prices and modifiedAt follow', async () => {
    const form = productForm();
    const before = Date.now();
    const created = await setProduct(admin, 0, form);
    expect(created.statusCode, created.body).toBe(200);
    const product = obj<AdminProduct>(created);
    expect(product).toMatchObject({
      code: form.code,
      productCategory: 8,
      qtdOption: 3,
      enableSleeve: true,
      kindOfManufacture: 1,
      alignment: false,
      // The base columns mirror the en texts.
      price: 2500,
      discount: 0,
      image: null,
      imageUrl: null,
      deletedAt: null,
      texts: form.texts,
    });
    expect(Date.parse(product.modifiedAt)).toBeGreaterThanOrEqual(before - 1000);
    const fetched = obj<AdminProduct>(
      await call(admin, 'GET', `/api/v1/products/get/${product.id}`),
    );
    expect(fetched).toEqual(product);

    // It is in the shop for an en doctor at its USD price.
    const shop = obj<ShopProductPage>(
      await call(doctor, 'GET', `/api/v2/shop/products?q=${form.code}`),
    );
    expect(shop.items).toEqual([
      expect.objectContaining({
        id: product.id,
        name: 'Test splint',
        price: 2500,
        currency: 'USD',
      }),
    ]);

    await new Promise((resolve) => setTimeout(resolve, 5));
    const changed = {
      ...form,
      kindOfManufacture: null,
      alignment: true,
      texts: { ...form.texts, en: { ...form.texts.en, price: 3100, publish: false } },
    };
    const updated = await setProduct(admin, product.id, changed);
    expect(updated.statusCode, updated.body).toBe(200);
    const saved = obj<AdminProduct>(updated);
    expect(saved).toMatchObject({
      id: product.id,
      price: 3100,
      kindOfManufacture: null,
      alignment: true,
      createdAt: product.createdAt,
    });
    expect(Date.parse(saved.modifiedAt)).toBeGreaterThan(Date.parse(product.modifiedAt));
    // Unpublished in en now: out of the en shop and the en list.
    const list = obj<CatalogueProduct[]>(await call(doctor, 'GET', '/api/v1/products/list'));
    expect(list.map((p) => p.id)).not.toContain(product.id);
    const [audit] = await t.app.database.db
      .select()
      .from(auditLog)
      .where(eq(auditLog.action, 'product.update'));
    expect(audit).toMatchObject({ entity: 'product', entityId: String(product.id) });
  });

  it('creates a combo of existing single products', async () => {
    const db = t.app.database.db;
    const inner = [await productIdByCode(db, 'PLAN-CROWN'), await productIdByCode(db, 'MFG-CROWN')];
    const form = productForm({ productType: 2, productCategory: 4, innerProducts: inner });
    form.texts.ptBR.discount = 20;
    const response = await setProduct(admin, 0, form);
    expect(response.statusCode, response.body).toBe(200);
    expect(obj<AdminProduct>(response)).toMatchObject({ productType: 2, innerProducts: inner });
    const shop = obj<ShopProductPage>(
      await call(doctor, 'GET', `/api/v2/shop/products?q=${form.code}`),
    );
    // en price: the parts' USD prices (2400 + 4000); discount from the en texts.
    expect(shop.items[0]).toMatchObject({ price: 6400, discount: 0, innerProducts: [{}, {}] });
  });

  it('refuses invalid forms with the field, and writes nothing', async () => {
    const db = t.app.database.db;
    const guideId = await productIdByCode(db, 'PLAN-GUIDE');
    const comboId = await productIdByCode(db, 'COMBO-GUIDE');
    const [guideBefore] = await db.select().from(products).where(eq(products.id, guideId));
    const count = await productCount();
    const { code: _code, ...withoutCode } = productForm();
    const cases: [string, object, number, string, Record<string, string>?][] = [
      ['no code', withoutCode, 400, 'VALIDATION_ERROR', { code: 'validation.required' }],
      [
        'blank code',
        productForm({ code: '  ' }),
        400,
        'VALIDATION_ERROR',
        { code: 'validation.required' },
      ],
      [
        'bad code',
        productForm({ code: 'A B' }),
        400,
        'VALIDATION_ERROR',
        { code: 'validation.alphaNum' },
      ],
      [
        'unknown category',
        productForm({ productCategory: 999 }),
        400,
        'VALIDATION_ERROR',
        { productCategory: 'validation.invalid' },
      ],
      [
        'unknown inner product',
        productForm({ productType: 2, innerProducts: [guideId, 999999] }),
        400,
        'VALIDATION_ERROR',
        { innerProducts: 'validation.invalid' },
      ],
      [
        'a combo inside a combo',
        productForm({ productType: 2, innerProducts: [guideId, comboId] }),
        400,
        'VALIDATION_ERROR',
        { innerProducts: 'validation.invalid' },
      ],
      [
        'a combo without parts',
        productForm({ productType: 2, innerProducts: [] }),
        400,
        'VALIDATION_ERROR',
        { innerProducts: 'validation.required' },
      ],
      [
        'a duplicate code',
        productForm({ code: 'MFG-GUIDE' }),
        409,
        'CODE_TAKEN',
        { code: 'validation.invalid' },
      ],
      [
        'a published language without a name',
        (() => {
          const form = productForm();
          form.texts.ptBR.name = ' ';
          return form;
        })(),
        400,
        'VALIDATION_ERROR',
        { 'texts.ptBR.name': 'validation.required' },
      ],
      [
        'a negative price',
        (() => {
          const form = productForm();
          form.texts.en.price = -1;
          return form;
        })(),
        400,
        'VALIDATION_ERROR',
        { 'texts.en.price': 'validation.min' },
      ],
      ['a float price', { ...productForm(), qtdMax: 1.5 }, 400, 'VALIDATION_ERROR'],
      ['a bad type', { ...productForm(), productType: 3 }, 400, 'VALIDATION_ERROR'],
    ];
    for (const [label, body, status, code, fields] of cases) {
      for (const id of [0, guideId]) {
        const response = await setProduct(admin, id, body);
        expect(response.statusCode, `${label} (${id})`).toBe(status);
        const error = errorOf(response);
        expect(error.code, label).toBe(code);
        expect(error.error.length, label).toBeGreaterThan(0);
        if (fields) expect(error.fields, label).toMatchObject(messages(fields));
      }
    }
    // A combo cannot contain itself.
    const self = await setProduct(
      admin,
      comboId,
      productForm({ productType: 2, innerProducts: [comboId] }),
    );
    expect(self.statusCode).toBe(400);
    expect(await productCount()).toBe(count);
    const [guideAfter] = await db.select().from(products).where(eq(products.id, guideId));
    expect(guideAfter).toEqual(guideBefore);

    expect((await setProduct(admin, 999999, productForm())).statusCode).toBe(404);
    expect((await setProduct(admin, 'abc', productForm())).statusCode).toBe(400);
    expect((await setProduct(admin, -1, productForm())).statusCode).toBe(400);
  });

  it('turns a confirmed upload into the image, served by URL; a wrong name is 404', async () => {
    const db = t.app.database.db;
    const png = await samplePng(64);
    const uploadId = await tempUpload(admin, 'productThumbnail', png);
    const created = await setProduct(admin, 0, { ...productForm(), imageUploadId: uploadId });
    expect(created.statusCode, created.body).toBe(200);
    const product = obj<AdminProduct>(created);
    expect(product.image).toMatch(
      new RegExp(`^/api/v1/products/image/${product.id}/[a-f0-9]{32}$`),
    );
    expect(product.imageUrl).toBe(product.image);
    // The temporary upload is consumed.
    expect(await attachmentRow(db, uploadId)).toBeUndefined();

    // Served without a token, as WebP, cacheable.
    const image = await t.app.inject({ method: 'GET', url: product.image! });
    expect(image.statusCode).toBe(200);
    expect(image.headers['content-type']).toBe('image/webp');
    expect(image.headers['cache-control']).toContain('max-age');
    const metadata = await sharp(image.rawPayload).metadata();
    expect(metadata).toMatchObject({ format: 'webp', width: 64, height: 64 });

    const name = product.image!.split('/').pop()!;
    const otherName = name.replace(/.$/, (c) => (c === '0' ? '1' : '0'));
    for (const url of [
      `/api/v1/products/image/${product.id}/${otherName}`,
      `/api/v1/products/image/${product.id + 1}/${name}`,
      `/api/v1/products/image/${product.id}/not-a-name`,
      `/api/v1/products/image/${product.id}/..%2F..%2Fetc`,
    ]) {
      expect((await t.app.inject({ method: 'GET', url })).statusCode, url).toBe(404);
    }
    expect(
      (await t.app.inject({ method: 'GET', url: `/api/v1/products/image/abc/${name}` })).statusCode,
    ).toBe(400);

    // It shows in the shop.
    const shop = obj<ShopProductPage>(
      await call(doctor, 'GET', `/api/v2/shop/products?q=${product.code}`),
    );
    expect(shop.items[0]!.imageUrl).toBe(product.image);

    // Saving without `imageUploadId` keeps it; a new upload replaces it (the old URL is gone);
    // null removes it.
    const kept = productForm({ code: product.code });
    const same = obj<AdminProduct>(await setProduct(admin, product.id, kept));
    expect(same.image).toBe(product.image);
    const second = await tempUpload(admin, 'productThumbnail', await samplePng(32));
    const replaced = obj<AdminProduct>(
      await setProduct(admin, product.id, { ...kept, imageUploadId: second }),
    );
    expect(replaced.image).not.toBe(product.image);
    expect((await t.app.inject({ method: 'GET', url: product.image! })).statusCode).toBe(404);
    expect((await t.app.inject({ method: 'GET', url: replaced.image! })).statusCode).toBe(200);
    const removed = obj<AdminProduct>(
      await setProduct(admin, product.id, { ...kept, imageUploadId: null }),
    );
    expect(removed).toMatchObject({ image: null, imageUrl: null });
    expect((await t.app.inject({ method: 'GET', url: replaced.image! })).statusCode).toBe(404);
  });

  it("refuses an upload that is not the caller's product image, and keeps it on a failed save", async () => {
    const db = t.app.database.db;
    const count = await productCount();
    // An avatar-kind upload, someone else's upload, an unknown id.
    const avatar = await tempUpload(admin, 'avatar', await samplePng(16));
    const valid = await tempUpload(admin, 'productThumbnail', await samplePng(16));
    const doctorsAvatar = await tempUpload(doctor, 'avatar', await samplePng(16));
    for (const uploadId of [avatar, doctorsAvatar, 999999]) {
      const response = await setProduct(admin, 0, { ...productForm(), imageUploadId: uploadId });
      expect(response.statusCode, String(uploadId)).toBe(400);
      expect(errorOf(response).fields).toEqual(messages({ imageUploadId: 'validation.invalid' }));
    }
    // A confirmed upload whose object is gone (the cleanup job) is refused the same way.
    const vanished = await tempUpload(admin, 'productThumbnail', await samplePng(16));
    await t.app.files.storage.delete((await attachmentRow(db, vanished))!.storageKey!);
    const gone = await setProduct(admin, 0, { ...productForm(), imageUploadId: vanished });
    expect(gone.statusCode).toBe(400);
    expect(errorOf(gone).fields).toEqual(messages({ imageUploadId: 'validation.invalid' }));
    // A save refused for another reason leaves the upload for the next try.
    const duplicate = await setProduct(admin, 0, {
      ...productForm({ code: 'PLAN-GUIDE' }),
      imageUploadId: valid,
    });
    expect(duplicate.statusCode).toBe(409);
    expect(await attachmentRow(db, valid)).toBeDefined();
    // Bytes that are not an image (announced as a PNG, confirmed by size only after sniffing
    // would fail, so the row is forged here): refused with 422, nothing written.
    const [forged] = await db
      .insert(attachments)
      .values({
        caseId: null,
        userId: admin.profile.id,
        bucketName: 'productThumbnail',
        attachmentType: 'generic',
        status: 'private',
        filename: 'x.png',
        filesize: 10,
        mimetype: 'image/png',
        storageKey: `temp/${admin.profile.id}/forgedforgedforgedforgedforged00`,
        uploadedAt: new Date(),
      })
      .returning({ id: attachments.id });
    await t.app.files.storage.put(
      `temp/${admin.profile.id}/forgedforgedforgedforgedforged00`,
      Buffer.from('not an image'),
      'image/png',
    );
    const broken = await setProduct(admin, 0, { ...productForm(), imageUploadId: forged!.id });
    expect(broken.statusCode).toBe(422);
    expect(errorOf(broken).code).toBe('FILE_CONTENT_MISMATCH');
    expect(await productCount()).toBe(count);
  });
});

describe('delete', () => {
  it('hides the product from the shop and lists, keeps it on old case services', async () => {
    const db = t.app.database.db;
    const id = await productIdByCode(db, 'PLAN-SMILE');
    const [service] = await db
      .select({ caseId: caseServices.caseId })
      .from(caseServices)
      .where(eq(caseServices.productId, id))
      .limit(1);
    expect(service).toBeDefined();

    const deleted = await call(admin, 'GET', `/api/v1/products/delete/${id}`);
    expect(deleted.statusCode, deleted.body).toBe(200);
    const result = obj<{ id: number; deletedAt: string }>(deleted);
    expect(result.id).toBe(id);
    expect(Number.isNaN(Date.parse(result.deletedAt))).toBe(false);
    // Deleting again answers the first deletion.
    expect(
      obj<{ deletedAt: string }>(await call(admin, 'GET', `/api/v1/products/delete/${id}`)),
    ).toEqual(result);

    const shop = obj<ShopProductPage>(await call(doctor, 'GET', '/api/v2/shop/products?q=smile'));
    expect(shop.items.map((p) => p.id)).not.toContain(id);
    const list = obj<CatalogueProduct[]>(await call(doctor, 'GET', '/api/v1/products/list'));
    expect(list.map((p) => p.id)).not.toContain(id);
    expect((await call(doctor, 'GET', `/api/v1/products/get/${id}`)).statusCode).toBe(404);

    const detail = await call(admin, 'GET', `/api/v1/case/${service!.caseId}/get`);
    expect(detail.statusCode).toBe(200);
    const services = obj<{ services: { productId: number; productName: string }[] }>(
      detail,
    ).services;
    expect(services.find((s) => s.productId === id)?.productName).toBe('Digital smile design');

    expect((await call(admin, 'GET', '/api/v1/products/delete/999999')).statusCode).toBe(404);
    expect((await call(admin, 'GET', '/api/v1/products/delete/abc')).statusCode).toBe(400);
  });
});

describe('categories', () => {
  const names = { ptBR: 'Radiologia', en: 'Radiology', es: 'Radiología' };

  it('lists, gets and sets categories; writes are admin only; inactive ones for admins', async () => {
    const list = obj<Category[]>(await call(doctor, 'GET', '/api/v1/products/category/list'));
    expect(list.map((c) => c.id)).toEqual([1, 2, 3, 4, 5, 6, 7, 8]);
    expect(list[2]).toMatchObject({
      id: 3,
      name: { en: 'Guided implant surgery', ptBR: 'Cirurgia guiada de implantes' },
      active: true,
    });
    const one = await call(doctor, 'GET', '/api/v1/products/category/3/get');
    expect(obj<Category>(one)).toEqual(list[2]);

    const created = await call(admin, 'POST', '/api/v1/products/category/set/0', {
      name: names,
      active: false,
    });
    expect(created.statusCode, created.body).toBe(200);
    const category = obj<Category>(created);
    expect(category).toMatchObject({ id: 9, name: names, active: false });
    // Inactive: only admins list it (anyone may still get it by id).
    expect(
      obj<Category[]>(await call(doctor, 'GET', '/api/v1/products/category/list')).map((c) => c.id),
    ).not.toContain(9);
    expect(
      obj<Category[]>(await call(admin, 'GET', '/api/v1/products/category/list')).map((c) => c.id),
    ).toContain(9);

    const renamed = await call(admin, 'POST', '/api/v1/products/category/set/9', {
      name: { ...names, en: 'Radiology reports' },
      active: true,
    });
    expect(obj<Category>(renamed)).toMatchObject({
      id: 9,
      name: { en: 'Radiology reports' },
      active: true,
    });
    expect(
      obj<Category[]>(await call(doctor, 'GET', '/api/v1/products/category/list')).map((c) => c.id),
    ).toContain(9);
    // The next one gets the next id.
    const next = await call(admin, 'POST', '/api/v1/products/category/set/0', {
      name: names,
      active: true,
    });
    expect(obj<Category>(next).id).toBe(10);
  });

  it('refuses bad input and unknown ids', async () => {
    expect((await call(doctor, 'GET', '/api/v1/products/category/999/get')).statusCode).toBe(404);
    expect((await call(doctor, 'GET', '/api/v1/products/category/abc/get')).statusCode).toBe(400);
    const unknown = await call(admin, 'POST', '/api/v1/products/category/set/999', {
      name: names,
      active: true,
    });
    expect(unknown.statusCode).toBe(404);
    const missing = await call(admin, 'POST', '/api/v1/products/category/set/1', {
      name: { ptBR: 'Ortodontia', en: 'Orthodontics' },
      active: true,
    });
    expect(missing.statusCode).toBe(400);
    expect(errorOf(missing).fields).toMatchObject({ 'name.es': expect.any(String) });
    const blank = await call(admin, 'POST', '/api/v1/products/category/set/1', {
      name: { ...names, ptBR: ' ' },
      active: true,
    });
    expect(errorOf(blank).fields).toMatchObject(messages({ 'name.ptBR': 'validation.required' }));
    expect(
      (await call(admin, 'POST', '/api/v1/products/category/set/x', { name: names, active: true }))
        .statusCode,
    ).toBe(400);
    // Nothing changed on the refused writes.
    const first = obj<Category>(await call(doctor, 'GET', '/api/v1/products/category/1/get'));
    expect(first.name).toEqual({ ptBR: 'Ortodontia', en: 'Orthodontics', es: 'Ortodoncia' });
  });
});

describe('on PGlite (the embedded default), seeded with a storage', () => {
  it('demo products have generated images; saves and category creation work', async () => {
    const embedded = await startTestApp({}, { pglite: true });
    try {
      const session = await login(embedded.app, 'admin');
      const list = json<{ obj: AdminProduct[] }>(
        await embedded.app.inject({
          method: 'GET',
          url: '/api/v1/products/query/all',
          headers: bearer(session),
        }),
      ).obj;
      expect(list.length).toBeGreaterThan(10);
      const urls = list.map((p) => p.imageUrl);
      expect(urls.every((url) => url !== null)).toBe(true);
      expect(new Set(urls).size).toBe(urls.length);
      const image = await embedded.app.inject({ method: 'GET', url: urls[0]! });
      expect(image.statusCode).toBe(200);
      expect((await sharp(image.rawPayload).metadata()).format).toBe('webp');

      const category = await embedded.app.inject({
        method: 'POST',
        url: '/api/v1/products/category/set/0',
        headers: bearer(session),
        payload: { name: { ptBR: 'Nova', en: 'New', es: 'Nueva' }, active: true },
      });
      expect(category.statusCode, category.body).toBe(200);
      const guide = list.find((p) => p.code === 'MFG-GUIDE')!;
      const {
        id: _id,
        image: _image,
        imageUrl: _url,
        createdAt: _c,
        modifiedAt: _m,
        deletedAt: _d,
        price: _p,
        discount: _dc,
        ...form
      } = guide;
      const saved = await embedded.app.inject({
        method: 'POST',
        url: `/api/v1/products/set/${guide.id}`,
        headers: bearer(session),
        payload: {
          ...form,
          productCategory: json<{ obj: Category }>(category).obj.id,
          imageUploadId: null,
        },
      });
      expect(saved.statusCode, saved.body).toBe(200);
      expect(json<{ obj: AdminProduct }>(saved).obj).toMatchObject({ image: null });
      expect((await embedded.app.inject({ method: 'GET', url: guide.imageUrl! })).statusCode).toBe(
        404,
      );
    } finally {
      await embedded.close();
    }
  });
});
