import { existsSync, mkdirSync, utimesSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { eq, sql } from 'drizzle-orm';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { attachments } from '../src/db/schema';
import { consumeTempUpload } from '../src/modules/attachments/temp-uploads';
import {
  announce,
  attachmentRow,
  createCase,
  multipartBody,
  postLocal,
  samplePng,
  uploadFile,
  userIdOf,
  type Announced,
} from './support/storage-fixtures';
import { bearer, json, login, startTestApp, type Session, type TestApp } from './support/test-app';

let t: TestApp;
let doctor: Session;
let clinic: Session;
let admin: Session;
let caseId: number;

beforeAll(async () => {
  t = await startTestApp();
  [doctor, clinic, admin] = (await Promise.all(
    ['doctor', 'clinic', 'admin'].map((name) => login(t.app, name)),
  )) as [Session, Session, Session];
  const db = t.app.database.db;
  caseId = await createCase(db, { ownerId: await userIdOf(db, 'doctor') });
});

afterAll(async () => {
  await t?.close();
});

const objectPath = (key: string) => join(t.dataDir, 'files', ...key.split('/'));
const age = (id: number, hours: number) =>
  t.app.database.db
    .update(attachments)
    .set({ createdAt: sql`now() - make_interval(hours => ${hours})` })
    .where(eq(attachments.id, id));

function createTemp(session: Session, body: object) {
  return t.app.inject({
    method: 'POST',
    url: '/api/v1/attachment/create/temp',
    headers: bearer(session),
    payload: body,
  });
}

describe('temporary files', () => {
  it('anyone uploads an avatar-kind temp file; only admins a product image; case kinds refused', async () => {
    const png = await samplePng();
    expect(
      (
        await createTemp(doctor, {
          filename: 'p.png',
          filesize: 10,
          attachment_name: 'productThumbnail',
        })
      ).statusCode,
    ).toBe(403);
    expect(
      (await createTemp(doctor, { filename: 'p.png', filesize: 10, attachment_name: 'planning' }))
        .statusCode,
    ).toBe(400);
    expect(
      (
        await createTemp(admin, {
          filename: 'p.png',
          filesize: 10,
          attachment_name: 'productThumbnail',
        })
      ).statusCode,
    ).toBe(200);
    const created = await createTemp(doctor, {
      filename: 'me.png',
      filesize: png.length,
      attachment_name: 'avatar',
    });
    const { attachment, upload } = json<{ obj: Announced }>(created).obj;
    expect(attachment.caseId).toBeNull();
    expect(upload.fields.key).toMatch(/^uploads\/temp\/\d+\/[a-f0-9]{32}$/);
    expect((await postLocal(t.app, upload, png)).statusCode).toBe(204);
    expect(
      (
        await t.app.inject({
          method: 'GET',
          url: `/api/v1/attachment/uploadedSuccess/${attachment.id}`,
          headers: bearer(clinic),
        })
      ).statusCode,
    ).toBe(404);
    const confirmed = await t.app.inject({
      method: 'GET',
      url: `/api/v1/attachment/uploadedSuccess/${attachment.id}`,
      headers: bearer(doctor),
    });
    expect(confirmed.statusCode).toBe(200);
    expect(
      (
        await t.app.inject({
          method: 'GET',
          url: `/api/v1/attachment/${attachment.id}/get`,
          headers: bearer(doctor),
        })
      ).statusCode,
    ).toBe(200);
    expect(
      (
        await t.app.inject({
          method: 'GET',
          url: `/api/v1/attachment/${attachment.id}/get`,
          headers: bearer(clinic),
        })
      ).statusCode,
    ).toBe(404);
  });
});

describe('consuming a temp upload (product image)', () => {
  it('moves the confirmed file to its key and removes the temp row; only for its uploader', async () => {
    const png = await samplePng();
    const created = await createTemp(admin, {
      filename: 'product.png',
      filesize: png.length,
      attachment_name: 'productThumbnail',
    });
    const { attachment, upload } = json<{ obj: Announced }>(created).obj;
    await postLocal(t.app, upload, png);
    const ctx = { db: t.app.database.db, storage: t.app.files.storage };
    const adminId = await userIdOf(t.app.database.db, 'admin');
    // Not yet confirmed.
    await expect(
      consumeTempUpload(ctx, adminId, attachment.id, 'productThumbnail', 'products/1/img'),
    ).rejects.toMatchObject({ statusCode: 404 });
    await t.app.inject({
      method: 'GET',
      url: `/api/v1/attachment/uploadedSuccess/${attachment.id}`,
      headers: bearer(admin),
    });
    const confirmedKey = (await attachmentRow(t.app.database.db, attachment.id))!.storageKey!;
    expect(existsSync(objectPath(confirmedKey))).toBe(true);
    await expect(
      consumeTempUpload(ctx, adminId + 1, attachment.id, 'productThumbnail', 'products/1/img'),
    ).rejects.toMatchObject({ statusCode: 404 });
    const moved = await consumeTempUpload(
      ctx,
      adminId,
      attachment.id,
      'productThumbnail',
      'products/1/img',
    );
    expect(moved).toMatchObject({ key: 'products/1/img', mimetype: 'image/png', size: png.length });
    expect((await t.app.files.storage.readFirstBytes('products/1/img', 1000)).equals(png)).toBe(
      true,
    );
    expect(await attachmentRow(t.app.database.db, attachment.id)).toBeUndefined();
    expect(existsSync(objectPath(upload.fields.key!))).toBe(false);
    expect(existsSync(objectPath(confirmedKey))).toBe(false);
  });
});

describe('the cleanup job', () => {
  it('removes unconfirmed uploads and temp files older than 24 h with their objects, and partial uploads', async () => {
    const png = await samplePng();
    // An old unconfirmed upload whose file did arrive.
    const old = json<{ obj: Announced }>(
      await announce(t.app, doctor, caseId, {
        filename: 'a.png',
        filesize: png.length,
        attachment_name: 'photoProtocol.generic',
      }),
    ).obj;
    await postLocal(t.app, old.upload, png);
    await age(old.attachment.id, 25);
    // A fresh unconfirmed upload stays.
    const fresh = json<{ obj: Announced }>(
      await announce(t.app, doctor, caseId, {
        filename: 'b.png',
        filesize: png.length,
        attachment_name: 'photoProtocol.generic',
      }),
    ).obj;
    // An old confirmed case file stays.
    const kept = await uploadFile(t.app, doctor, caseId, 'photoProtocol.generic', 'c.png', png);
    await age(kept.attachment.id, 48);
    // An old temp file goes.
    const temp = json<{ obj: Announced }>(
      await createTemp(doctor, {
        filename: 'me.png',
        filesize: png.length,
        attachment_name: 'avatar',
      }),
    ).obj;
    await postLocal(t.app, temp.upload, png);
    await age(temp.attachment.id, 30);
    // A partial upload left in the local store's temp folder.
    const tmpDir = join(t.dataDir, 'files', '.tmp');
    mkdirSync(tmpDir, { recursive: true });
    const partial = join(tmpDir, 'interrupted');
    writeFileSync(partial, 'half');
    const dayAgo = new Date(Date.now() - 25 * 3600_000);
    utimesSync(partial, dayAgo, dayAgo);
    const recentPartial = join(tmpDir, 'in-progress');
    writeFileSync(recentPartial, 'half');

    const result = await t.app.files.cleanup();
    expect(result.rows).toBeGreaterThanOrEqual(2);
    expect(result.tempFiles).toBe(1);

    const db = t.app.database.db;
    expect(await attachmentRow(db, old.attachment.id)).toBeUndefined();
    expect(existsSync(objectPath(old.upload.fields.key!))).toBe(false);
    expect(await attachmentRow(db, temp.attachment.id)).toBeUndefined();
    expect(existsSync(objectPath(temp.upload.fields.key!))).toBe(false);
    expect((await attachmentRow(db, fresh.attachment.id))?.status).toBe('uploading');
    expect((await attachmentRow(db, kept.attachment.id))?.status).toBe('public');
    expect(existsSync(partial)).toBe(false);
    expect(existsSync(recentPartial)).toBe(true);
  });

  it('retries the object of a deleted file that could not be removed', async () => {
    const png = await samplePng();
    const { attachment } = await uploadFile(
      t.app,
      doctor,
      caseId,
      'photoProtocol.generic',
      'd.png',
      png,
    );
    const db = t.app.database.db;
    const row = await attachmentRow(db, attachment.id);
    await db
      .update(attachments)
      .set({ deletedAt: new Date() })
      .where(eq(attachments.id, attachment.id));
    expect(existsSync(objectPath(row!.storageKey!))).toBe(true);
    await t.app.files.cleanup();
    expect(existsSync(objectPath(row!.storageKey!))).toBe(false);
    expect((await attachmentRow(db, attachment.id))?.storageKey).toBeNull();
  });
});

describe('avatar', () => {
  const postAvatar = async (session: Session, file: Buffer, name = 'me.png') => {
    const { payload, headers } = await multipartBody({}, file, name);
    return t.app.inject({
      method: 'POST',
      url: '/api/v1/profile/avatar',
      payload,
      headers: { ...headers, ...bearer(session) },
    });
  };

  it('stores a 256 px square WebP, shown without a token; a new one replaces it', async () => {
    const photo = await sharp({
      create: { width: 600, height: 400, channels: 3, background: { r: 1, g: 2, b: 3 } },
    })
      .jpeg()
      .toBuffer();
    const response = await postAvatar(doctor, photo, 'me.jpg');
    expect(response.statusCode).toBe(200);
    const { avatar } = json<{ obj: { avatar: string } }>(response).obj;
    expect(avatar).toMatch(/^\/api\/v1\/profile\/avatar\/\d+\/[a-f0-9]{32}$/);

    const image = await t.app.inject({ method: 'GET', url: avatar });
    expect(image.statusCode).toBe(200);
    expect(image.headers['content-type']).toBe('image/webp');
    const meta = await sharp(image.rawPayload).metadata();
    expect([meta.format, meta.width, meta.height]).toEqual(['webp', 256, 256]);

    const profile = await t.app.inject({
      method: 'GET',
      url: '/api/v1/profile/get',
      headers: bearer(doctor),
    });
    expect(JSON.stringify(profile.json())).toContain(avatar);

    const second = json<{ obj: { avatar: string } }>(
      await postAvatar(doctor, await samplePng(50)),
    ).obj;
    expect(second.avatar).not.toBe(avatar);
    expect((await t.app.inject({ method: 'GET', url: avatar })).statusCode).toBe(404);
    expect((await t.app.inject({ method: 'GET', url: second.avatar })).statusCode).toBe(200);
  });

  it.each([
    [
      'too large',
      () => Buffer.concat([Buffer.from([0x89, 0x50, 0x4e, 0x47]), Buffer.alloc(800 * 1024 + 10)]),
      413,
      'FILE_TOO_LARGE',
    ],
    ['not an image', () => Buffer.from('hello, I am text'), 415, 'FILE_TYPE_NOT_ALLOWED'],
    ['an STL', () => Buffer.alloc(184), 415, 'FILE_TYPE_NOT_ALLOWED'],
  ])('%s → %i', async (_name, file, status, code) => {
    const response = await postAvatar(clinic, file());
    expect(response.statusCode).toBe(status);
    expect((response.json() as { code: string }).code).toBe(code);
  });

  it('only admins remove an avatar', async () => {
    const doctorId = await userIdOf(t.app.database.db, 'doctor');
    const current = json<{ obj: { avatar: string } }>(await postAvatar(doctor, await samplePng(30)))
      .obj.avatar;
    const refused = await t.app.inject({
      method: 'DELETE',
      url: `/api/v1/users/${doctorId}/avatar`,
      headers: bearer(doctor),
    });
    expect(refused.statusCode).toBe(403);
    const removed = await t.app.inject({
      method: 'DELETE',
      url: `/api/v1/users/${doctorId}/avatar`,
      headers: bearer(admin),
    });
    expect(removed.statusCode).toBe(200);
    expect(json(removed)).toEqual({ obj: { avatar: null } });
    expect((await t.app.inject({ method: 'GET', url: current })).statusCode).toBe(404);
    expect(
      (
        await t.app.inject({
          method: 'DELETE',
          url: '/api/v1/users/999999/avatar',
          headers: bearer(admin),
        })
      ).statusCode,
    ).toBe(404);
  });
});
