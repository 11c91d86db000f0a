import { spawn } from 'node:child_process';
import { statSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { announce, createCase, userIdOf, type Announced } from './support/storage-fixtures';
import { json, login, startTestApp, type TestApp } from './support/test-app';

const SIZE = 200 * 1024 * 1024;
const MB = 1024 * 1024;

let t: TestApp;
let base: string;

beforeAll(async () => {
  t = await startTestApp();
  await t.app.listen({ port: 0, host: '127.0.0.1' });
  base = `http://127.0.0.1:${(t.app.server.address() as AddressInfo).port}`;
});

afterAll(async () => {
  await t?.close();
});

/**
 * The browser's side in a child process, so the memory measured here is the server's alone: a
 * multipart body streamed in 1 MB chunks of one reused buffer.
 */
const CLIENT = `
const [url, fieldsJson, size] = process.argv.slice(1);
const fields = JSON.parse(fieldsJson);
const boundary = '----dentflow' + Date.now();
let head = '';
for (const [name, value] of Object.entries(fields)) {
  head += '--' + boundary + '\\r\\nContent-Disposition: form-data; name="' + name + '"\\r\\n\\r\\n' + value + '\\r\\n';
}
head += '--' + boundary + '\\r\\nContent-Disposition: form-data; name="file"; filename="big.stl"\\r\\nContent-Type: application/octet-stream\\r\\n\\r\\n';
const chunk = new Uint8Array(1024 * 1024).fill(7);
let sent = 0;
const body = new ReadableStream({
  start(c) { c.enqueue(new TextEncoder().encode(head)); },
  pull(c) {
    if (sent >= Number(size)) { c.enqueue(new TextEncoder().encode('\\r\\n--' + boundary + '--\\r\\n')); c.close(); return; }
    const n = Math.min(chunk.length, Number(size) - sent);
    sent += n;
    c.enqueue(chunk.slice(0, n));
  },
});
fetch(url, { method: 'POST', body, duplex: 'half', headers: { 'content-type': 'multipart/form-data; boundary=' + boundary } })
  .then((r) => { process.stdout.write(String(r.status)); })
  .catch((e) => { console.error(e); process.exit(1); });
`;

function postInChild(url: string, fields: Record<string, string>, size: number): Promise<string> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [
      '-e',
      CLIENT,
      url,
      JSON.stringify(fields),
      String(size),
    ]);
    let out = '';
    let err = '';
    child.stdout.on('data', (d: Buffer) => (out += d.toString()));
    child.stderr.on('data', (d: Buffer) => (err += d.toString()));
    child.on('error', reject);
    child.on('close', (code) => (code === 0 ? resolve(out) : reject(new Error(err))));
  });
}

it('a 200 MB upload to the local store keeps memory growth under 64 MB', async () => {
  const db = t.app.database.db;
  const caseId = await createCase(db, { ownerId: await userIdOf(db, 'doctor') });
  const doctor = await login(t.app, 'doctor');
  const created = await announce(t.app, doctor, caseId, {
    filename: 'big.stl',
    filesize: SIZE,
    attachment_name: 'exams.object',
  });
  const { upload } = json<{ obj: Announced }>(created).obj;

  global.gc?.();
  const before = process.memoryUsage().rss;
  let peak = before;
  const sampler = setInterval(() => {
    peak = Math.max(peak, process.memoryUsage().rss);
  }, 20);
  const status = await postInChild(`${base}${upload.url}`, upload.fields, SIZE);
  clearInterval(sampler);
  expect(status).toBe('204');
  const stored = statSync(join(t.dataDir, 'files', ...upload.fields.key!.split('/')));
  expect(stored.size).toBe(SIZE);
  expect((peak - before) / MB).toBeLessThan(64);
}, 120_000);
