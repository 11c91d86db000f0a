import { existsSync } from 'node:fs';
import { readdir } from 'node:fs/promises';
import { request as httpRequest } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { resumableUploadSuite } from './support/resumable-suite';
import { startTestApp, type TestApp } from './support/test-app';

const PART_SIZE = 64 * 1024;
let t: TestApp;

beforeAll(async () => {
  t = await startTestApp({ UPLOAD_PART_BYTES: String(PART_SIZE) });
  await t.app.listen({ port: 0, host: '127.0.0.1' });
});

afterAll(async () => {
  await t?.close();
});

const sendPart = async (url: string, body: Buffer) => {
  const response = await t.app.inject({
    method: 'PUT',
    url,
    payload: body,
    headers: { 'content-type': 'application/octet-stream' },
  });
  return { status: response.statusCode, etag: (response.headers.etag as string) ?? null };
};

describe('resumable uploads, local store', () => {
  resumableUploadSuite({
    app: () => t,
    partSize: PART_SIZE,
    sendPart,
    checksNamedParts: true,
    isOpen: async (_key, uploadId) => existsSync(join(t.dataDir, 'files', '.multipart', uploadId)),
  });
});

describe('the local part endpoint', () => {
  const partUrl = async () => (await openUpload()).url;

  /** A new two-part upload: the first part's URL, the attachment and its uploader's session. */
  async function openUpload() {
    const { login, bearer, json } = await import('./support/test-app');
    const { createCase, userIdOf } = await import('./support/storage-fixtures');
    const doctor = await login(t.app, 'doctor');
    const db = t.app.database.db;
    const caseId = await createCase(db, { ownerId: await userIdOf(db, 'doctor') });
    const created = await t.app.inject({
      method: 'POST',
      url: `/api/v1/attachment/resumable/${caseId}`,
      headers: bearer(doctor),
      payload: { filename: 's.stl', filesize: PART_SIZE * 2, attachment_name: 'exams.generic' },
    });
    const id = json<{ obj: { attachment: { id: number } } }>(created).obj.attachment.id;
    const urls = await t.app.inject({
      method: 'POST',
      url: `/api/v1/attachment/resumable/${id}/partUrls`,
      headers: bearer(doctor),
      payload: { partNumbers: [1] },
    });
    return { url: json<{ obj: { parts: { url: string }[] } }>(urls).obj.parts[0]!.url, id, doctor };
  }

  /**
   * A part sent over a real socket: `chunks` written one by one, then either ended or, with
   * `cut`, the connection destroyed before the last byte. Answers the status and code, or null
   * when the connection was cut.
   */
  function sendOverSocket(
    url: string,
    headers: Record<string, string | number>,
    chunks: Buffer[],
    cut = false,
  ): Promise<{ status: number; code: string } | null> {
    const { port } = t.app.server.address() as AddressInfo;
    return new Promise((resolve, reject) => {
      const req = httpRequest(
        { host: '127.0.0.1', port, method: 'PUT', path: url, headers },
        (res) => {
          let text = '';
          res.on('data', (chunk: Buffer) => (text += chunk.toString()));
          res.on('end', () =>
            resolve({
              status: res.statusCode ?? 0,
              code: text ? (JSON.parse(text) as { code: string }).code : '',
            }),
          );
        },
      );
      req.on('error', (error) => (cut ? resolve(null) : reject(error)));
      for (const chunk of chunks) req.write(chunk);
      if (cut) setTimeout(() => req.destroy(), 100);
      else req.end();
    });
  }

  it.each([
    ['a part one byte short', PART_SIZE - 1, 400, 'UPLOAD_SIZE_MISMATCH'],
    ['a part one byte long', PART_SIZE + 1, 413, 'FILE_TOO_LARGE'],
    ['an empty body', 0, 400, 'UPLOAD_SIZE_MISMATCH'],
  ])('refuses %s', async (_name, size, status, code) => {
    const sent = await t.app.inject({
      method: 'PUT',
      url: await partUrl(),
      payload: Buffer.alloc(size),
    });
    expect(sent.statusCode).toBe(status);
    expect(sent.json()).toMatchObject({ code });
  });

  it('refuses a part that does not declare its length (411), as S3 does', async () => {
    const sent = await sendOverSocket(await partUrl(), { 'transfer-encoding': 'chunked' }, [
      Buffer.alloc(PART_SIZE / 2),
      Buffer.alloc(PART_SIZE / 2),
    ]);
    expect(sent).toEqual({ status: 411, code: 'UPLOAD_SIZE_MISMATCH' });
  });

  it('a part cut short is not received; sent again whole, it is', async () => {
    const uploads = join(t.dataDir, 'files', '.multipart');
    const receipts = async () =>
      (await Promise.all((await readdir(uploads)).map((id) => readdir(join(uploads, id)))))
        .flat()
        .filter((name) => name.startsWith('part-')).length;
    const url = await partUrl();
    const before = await receipts();
    const cut = await sendOverSocket(
      url,
      { 'content-length': PART_SIZE },
      [Buffer.alloc(64)],
      true,
    );
    expect(cut).toBeNull();
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(await receipts()).toBe(before);
    expect((await sendPart(url, Buffer.alloc(PART_SIZE, 2))).status).toBe(200);
    expect(await receipts()).toBe(before + 1);
  });

  it('a part whose upload was aborted gets 404 and writes nothing', async () => {
    const { bearer } = await import('./support/test-app');
    const { url, id, doctor } = await openUpload();
    const aborted = await t.app.inject({
      method: 'DELETE',
      url: `/api/v1/attachment/resumable/${id}`,
      headers: bearer(doctor),
    });
    expect(aborted.statusCode).toBe(200);
    const uploads = join(t.dataDir, 'files', '.multipart');
    const before = await readdir(uploads);
    const late = await t.app.inject({ method: 'PUT', url, payload: Buffer.alloc(PART_SIZE) });
    expect(late.statusCode).toBe(404);
    expect(late.json()).toMatchObject({ code: 'UPLOAD_NOT_FOUND' });
    expect(await readdir(uploads)).toEqual(before);
  });

  it('refuses a forged or tampered grant', async () => {
    const url = await partUrl();
    const [path, token] = url.split('?t=') as [string, string];
    const [payload] = token.split('.');
    const forged = await t.app.inject({
      method: 'PUT',
      url: `${path}?t=${payload}.${'A'.repeat(43)}`,
      payload: Buffer.alloc(PART_SIZE),
    });
    expect(forged.statusCode).toBe(403);
    expect(forged.json()).toMatchObject({ code: 'UPLOAD_POLICY_INVALID' });
  });

  it('answers the ETag that names the part on completion', async () => {
    const url = await partUrl();
    const sent = await sendPart(url, Buffer.alloc(PART_SIZE, 7));
    expect(sent.status).toBe(200);
    expect(sent.etag).toMatch(/^"[A-Za-z0-9_-]{32}"$/);
  });
});
