import { spawn } from 'node:child_process';
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

  it('refuses to start on bad configuration and lists what is wrong', async () => {
    const server = runMain({ PORT: 'eighty', SMTP_URL: 'not a url', DATA_DIR: dataDir });
    expect(await server.exited).toBe(1);
    expect(server.output()).toContain('Invalid configuration');
    expect(server.output()).toContain('PORT');
    expect(server.output()).toContain('SMTP_URL');
  }, 60_000);
});
