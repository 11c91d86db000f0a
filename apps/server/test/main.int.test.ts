import { spawn } from 'node:child_process';
import { request as httpRequest } from 'node:http';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase } from './support/test-app';

const serverDir = join(import.meta.dirname, '..');
let database: Awaited<ReturnType<typeof createTestDatabase>>;
const dataDir = mkdtempSync(join(tmpdir(), 'dentflow-main-'));

beforeAll(async () => {
  database = await createTestDatabase();
});
afterAll(async () => {
  await database?.drop();
  rmSync(dataDir, { recursive: true, force: true });
});

function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const probe = createServer().listen(0, '127.0.0.1', () => {
      const { port } = probe.address() as { port: number };
      probe.close(() => resolve(port));
    });
  });
}

function runMain(env: Record<string, string>) {
  const child = spawn(process.execPath, ['--import', 'tsx', 'src/main.ts'], {
    cwd: serverDir,
    env: { ...process.env, LOG_LEVEL: 'info', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  return { child, exited, output: () => output };
}

describe('main', () => {
  it('listens, answers, and shuts down gracefully on SIGTERM', async () => {
    const port = await freePort();
    const server = runMain({
      PORT: String(port),
      HOST: '127.0.0.1',
      DATA_DIR: dataDir,
      DATABASE_URL: database.url,
      SHUTDOWN_DRAIN_MS: '0',
    });
    let health: unknown;
    for (let i = 0; i < 120 && health === undefined; i++) {
      try {
        health = await (await fetch(`http://127.0.0.1:${port}/api/health`)).json();
      } catch {
        await new Promise((resolve) => setTimeout(resolve, 250));
      }
    }
    expect(health, server.output()).toEqual({ obj: { status: 'ok', database: 'up' } });
    server.child.kill('SIGTERM');
    expect(await server.exited).toBe(0);
    expect(server.output()).toContain('shutting down');
  }, 60_000);

  it('drains on SIGTERM: not ready at once, the request in flight answered, exit 0', async () => {
    const port = await freePort();
    const server = runMain({
      PORT: String(port),
      HOST: '127.0.0.1',
      DATA_DIR: dataDir,
      DATABASE_URL: database.url,
      SHUTDOWN_DRAIN_MS: '1500',
      SHUTDOWN_TIMEOUT_MS: '10000',
    });
    const base = `http://127.0.0.1:${port}`;
    let ready = 0;
    for (let i = 0; i < 120 && ready !== 200; i++) {
      ready = await fetch(`${base}/api/ready`).then(
        (response) => response.status,
        () => 0,
      );
      if (ready !== 200) await new Promise((resolve) => setTimeout(resolve, 250));
    }
    expect(ready, server.output()).toBe(200);

    // A slow request: its body arrives in two parts, the second after the server began closing.
    const body = JSON.stringify({ login: 'admin', password: 'Dentflow123', remember: false });
    const slow = httpRequest(`${base}/api/v1/auth/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) },
    });
    const answered = new Promise<{ status: number; text: string }>((resolve, reject) => {
      slow.on('response', (response) => {
        let text = '';
        response.on('data', (chunk: Buffer) => (text += chunk.toString()));
        response.on('end', () => resolve({ status: response.statusCode ?? 0, text }));
      });
      slow.on('error', reject);
    });
    slow.write(body.slice(0, 10));
    await new Promise((resolve) => setTimeout(resolve, 200));

    server.child.kill('SIGTERM');
    let draining: Response | undefined;
    for (let i = 0; i < 40; i++) {
      draining = await fetch(`${base}/api/ready`);
      if (draining.status === 503) break;
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    expect(draining?.status).toBe(503);
    expect(await draining?.json()).toMatchObject({
      code: 'SERVICE_UNAVAILABLE',
      obj: { ready: false, draining: true },
    });
    // Liveness is another question: the process is alive and answers.
    expect((await fetch(`${base}/api/health`)).status).toBe(200);
    for (let i = 0; i < 100 && !server.output().includes('shutting down: closing'); i++) {
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    expect(server.output()).toContain('shutting down: closing');
    await new Promise((resolve) => setTimeout(resolve, 200));
    slow.end(body.slice(10));
    const response = await answered;
    expect(response.status, response.text).toBe(200);
    expect(await server.exited).toBe(0);
  }, 60_000);

  it('refuses to start on bad configuration and lists what is wrong', async () => {
    const server = runMain({ PORT: 'eighty', SMTP_URL: 'not a url', DATA_DIR: dataDir });
    expect(await server.exited).toBe(1);
    expect(server.output()).toContain('Invalid configuration');
    expect(server.output()).toContain('PORT');
    expect(server.output()).toContain('SMTP_URL');
  }, 60_000);
});
