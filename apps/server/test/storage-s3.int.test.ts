import { createHash } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  announce,
  attachmentRow,
  createCase,
  samplePng,
  sampleStl,
  startS3rver,
  userIdOf,
  type Announced,
} from './support/storage-fixtures';
import { bearer, json, login, startTestApp, type Session, type TestApp } from './support/test-app';

let s3: Awaited<ReturnType<typeof startS3rver>>;
let t: TestApp;
let doctor: Session;
let caseId: number;

beforeAll(async () => {
  s3 = await startS3rver();
  t = await startTestApp(s3.env);
  doctor = await login(t.app, 'doctor');
  const db = t.app.database.db;
  caseId = await createCase(db, { ownerId: await userIdOf(db, 'doctor'), categoryId: 1 });
});

afterAll(async () => {
  await t?.close();
  await s3?.close();
});

/** The browser's side: the multipart POST to the store with the returned fields, file last. */
async function postToStore(upload: Announced['upload'], file: Buffer, name: string) {
  const form = new FormData();
  for (const [key, value] of Object.entries(upload.fields)) form.append(key, value);
  form.append('file', new Blob([file]), name);
  return fetch(upload.url, { method: 'POST', body: form });
}

async function announceAndPost(kind: string, filename: string, file: Buffer) {
  const created = await announce(t.app, doctor, caseId, {
    filename,
    filesize: file.length,
    attachment_name: kind,
  });
  expect(created.statusCode).toBe(200);
  const { attachment, upload } = json<{ obj: Announced }>(created).obj;
  const posted = await postToStore(upload, file, filename);
  expect(posted.status).toBeLessThan(300);
  return { attachment, upload };
}

const confirm = (id: number) =>
  t.app.inject({
    method: 'GET',
    url: `/api/v1/attachment/uploadedSuccess/${id}`,
    headers: bearer(doctor),
  });

