import { existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { createLocalStorage, type LocalStorage } from '../src/adapters/storage/local-storage';
import { contentDisposition } from '../src/adapters/storage/storage';
import {
  announce,
  createCase,
  multipartBody,
  postLocal,
  samplePng,
  userIdOf,
  type Announced,
} from './support/storage-fixtures';
import { json, login, startTestApp, type Session, type TestApp } from './support/test-app';

let t: TestApp;
let doctor: Session;
let caseId: number;
let storage: LocalStorage;

const codeOf = (response: { json(): unknown }) => (response.json() as { code: string }).code;
/** Where the case's upload policies write (uploadedSuccess moves files on from there). */
const caseDir = () => join(t.dataDir, 'files', 'uploads', 'cases', String(caseId));
const stored = () => (existsSync(caseDir()) ? readdirSync(caseDir()) : []);
const tempFiles = () => {
  const dir = join(t.dataDir, 'files', '.tmp');
  return existsSync(dir) ? readdirSync(dir) : [];
};

beforeAll(async () => {
  t = await startTestApp();
  doctor = await login(t.app, 'doctor');
  const db = t.app.database.db;
  caseId = await createCase(db, { ownerId: await userIdOf(db, 'doctor') });
  storage = t.app.files.storage as LocalStorage;
  expect(storage.kind).toBe('local');
});

afterAll(async () => {
  await t?.close();
});

async function announced(size: number): Promise<Announced> {
  const response = await announce(t.app, doctor, caseId, {
    filename: 'x.png',
    filesize: size,
    attachment_name: 'photoProtocol.generic',
  });
  return json<{ obj: Announced }>(response).obj;
}

describe('the local upload endpoint enforces the signed policy', () => {
  it.each([
    [
      'a forged signature',
      (f: Record<string, string>) => ({ ...f, 'x-dentflow-signature': 'A'.repeat(43) }),
      'UPLOAD_POLICY_INVALID',
    ],
    [
      'no signature',
      (f: Record<string, string>) => ({ ...f, 'x-dentflow-signature': '' }),
      'UPLOAD_POLICY_INVALID',
    ],
    [
      'another key',
      (f: Record<string, string>) => ({ ...f, key: `cases/${caseId}/abcdef` }),
      'UPLOAD_POLICY_INVALID',
    ],
    [
      'a path escape',
      (f: Record<string, string>) => ({ ...f, key: '../../etc/passwd' }),
      'UPLOAD_POLICY_INVALID',
    ],
    [
      'another content type',
      (f: Record<string, string>) => ({ ...f, 'Content-Type': 'text/html' }),
      'UPLOAD_POLICY_INVALID',
    ],
    [
      'a policy widened by hand',
      (f: Record<string, string>) => {
        const policy = JSON.parse(Buffer.from(f.policy!, 'base64url').toString()) as object;
        const wide = { ...policy, maxSize: 1e9 };
        return { ...f, policy: Buffer.from(JSON.stringify(wide)).toString('base64url') };
      },
      'UPLOAD_POLICY_INVALID',
    ],
  ])('%s → 403, nothing stored', async (_name, tamper, code) => {
    const png = await samplePng();
    const { upload } = await announced(png.length);
    const response = await postLocal(t.app, upload, png, tamper(upload.fields));
    expect(response.statusCode).toBe(403);
    expect(codeOf(response)).toBe(code);
    expect(stored()).toEqual([]);
    expect(tempFiles()).toEqual([]);
  });

  it('an expired policy → 403 UPLOAD_POLICY_EXPIRED', async () => {
    const upload = await storage.createPresignedPost({
      key: `cases/${caseId}/expired`,
      contentType: 'image/png',
      minSize: 1,
      maxSize: 100,
      expiresInSec: -1,
    });
    const response = await postLocal(t.app, upload, Buffer.alloc(10));
    expect(response.statusCode).toBe(403);
    expect(codeOf(response)).toBe('UPLOAD_POLICY_EXPIRED');
    expect(stored()).toEqual([]);
  });

  it('a policy signed with another secret → 403', async () => {
    const other = createLocalStorage({ rootDir: t.dataDir, secret: 'x'.repeat(40) });
    const upload = await other.createPresignedPost({
      key: `cases/${caseId}/other`,
      contentType: 'image/png',
      minSize: 1,
      maxSize: 100,
      expiresInSec: 60,
    });
    expect((await postLocal(t.app, upload, Buffer.alloc(10))).statusCode).toBe(403);
  });

  it('a file before the policy fields, no file, or not multipart → 4xx', async () => {
    const png = await samplePng();
    const { upload } = await announced(png.length);
    const form = new FormData();
    form.append('file', new Blob([png]), 'x.png');
    for (const [key, value] of Object.entries(upload.fields)) form.append(key, value);
    const reversed = new Response(form);
    const fileFirst = await t.app.inject({
      method: 'POST',
      url: upload.url,
      payload: Buffer.from(await reversed.arrayBuffer()),
      headers: { 'content-type': reversed.headers.get('content-type')! },
    });
    expect(fileFirst.statusCode).toBe(403);

    const { payload, headers } = await multipartBody(upload.fields);
    const noFile = await t.app.inject({ method: 'POST', url: upload.url, payload, headers });
    expect(noFile.statusCode).toBe(400);

    const json = await t.app.inject({ method: 'POST', url: upload.url, payload: { a: 1 } });
    expect(json.statusCode).toBe(415);
    expect(stored()).toEqual([]);
  });

  it('too large → 413 and the partial file is removed', async () => {
    const { upload } = await announced(1000);
    const response = await postLocal(t.app, upload, Buffer.alloc(5000, 1));
    expect(response.statusCode).toBe(413);
    expect(codeOf(response)).toBe('FILE_TOO_LARGE');
    expect(stored()).toEqual([]);
    expect(tempFiles()).toEqual([]);
  });
});

describe('one write per key: the first complete file wins', () => {
  it('concurrent posts of one policy → one 204, the others 409 UPLOAD_ALREADY_RECEIVED', async () => {
    const png = await samplePng();
    const { upload } = await announced(png.length);
    const variants = [0, 1, 2, 3].map((i) =>
      Buffer.concat([png.subarray(0, 16), Buffer.alloc(png.length - 16, i)]),
    );
    const answers = await Promise.all(variants.map((file) => postLocal(t.app, upload, file)));
    const statuses = answers.map((a) => a.statusCode).sort();
    expect(statuses).toEqual([204, 409, 409, 409]);
    for (const refused of answers.filter((a) => a.statusCode === 409)) {
      expect(codeOf(refused)).toBe('UPLOAD_ALREADY_RECEIVED');
    }
    const winner = variants[answers.findIndex((a) => a.statusCode === 204)]!;
    expect((await storage.readFirstBytes(upload.fields.key!, png.length)).equals(winner)).toBe(
      true,
    );
    expect(tempFiles()).toEqual([]);
  });

  it('a refused write (too small) does not use up the key; a moved or deleted file keeps it used', async () => {
    const png = await samplePng();
    const { upload } = await announced(png.length);
    expect((await postLocal(t.app, upload, png.subarray(1))).statusCode).toBe(400);
    expect((await postLocal(t.app, upload, png)).statusCode).toBe(204);
    expect(await storage.move(upload.fields.key!, `cases/${caseId}/moved`)).toEqual({
      size: png.length,
    });
    expect(await storage.head(upload.fields.key!)).toBeNull();
    expect((await postLocal(t.app, upload, png)).statusCode).toBe(409);
    await storage.delete(`cases/${caseId}/moved`);
    expect((await postLocal(t.app, upload, png)).statusCode).toBe(409);
    expect(await storage.move(upload.fields.key!, `cases/${caseId}/again`)).toBeNull();
  });

  it('the sweep removes claims older than its threshold (the cleanup passes 24 h, policies live 15 min)', async () => {
    const png = await samplePng();
    const { upload } = await announced(png.length);
    expect((await postLocal(t.app, upload, png)).statusCode).toBe(204);
    await storage.sweepTemporary(24 * 3600_000);
    expect((await postLocal(t.app, upload, png)).statusCode).toBe(409);
    const claims = join(t.dataDir, 'files', '.claims');
    expect(readdirSync(claims).length).toBeGreaterThan(0);
    await storage.sweepTemporary(-1);
    expect(existsSync(claims) ? readdirSync(claims) : []).toEqual([]);
  });
});

describe('download links', () => {
  it('a valid link serves the bytes with the content type and a safe disposition', async () => {
    await storage.put(`cases/${caseId}/dl`, Buffer.from('hello'), 'text/plain');
    const url = await storage.signedDownloadUrl(`cases/${caseId}/dl`, {
      filename: 'evil"\r\nX-Injected: 1.txt',
      contentType: 'application/octet-stream',
    });
    const response = await t.app.inject({ method: 'GET', url });
    expect(response.statusCode).toBe(200);
    expect(response.body).toBe('hello');
    expect(response.headers['content-type']).toBe('application/octet-stream');
    expect(response.headers['x-injected']).toBeUndefined();
    expect(response.headers['content-disposition']).toBe(
      `inline; filename="evil___X-Injected: 1.txt"; filename*=UTF-8''evil%22%0D%0AX-Injected%3A%201.txt`,
    );
  });

  it.each([
    // Links live DOWNLOAD_LINK_SECONDS (300): one made 301 s ago is dead.
    ['expired', 301_000, (u: string) => u],
    ['tampered', 0, (u: string) => u.replace(/t=./, (m) => (m.endsWith('e') ? 't=f' : 't=e'))],
    ['unsigned', 0, (u: string) => u.split('.')[0]!],
  ])('%s → 403', async (_name, ageMs, tamper) => {
    vi.useFakeTimers({ toFake: ['Date'] });
    vi.setSystemTime(Date.now() - ageMs);
    const url = await storage
      .signedDownloadUrl(`cases/${caseId}/dl`, { filename: 'a.txt', contentType: 'text/plain' })
      .finally(() => vi.useRealTimers());
    const response = await t.app.inject({ method: 'GET', url: tamper(url) });
    expect(response.statusCode).toBe(403);
    expect(codeOf(response)).toBe('INVALID_TOKEN');
  });

  it('contentDisposition keeps ASCII names and encodes the rest', () => {
    expect(contentDisposition('scan.stl')).toBe(
      `inline; filename="scan.stl"; filename*=UTF-8''scan.stl`,
    );
    expect(contentDisposition('ção (1).zip', 'attachment')).toBe(
      `attachment; filename="__o (1).zip"; filename*=UTF-8''%C3%A7%C3%A3o%20%281%29.zip`,
    );
  });
});
