import type { CaseDetail } from '@dentflow/domain';
import { existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { caseEvents } from '../src/db/schema';
import {
  announce,
  attachmentRow,
  createCase,
  postLocal,
  sampleDicom,
  samplePng,
  sampleStl,
  uploadFile,
  userIdOf,
  withConfirmationRefused,
  type Announced,
} from './support/storage-fixtures';
import { bearer, json, login, startTestApp, type Session, type TestApp } from './support/test-app';

let t: TestApp;
let doctor: Session;
let clinic: Session;
let caseId: number;

const filesDir = () => join(t.dataDir, 'files');
/** The case's objects: uploads waiting for confirmation and confirmed files. */
const storedFiles = (): string[] =>
  [join(filesDir(), 'uploads', 'cases', String(caseId)), join(filesDir(), 'cases', String(caseId))]
    .filter((dir) => existsSync(dir))
    .flatMap((dir) => readdirSync(dir));

beforeAll(async () => {
  t = await startTestApp();
  doctor = await login(t.app, 'doctor');
  clinic = await login(t.app, 'clinic');
  const db = t.app.database.db;
  caseId = await createCase(db, { ownerId: await userIdOf(db, 'doctor'), categoryId: 3 });
});

afterAll(async () => {
  await t?.close();
});

const readCase = async (id: number) => {
  const response = await t.app.inject({
    method: 'GET',
    url: `/api/v1/case/${id}/get`,
    headers: bearer(doctor),
  });
  return json<{ obj: Pick<CaseDetail, 'modifiedAt' | 'checks'> }>(response).obj;
};
/** A photo announced by the doctor and received by the local store, not confirmed yet. */
async function receivedPng() {
  const png = await samplePng(12);
  const created = await announce(t.app, doctor, caseId, {
    filename: 'x.png',
    filesize: png.length,
    attachment_name: 'photoProtocol.generic',
  });
  const { attachment, upload } = json<{ obj: Announced }>(created).obj;
  expect((await postLocal(t.app, upload, png)).statusCode).toBe(204);
  return { png, attachment, upload };
}
const errorOf = (response: { json(): unknown }) =>
  response.json() as { code: string; fields?: object };

describe('createPostUrl refuses bad announcements, storing nothing', () => {
  it.each([
    [
      'unknown kind',
      { filename: 'a.jpg', filesize: 10, attachment_name: 'photoProtocol.smileForced' },
      400,
      'UNKNOWN_ATTACHMENT_KIND',
    ],
    [
      'unknown bucket',
      { filename: 'a.jpg', filesize: 10, attachment_name: 'receipts' },
      400,
      'UNKNOWN_ATTACHMENT_KIND',
    ],
    [
      'temp bucket on a case',
      { filename: 'a.jpg', filesize: 10, attachment_name: 'avatar' },
      400,
      'UNKNOWN_ATTACHMENT_KIND',
    ],
    [
      'wrong type',
      { filename: 'scan.stl', filesize: 10, attachment_name: 'photoProtocol.naturalSmile' },
      415,
      'FILE_TYPE_NOT_ALLOWED',
    ],
    [
      'no extension',
      { filename: 'scan', filesize: 10, attachment_name: 'exams.upperJawStl' },
      415,
      'FILE_TYPE_NOT_ALLOWED',
    ],
    [
      'mimetype disagrees',
      {
        filename: 'a.jpg',
        filesize: 10,
        attachment_name: 'photoProtocol.naturalSmile',
        mimetype: 'image/png',
      },
      415,
      'FILE_TYPE_NOT_ALLOWED',
    ],
    [
      'too large',
      {
        filename: 'a.jpg',
        filesize: 30 * 1024 * 1024 + 1,
        attachment_name: 'photoProtocol.naturalSmile',
      },
      413,
      'FILE_TOO_LARGE',
    ],
    [
      'too large exam',
      { filename: 'a.stl', filesize: 1024 ** 3 + 1, attachment_name: 'exams.upperJawStl' },
      413,
      'FILE_TOO_LARGE',
    ],
    [
      'empty file',
      { filename: 'a.jpg', filesize: 0, attachment_name: 'photoProtocol.naturalSmile' },
      400,
      'VALIDATION_ERROR',
    ],
    ['missing filename', { filesize: 10, attachment_name: 'planning' }, 400, 'VALIDATION_ERROR'],
  ])('%s → %i %s', async (_name, body, status, code) => {
    const response = await announce(t.app, doctor, caseId, body as never);
    expect(response.statusCode).toBe(status);
    expect(errorOf(response).code).toBe(code);
    expect(storedFiles()).toEqual([]);
  });

  it('an unknown case or one the caller cannot see → 404', async () => {
    const body = { filename: 'a.png', filesize: 10, attachment_name: 'photoProtocol.naturalSmile' };
    expect((await announce(t.app, clinic, caseId, body)).statusCode).toBe(404);
    expect((await announce(t.app, doctor, 999_999, body)).statusCode).toBe(404);
  });

  it('without a token → 401', async () => {
    const response = await t.app.inject({
      method: 'POST',
      url: `/api/v1/attachment/createPostUrl/${caseId}`,
      payload: { filename: 'a.png', filesize: 10, attachment_name: 'planning' },
    });
    expect(response.statusCode).toBe(401);
  });
});

describe('an upload end to end (local store)', () => {
  it('creates an uploading row, stores the file, confirms it as public, downloads it byte for byte', async () => {
    const png = await samplePng(16);
    const created = await announce(t.app, doctor, caseId, {
      filename: 'sorriso forçado.png',
      filesize: png.length,
      attachment_name: 'photoProtocol.forcedSmile',
    });
    expect(created.statusCode).toBe(200);
    const { attachment, upload } = json<{ obj: Announced }>(created).obj;
    expect(attachment).toMatchObject({ status: 'uploading', url: null, caseId });
    expect(upload.url).toBe('/api/v1/storage/upload');
    expect(upload.fields.key).toMatch(new RegExp(`^uploads/cases/${caseId}/[a-f0-9]{32}$`));
    expect(upload.fields.key).not.toContain('sorriso');

    // Before the file arrives the confirmation is refused and the row kept.
    const early = await t.app.inject({
      method: 'GET',
      url: `/api/v1/attachment/uploadedSuccess/${attachment.id}`,
      headers: bearer(doctor),
    });
    expect(early.statusCode).toBe(409);
    expect(errorOf(early).code).toBe('UPLOAD_NOT_FOUND');
    expect((await attachmentRow(t.app.database.db, attachment.id))?.status).toBe('uploading');

    // Another user cannot confirm it.
    const posted = await postLocal(t.app, upload, png);
    expect(posted.statusCode).toBe(204);
    const foreign = await t.app.inject({
      method: 'GET',
      url: `/api/v1/attachment/uploadedSuccess/${attachment.id}`,
      headers: bearer(clinic),
    });
    expect(foreign.statusCode).toBe(404);

    const caseBefore = await readCase(caseId);
    const confirmed = await t.app.inject({
      method: 'GET',
      url: `/api/v1/attachment/uploadedSuccess/${attachment.id}`,
      headers: bearer(doctor),
    });
    expect(confirmed.statusCode).toBe(200);
    // The case changed with it: a newer modifiedAt (clients replace their copy) and its checks.
    const caseAfter = await readCase(caseId);
    expect(Date.parse(caseAfter.modifiedAt)).toBeGreaterThan(Date.parse(caseBefore.modifiedAt));
    // One photo: the client has a public file, the guided surgery's scans and CT still miss.
    expect(caseAfter.checks.attachments).toBe(false);
    expect(caseAfter.checks.missingSlots.map((slot) => slot.attachmentType)).toEqual([
      'upperJawStl',
      'lowerJawStl',
      'dicom',
    ]);
    const { obj } = json<{ obj: { attachment: Announced['attachment']; url: string } }>(confirmed);
    expect(obj.attachment).toMatchObject({
      status: 'public',
      mimetype: 'image/png',
      filesize: png.length,
      // Category 3 requires the scans and the CT, not the photo protocol (decision 012).
      required: false,
    });
    expect(obj.url).toMatch(/^\/api\/v1\/storage\/download\?t=/);

    const download = await t.app.inject({ method: 'GET', url: obj.url });
    expect(download.statusCode).toBe(200);
    expect(download.headers['content-type']).toBe('image/png');
    expect(download.headers['content-disposition']).toBe(
      `inline; filename="sorriso for_ado.png"; filename*=UTF-8''sorriso%20for%C3%A7ado.png`,
    );
    expect(download.rawPayload.equals(png)).toBe(true);

    // The download route redirects to a fresh signed URL.
    const redirect = await t.app.inject({
      method: 'GET',
      url: `/api/v1/attachment/${attachment.id}/download`,
      headers: bearer(doctor),
    });
    expect(redirect.statusCode).toBe(302);
    expect(redirect.headers.location).toMatch(/^\/api\/v1\/storage\/download\?t=/);

    const events = await t.app.database.db
      .select()
      .from(caseEvents)
      .where(eq(caseEvents.caseId, caseId));
    expect(events.map((e) => e.action)).toContain('attachmentAdded');
  });

  it.each([
    [
      'a text file named .png',
      'photoProtocol.naturalSmile',
      'x.png',
      Buffer.from('not an image at all, only words'),
    ],
    ['a jpeg-named png', 'photoProtocol.naturalSmile', 'x.jpg', null],
    [
      'a broken binary STL',
      'exams.upperJawStl',
      'upper.stl',
      Buffer.concat([sampleStl(3), Buffer.from('xx')]),
    ],
    ['a DICOM without DICM', 'exams.dicom', 'ct.dcm', Buffer.alloc(300)],
    ['a zip that is not', 'exams.dicom', 'ct.zip', Buffer.from('PX\x03\x04 nope')],
  ])('%s: 422, object and row removed', async (_name, kind, filename, content) => {
    const file = content ?? (await samplePng());
    const before = storedFiles().length;
    const created = await announce(t.app, doctor, caseId, {
      filename,
      filesize: file.length,
      attachment_name: kind,
    });
    expect(created.statusCode).toBe(200);
    const { attachment, upload } = json<{ obj: Announced }>(created).obj;
    expect((await postLocal(t.app, upload, file)).statusCode).toBe(204);
    const confirmed = await t.app.inject({
      method: 'GET',
      url: `/api/v1/attachment/uploadedSuccess/${attachment.id}`,
      headers: bearer(doctor),
    });
    expect(confirmed.statusCode).toBe(422);
    expect(errorOf(confirmed).code).toBe('FILE_CONTENT_MISMATCH');
    expect(await attachmentRow(t.app.database.db, attachment.id)).toBeUndefined();
    expect(storedFiles().length).toBe(before);
  });

  it('accepts binary and ASCII STL, DICOM and a zip series', async () => {
    const ascii = Buffer.from('solid arch\n facet normal 0 0 1\n endfacet\nendsolid arch\n');
    const zip = Buffer.concat([Buffer.from([0x50, 0x4b, 0x03, 0x04]), Buffer.alloc(40)]);
    for (const [kind, name, file] of [
      ['exams.upperJawStl', 'upper.stl', sampleStl(20)],
      ['exams.lowerJawStl', 'lower.STL', ascii],
      ['exams.dicom', 'ct.dcm', sampleDicom()],
      ['exams.dicom', 'series.zip', zip],
    ] as const) {
      const { attachment } = await uploadFile(t.app, doctor, caseId, kind, name, file);
      expect(attachment).toMatchObject({ status: 'public', required: true });
    }
  });

  it('confirms several uploads of one case at the same time (no deadlock, no 500)', async () => {
    const png = await samplePng();
    const announced = await Promise.all(
      Array.from({ length: 8 }, async () => {
        const created = await announce(t.app, doctor, caseId, {
          filename: 'photo.png',
          filesize: png.length,
          attachment_name: 'photoProtocol.generic',
        });
        const { upload, attachment } = json<{ obj: Announced }>(created).obj;
        expect((await postLocal(t.app, upload, png)).statusCode).toBe(204);
        return attachment.id;
      }),
    );
    const confirmed = await Promise.all(
      announced.map((id) =>
        t.app.inject({
          method: 'GET',
          url: `/api/v1/attachment/uploadedSuccess/${id}`,
          headers: bearer(doctor),
        }),
      ),
    );
    expect(confirmed.map((response) => response.statusCode)).toEqual(announced.map(() => 200));
  });

  it('a size different from the announced one is refused by the store', async () => {
    const png = await samplePng();
    const created = await announce(t.app, doctor, caseId, {
      filename: 'x.png',
      filesize: png.length + 10,
      attachment_name: 'photoProtocol.generic',
    });
    const { upload } = json<{ obj: Announced }>(created).obj;
    const posted = await postLocal(t.app, upload, png);
    expect(posted.statusCode).toBe(400);
    expect(errorOf(posted).code).toBe('UPLOAD_SIZE_MISMATCH');
    const bigger = await postLocal(t.app, upload, Buffer.concat([png, Buffer.alloc(11)]));
    expect(bigger.statusCode).toBe(413);
    expect(existsSync(join(filesDir(), ...upload.fields.key!.split('/')))).toBe(false);
  });
});

describe('a confirmed upload is immutable (local store)', () => {
  /** The same PNG header and size, other pixels: passes the type check, other content. */
  const forgeryOf = (png: Buffer) =>
    Buffer.concat([png.subarray(0, 16), Buffer.alloc(png.length - 16, 0x41)]);

  it('replaying the policy after the confirmation → 409 UPLOAD_ALREADY_RECEIVED; the download is the checked file', async () => {
    const { png, attachment, upload } = await receivedPng();
    const confirmed = await t.app.inject({
      method: 'GET',
      url: `/api/v1/attachment/uploadedSuccess/${attachment.id}`,
      headers: bearer(doctor),
    });
    expect(confirmed.statusCode).toBe(200);
    // Served from a key no policy names.
    const served = (await attachmentRow(t.app.database.db, attachment.id))!.storageKey!;
    expect(served).toMatch(new RegExp(`^cases/${caseId}/[a-f0-9]{32}$`));
    expect(served).not.toBe(upload.fields.key);

    const replay = await postLocal(t.app, upload, forgeryOf(png));
    expect(replay.statusCode).toBe(409);
    expect(replay.json()).toMatchObject({
      code: 'UPLOAD_ALREADY_RECEIVED',
      error: expect.stringContaining('already received'),
    });
    expect(existsSync(join(filesDir(), ...upload.fields.key!.split('/')))).toBe(false);

    const redirect = await t.app.inject({
      method: 'GET',
      url: `/api/v1/attachment/${attachment.id}/download`,
      headers: bearer(doctor),
    });
    const download = await t.app.inject({ method: 'GET', url: redirect.headers.location! });
    expect(download.statusCode).toBe(200);
    expect(download.rawPayload.equals(png)).toBe(true);
  });

  it('a second write before the confirmation → 409; the confirmation checks and serves the first', async () => {
    const { png, attachment, upload } = await receivedPng();
    const second = await postLocal(t.app, upload, forgeryOf(png));
    expect(second.statusCode).toBe(409);
    expect(errorOf(second).code).toBe('UPLOAD_ALREADY_RECEIVED');
    const { url } = json<{ obj: { url: string } }>(
      await t.app.inject({
        method: 'GET',
        url: `/api/v1/attachment/uploadedSuccess/${attachment.id}`,
        headers: bearer(doctor),
      }),
    ).obj;
    expect((await t.app.inject({ method: 'GET', url })).rawPayload.equals(png)).toBe(true);
  });

  it('concurrent confirmations: one object is served, no copy is left behind', async () => {
    const { attachment } = await receivedPng();
    const before = storedFiles().length;
    const answers = await Promise.all(
      [1, 2, 3].map(() =>
        t.app.inject({
          method: 'GET',
          url: `/api/v1/attachment/uploadedSuccess/${attachment.id}`,
          headers: bearer(doctor),
        }),
      ),
    );
    expect(answers.map((a) => a.statusCode)).toContain(200);
    for (const a of answers) expect([200, 409]).toContain(a.statusCode);
    // The upload left its staging key for exactly one served key.
    expect(storedFiles().length).toBe(before);
    const row = await attachmentRow(t.app.database.db, attachment.id);
    expect(row?.status).toBe('public');
    expect(existsSync(join(filesDir(), ...row!.storageKey!.split('/')))).toBe(true);
  });
});

describe('a confirmation that fails after the move', () => {
  const confirm = (id: number) =>
    t.app.inject({
      method: 'GET',
      url: `/api/v1/attachment/uploadedSuccess/${id}`,
      headers: bearer(doctor),
    });

  it('puts the file back at its staging key: the retried confirmation serves it', async () => {
    const { png, attachment, upload } = await receivedPng();
    const staged = join(filesDir(), ...upload.fields.key!.split('/'));
    const before = storedFiles().length;
    const db = t.app.database.db;
    const failed = await withConfirmationRefused(db, attachment.id, () => confirm(attachment.id));
    expect(failed.statusCode).toBe(500);
    expect((await attachmentRow(db, attachment.id))?.status).toBe('uploading');
    expect(existsSync(staged)).toBe(true);
    expect(storedFiles().length).toBe(before);

    const retried = await confirm(attachment.id);
    expect(retried.statusCode).toBe(200);
    const { url } = json<{ obj: { url: string } }>(retried).obj;
    expect((await t.app.inject({ method: 'GET', url })).rawPayload.equals(png)).toBe(true);
    expect(existsSync(staged)).toBe(false);
    expect(storedFiles().length).toBe(before);
  });
});

describe('cancelling an upload', () => {
  it('the uploader deletes an unconfirmed upload with its object; nobody else sees it', async () => {
    const png = await samplePng();
    const created = await announce(t.app, doctor, caseId, {
      filename: 'x.png',
      filesize: png.length,
      attachment_name: 'photoProtocol.generic',
    });
    const { attachment, upload } = json<{ obj: Announced }>(created).obj;
    await postLocal(t.app, upload, png);
    const path = join(filesDir(), ...upload.fields.key!.split('/'));
    expect(existsSync(path)).toBe(true);
    const foreign = await t.app.inject({
      method: 'DELETE',
      url: `/api/v1/attachment/${attachment.id}/delete`,
      headers: bearer(clinic),
    });
    expect(foreign.statusCode).toBe(404);
    const cancelled = await t.app.inject({
      method: 'DELETE',
      url: `/api/v1/attachment/${attachment.id}/delete`,
      headers: bearer(doctor),
    });
    expect(cancelled.statusCode).toBe(200);
    expect(existsSync(path)).toBe(false);
    expect(await attachmentRow(t.app.database.db, attachment.id)).toBeUndefined();
  });
});

describe('OpenAPI', () => {
  it('documents the attachment and storage routes', async () => {
    const doc = (await t.app.inject({ method: 'GET', url: '/api/docs/json' })).json() as {
      paths: Record<string, unknown>;
    };
    for (const path of [
      '/api/v1/attachment/case/{caseId}/list',
      '/api/v1/attachment/createPostUrl/{caseId}',
      '/api/v1/attachment/uploadedSuccess/{id}',
      '/api/v1/attachment/{id}/request4Change',
      '/api/v1/storage/upload',
      '/api/v1/profile/avatar',
    ]) {
      expect(doc.paths).toHaveProperty([path]);
    }
  });
});

describe('the case list', () => {
  it('lists visible files with actions and the empty required slots', async () => {
    const response = await t.app.inject({
      method: 'GET',
      url: `/api/v1/attachment/case/${caseId}/list`,
      headers: bearer(doctor),
    });
    expect(response.statusCode).toBe(200);
    const { obj } = json<{
      obj: {
        items: { attachmentType: string; actions: string[]; url: string }[];
        slots: { labelKey: string; canUpload: boolean }[];
        uploadBuckets: string[];
      };
    }>(response);
    expect(obj.items.length).toBeGreaterThanOrEqual(5);
    expect(obj.items.every((item) => item.actions.includes('delete') && item.url)).toBe(true);
    // Category 3: both jaws and the CT are filled by the uploads above; no slot is left.
    expect(obj.slots).toEqual([]);
    expect(obj.uploadBuckets).toEqual(['photoProtocol', 'exams']);
  });

  it('shows the required slots of an empty case', async () => {
    const db = t.app.database.db;
    const other = await createCase(db, {
      ownerId: await userIdOf(db, 'doctor'),
      categoryId: 3,
      jaw: 'upper',
    });
    const response = await t.app.inject({
      method: 'GET',
      url: `/api/v1/attachment/case/${other}/list`,
      headers: bearer(doctor),
    });
    const { obj } = json<{ obj: { items: unknown[]; slots: { labelKey: string }[] } }>(response);
    expect(obj.items).toEqual([]);
    expect(obj.slots.map((slot) => slot.labelKey)).toEqual(['exams.upperJawStl', 'exams.dicom']);
  });

  it('another doctor gets 404', async () => {
    const response = await t.app.inject({
      method: 'GET',
      url: `/api/v1/attachment/case/${caseId}/list`,
      headers: bearer(clinic),
    });
    expect(response.statusCode).toBe(404);
  });
});