describe('S3 store (s3rver)', () => {
  it('presigned POST to the bucket, confirmation, presigned GET: the same bytes', async () => {
    const stl = sampleStl(200);
    const { attachment, upload } = await announceAndPost(
      'exams.upperJawStl',
      'arcada superior.stl',
      stl,
    );
    expect(upload.url.startsWith(s3.endpoint)).toBe(true);
    expect(upload.fields.key).toMatch(new RegExp(`^uploads/cases/${caseId}/[a-f0-9]{32}$`));
    expect(upload.fields['Content-Type']).toBe('model/stl');
    expect(JSON.parse(Buffer.from(upload.fields.Policy!, 'base64').toString())).toMatchObject({
      conditions: expect.arrayContaining([['content-length-range', stl.length, stl.length]]),
    });

    const confirmed = await confirm(attachment.id);
    expect(confirmed.statusCode).toBe(200);
    const { url, attachment: done } = json<{
      obj: { url: string; attachment: Announced['attachment'] };
    }>(confirmed).obj;
    expect(done.status).toBe('public');
    expect(url.startsWith(s3.endpoint)).toBe(true);
    expect(url).toContain('X-Amz-Signature');

    const downloaded = await fetch(url);
    expect(downloaded.status).toBe(200);
    expect(Buffer.from(await downloaded.arrayBuffer()).equals(stl)).toBe(true);
    expect(downloaded.headers.get('content-disposition')).toContain(
      "filename*=UTF-8''arcada%20superior.stl",
    );

    const redirect = await t.app.inject({
      method: 'GET',
      url: `/api/v1/attachment/${attachment.id}/download`,
      headers: bearer(doctor),
    });
    expect(redirect.statusCode).toBe(302);
    const again = await fetch(redirect.headers.location as string);
    expect(Buffer.from(await again.arrayBuffer()).equals(stl)).toBe(true);
  });

  it('replaying the policy after the confirmation changes nothing that is served', async () => {
    const png = await samplePng(12);
    const { attachment, upload } = await announceAndPost('photoProtocol.generic', 'x.png', png);
    const confirmed = await confirm(attachment.id);
    expect(confirmed.statusCode).toBe(200);
    // The checked bytes were copied to a key no policy names; the policy's key is gone.
    const served = (await attachmentRow(t.app.database.db, attachment.id))!.storageKey!;
    expect(served).toMatch(new RegExp(`^cases/${caseId}/[a-f0-9]{32}$`));
    expect(await t.app.files.storage.head(upload.fields.key!)).toBeNull();

    // S3 takes the replay (a presigned POST has no one-shot condition) into the staging key.
    const forgery = Buffer.concat([png.subarray(0, 16), Buffer.alloc(png.length - 16, 0x41)]);
    const replay = await postToStore(upload, forgery, 'x.png');
    expect(replay.status).toBeLessThan(300);
    expect(await t.app.files.storage.head(upload.fields.key!)).toEqual({ size: png.length });
    // Confirming again answers the confirmed file and copies nothing.
    expect((await confirm(attachment.id)).statusCode).toBe(200);
    expect((await attachmentRow(t.app.database.db, attachment.id))!.storageKey).toBe(served);

    const redirect = await t.app.inject({
      method: 'GET',
      url: `/api/v1/attachment/${attachment.id}/download`,
      headers: bearer(doctor),
    });
    const downloaded = await fetch(redirect.headers.location as string);
    expect(Buffer.from(await downloaded.arrayBuffer()).equals(png)).toBe(true);

    // The replayed leftover is swept with the other stale upload objects; the served one stays.
    expect(await t.app.files.storage.sweepTemporary(-1)).toBeGreaterThanOrEqual(1);
    expect(await t.app.files.storage.head(upload.fields.key!)).toBeNull();
    expect(await t.app.files.storage.head(served)).toEqual({ size: png.length });
  });

  it('a content mismatch deletes the object in the bucket and the row', async () => {
    const fake = Buffer.from('definitely not a png image, just text');
    const { attachment, upload } = await announceAndPost('photoProtocol.generic', 'x.png', fake);
    expect(await t.app.files.storage.head(upload.fields.key!)).toEqual({ size: fake.length });
    const confirmed = await confirm(attachment.id);
    expect(confirmed.statusCode).toBe(422);
    expect(await t.app.files.storage.head(upload.fields.key!)).toBeNull();
    const get = await t.app.inject({
      method: 'GET',
      url: `/api/v1/attachment/${attachment.id}/get`,
      headers: bearer(doctor),
    });
    expect(get.statusCode).toBe(404);
  });

  it('confirming before the upload → 409, nothing in the bucket', async () => {
    const png = await samplePng();
    const created = await announce(t.app, doctor, caseId, {
      filename: 'x.png',
      filesize: png.length,
      attachment_name: 'photoProtocol.generic',
    });
    const { attachment, upload } = json<{ obj: Announced }>(created).obj;
    expect((await confirm(attachment.id)).statusCode).toBe(409);
    expect(await t.app.files.storage.head(upload.fields.key!)).toBeNull();
  });

  it('the CSP lets the browser reach the store', async () => {
    const response = await t.app.inject({ method: 'GET', url: '/api/health' });
    const csp = String(response.headers['content-security-policy']);
    expect(csp).toContain(`connect-src 'self' ${s3.endpoint}`);
    expect(csp).toMatch(new RegExp(`img-src [^;]*${s3.endpoint.replace(/[.:/]/g, '\\$&')}`));
  });

  it('put, readFirstBytes, delete', async () => {
    const storage = t.app.files.storage;
    await storage.put('avatars/1/abc', Buffer.from('0123456789'), 'image/webp');
    expect((await storage.readFirstBytes('avatars/1/abc', 4)).toString()).toBe('0123');
    await storage.delete('avatars/1/abc');
    expect(await storage.head('avatars/1/abc')).toBeNull();
    await storage.delete('avatars/1/abc');
  });

  it('a planning upload keeps the SHA-256 of the bytes in the bucket', async () => {
    const supervisor = await login(t.app, 'supervisor');
    const plan = sampleStl(300);
    const created = await announce(t.app, supervisor, caseId, {
      filename: 'plan.stl',
      filesize: plan.length,
      attachment_name: 'planning',
    });
    const { attachment, upload } = json<{ obj: Announced }>(created).obj;
    expect((await postToStore(upload, plan, 'plan.stl')).status).toBeLessThan(300);
    const confirmed = await t.app.inject({
      method: 'GET',
      url: `/api/v1/attachment/uploadedSuccess/${attachment.id}`,
      headers: bearer(supervisor),
    });
    expect(confirmed.statusCode).toBe(200);
    const sha256 = createHash('sha256').update(plan).digest('hex');
    expect(json<{ obj: { attachment: { sha256: string } } }>(confirmed).obj.attachment.sha256).toBe(
      sha256,
    );
    expect((await attachmentRow(t.app.database.db, attachment.id))?.contentSha256).toBe(sha256);
  });
});
