import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { createServer } from 'node:net';
import { join } from 'node:path';
import pg from 'pg';

export const ADMIN_URL =
  process.env.BENCH_PG_URL ??
  process.env.TEST_PG_URL ??
  'postgres://postgres@127.0.0.1:5432/postgres';
const CPU_PROF_DIR = process.env.BENCH_CPU_PROF;
const repoRoot = join(import.meta.dirname, '..', '..');

export function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const probe = createServer().listen(0, '127.0.0.1', () => {
      const { port } = probe.address() as { port: number };
      probe.close(() => resolve(port));
    });
  });
}

export async function adminQuery(text: string) {
  const admin = new pg.Client({ connectionString: ADMIN_URL });
  await admin.connect();
  try {
    return await admin.query(text);
  } finally {
    await admin.end();
  }
}

export function databaseUrl(name: string) {
  const url = new URL(ADMIN_URL);
  url.pathname = `/${name}`;
  return url.toString();
}

/**
 * Builds the server's bundle in `serverDir` (tsup, about a second) and answers the script that
 * runs it: the bench measures what production runs (`npm start`, `node dist/main.js`), not the
 * sources through tsx, whose transform adds helpers and source maps to every request's work.
 */
export function buildServerBundle(serverDir: string): string {
  execFileSync('npx', ['tsup', '--silent'], { cwd: serverDir, stdio: 'inherit' });
  return join(serverDir, 'dist', 'main.js');
}

let productBundle: string | undefined;

/** Node's flags that write a CPU profile of the process into `dir` when it exits. */
const cpuProfileArgs = (dir: string) => ['--cpu-prof', '--cpu-prof-dir', dir];

export interface ServerProcess {
  child: ChildProcess;
  base: string;
  output(): string;
  stop(): Promise<void>;
}

function spawnServer(args: string[], cwd: string, env: Record<string, string>, port: number) {
  const child = spawn(process.execPath, args, {
    cwd,
    env: { ...process.env, ...env, PORT: String(port) },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout!.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr!.on('data', (chunk: Buffer) => (output += chunk.toString()));
  const server: ServerProcess = {
    child,
    base: `http://127.0.0.1:${port}`,
    output: () => output,
    async stop() {
      if (child.exitCode !== null || child.signalCode !== null) return;
      const exited = new Promise((resolve) => child.once('exit', resolve));
      child.kill('SIGTERM');
      await exited;
    },
  };
  return server;
}

/**
 * The real server, as production runs it (`buildServerBundle`), in its own process.
 * `recordSqlTo` loads sql-recorder.ts into it (the capture step only); BENCH_CPU_PROF profiles it.
 */
export async function startProduct(
  env: Record<string, string>,
  options: { recordSqlTo?: string } = {},
): Promise<ServerProcess> {
  const serverDir = join(repoRoot, 'apps', 'server');
  productBundle ??= buildServerBundle(serverDir);
  const port = await freePort();
  const profile = CPU_PROF_DIR && !options.recordSqlTo ? cpuProfileArgs(CPU_PROF_DIR) : [];
  const recorder = options.recordSqlTo
    ? ['--import', 'tsx', '--import', join(import.meta.dirname, 'sql-recorder.ts')]
    : [];
  const server = spawnServer(
    [...profile, ...recorder, productBundle],
    serverDir,
    { ...env, ...(options.recordSqlTo ? { BENCH_SQL_RECORD: options.recordSqlTo } : {}) },
    port,
  );
  await waitForHealth(server);
  return server;
}

/**
 * The upload bench's bare receiver (bare-upload-server.ts) in its own process: HTTP at `base`,
 * raw TCP at `socketPort`.
 */
export async function startBareUpload(
  file: string,
): Promise<ServerProcess & { socketPort: number }> {
  const port = await freePort();
  const socketPort = await freePort();
  const server = spawnServer(
    ['--import', 'tsx', join(import.meta.dirname, 'bare-upload-server.ts')],
    repoRoot,
    { BARE_UPLOAD_FILE: file, SOCKET_PORT: String(socketPort) },
    port,
  );
  await waitForHealth(server);
  return { ...server, socketPort };
}

/**
 * The bare anchor (bare-server.ts) in its own process, replaying the captured calls.
 * BENCH_CPU_PROF profiles it too, into the directory's `bare` folder.
 */
export async function startBare(env: Record<string, string>): Promise<ServerProcess> {
  const port = await freePort();
  const profile = CPU_PROF_DIR ? cpuProfileArgs(join(CPU_PROF_DIR, 'bare')) : [];
  const server = spawnServer(
    [...profile, '--import', 'tsx', join(import.meta.dirname, 'bare-server.ts')],
    repoRoot,
    env,
    port,
  );
  await waitForHealth(server);
  return server;
}

async function waitForHealth(server: ServerProcess) {
  for (let i = 0; i < 480; i++) {
    if (server.child.exitCode !== null) break;
    try {
      const response = await fetch(`${server.base}/api/health`);
      if (response.ok) return;
    } catch {
      // not listening yet
    }
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
  throw new Error(`the server did not start:\n${server.output()}`);
}
