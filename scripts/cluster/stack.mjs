// The pieces of a local multi-instance Dentflow: the built server started N times, HAProxy in
// front (deploy/haproxy.cfg.template), s3rver for files. Used by `npm run cluster`
// (scripts/cluster.mjs) and the fault test (scripts/faults/fault-test.ts).
import { spawn, spawnSync } from 'node:child_process';
import {
  createWriteStream,
  existsSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import { createServer } from 'node:net';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

export const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const serverEntry = path.join(root, 'apps/server/dist/main.js');
const webIndex = path.join(root, 'apps/web/dist/index.html');

/** A TCP port nobody listens on right now (the kernel's pick). */
export function freePort() {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.unref();
    server.on('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address();
      server.close(() => resolve(port));
    });
  });
}

export const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

/** The newest modification time under `dir` (node_modules and dist skipped). */
function newestUnder(dir) {
  let newest = 0;
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    if (entry.name === 'node_modules' || entry.name === 'dist') continue;
    const full = path.join(dir, entry.name);
    newest = Math.max(newest, entry.isDirectory() ? newestUnder(full) : statSync(full).mtimeMs);
  }
  return newest;
}

/** Builds the web app and the server when a build is missing or older than its sources. */
export function ensureBuild(log = console.log) {
  const domain = newestUnder(path.join(root, 'packages/domain/src'));
  const stale = [
    [serverEntry, path.join(root, 'apps/server/src')],
    [webIndex, path.join(root, 'apps/web/src')],
  ].some(
    ([built, sources]) =>
      !existsSync(built) || statSync(built).mtimeMs < Math.max(domain, newestUnder(sources)),
  );
  if (!stale) return;
  log('[cluster] building the app (npm run build): the build is missing or older than its sources');
  const result = spawnSync('npm', ['run', 'build'], { cwd: root, stdio: 'inherit' });
  if (result.status !== 0) throw new Error('npm run build failed');
}

const asRoot = (args) =>
  process.getuid?.() === 0
    ? args
    : spawnSync('sh', ['-c', 'command -v sudo']).status === 0
      ? ['sudo', ...args]
      : args;

function run(args, env = process.env) {
  const [command, ...rest] = asRoot(args);
  const result = spawnSync(command, rest, { stdio: 'inherit', env });
  if (result.status !== 0) throw new Error(`${args.join(' ')} failed`);
}

/** The haproxy binary; installs Debian's package `haproxy` first when it is missing. */
export function ensureHaproxy(log = console.log) {
  const found = ['/usr/sbin/haproxy', '/usr/local/sbin/haproxy'].find((file) => existsSync(file));
  if (found) return found;
  const onPath = spawnSync('sh', ['-c', 'command -v haproxy'], { encoding: 'utf8' });
  if (onPath.status === 0 && onPath.stdout.trim()) return onPath.stdout.trim();
  log(
    '[cluster] HAProxy is missing: installing the Debian package "haproxy" (apt-get install -y haproxy)',
  );
  const env = { ...process.env, DEBIAN_FRONTEND: 'noninteractive' };
  run(['apt-get', 'update', '-qq'], env);
  run(['apt-get', 'install', '-y', '-qq', 'haproxy'], env);
  // The package's own service (the example /etc/haproxy/haproxy.cfg) is not ours to start.
  return '/usr/sbin/haproxy';
}

/**
 * deploy/haproxy.cfg.template filled for these instances: `instances` are `{ name, port }` on
 * 127.0.0.1, `bind` is `host:port`.
 */
export function renderHaproxyConfig({ bind, instances }) {
  const template = readFileSync(path.join(root, 'deploy/haproxy.cfg.template'), 'utf8');
  const servers = instances
    .map(({ name, port }) => `    server ${name} 127.0.0.1:${port} check cookie ${name}`)
    .join('\n');
  const fallbacks = instances
    .map(({ name, port }) => `    server ${name}-fallback 127.0.0.1:${port} backup`)
    .join('\n');
  return template
    .replace(/^(\s*bind )\{\{BIND\}\}$/m, `$1${bind}`)
    .replace(/\{\{ERRORS_DIR\}\}(?=\/)/g, path.join(root, 'deploy/errors'))
    .replace(/^\{\{SERVERS\}\}$/m, servers)
    .replace(/^\{\{FALLBACKS\}\}$/m, fallbacks);
}

/** A child process whose output goes to `logFile`; `stop()` sends SIGTERM and waits for its exit. */
function spawnLogged(command, args, { env, logFile, cwd = root }) {
  mkdirSync(path.dirname(logFile), { recursive: true });
  const out = createWriteStream(logFile, { flags: 'a' });
  const child = spawn(command, args, { cwd, env, stdio: ['ignore', 'pipe', 'pipe'] });
  // Both streams into one file, which closes once the process is gone ('close': both ended).
  child.stdout.pipe(out, { end: false });
  child.stderr.pipe(out, { end: false });
  child.on('close', () => out.end());
  const exited = new Promise((resolve) =>
    child.on('exit', (code, signal) => resolve({ code, signal })),
  );
  return {
    child,
    pid: child.pid,
    logFile,
    exited,
    get running() {
      return child.exitCode === null && child.signalCode === null;
    },
    async stop(signal = 'SIGTERM', graceMs = 15_000) {
      if (child.exitCode !== null || child.signalCode !== null) return exited;
      child.kill(signal);
      const timer = setTimeout(() => child.kill('SIGKILL'), graceMs);
      const result = await exited;
      clearTimeout(timer);
      return result;
    },
  };
}

/** Validates the filled configuration, then runs HAProxy in the foreground (`-db`). */
export function startHaproxy({ haproxy, config, dir }) {
  mkdirSync(dir, { recursive: true });
  const configFile = path.join(dir, 'haproxy.cfg');
  writeFileSync(configFile, config);
  const check = spawnSync(haproxy, ['-c', '-f', configFile], { encoding: 'utf8' });
  if (check.status !== 0)
    throw new Error(`HAProxy refused ${configFile}:\n${check.stderr}${check.stdout}`);
  return spawnLogged(haproxy, ['-db', '-f', configFile], {
    env: process.env,
    logFile: path.join(dir, 'haproxy.log'),
  });
}

/** One instance of the built server (`apps/server/dist/main.js`) with this environment. */
export function startInstance({ env, logFile }) {
  return spawnLogged(process.execPath, [serverEntry], {
    env: { ...process.env, ...env },
    logFile,
  });
}

/**
 * Waits until `url` answers `status` (default 200); throws after `timeoutMs`, or at once when
 * `process` (a started child) exits.
 * @param {string} url
 * @param {{ timeoutMs?: number, status?: number, process?: { running: boolean, logFile: string } }} [options]
 */
export async function waitForHttp(url, { timeoutMs = 60_000, status = 200, process: proc } = {}) {
  const deadline = Date.now() + timeoutMs;
  let last = 'no answer';
  while (Date.now() < deadline) {
    if (proc && !proc.running) throw new Error(`${url}: the process exited (see ${proc.logFile})`);
    try {
      const response = await fetch(url, { signal: AbortSignal.timeout(2000) });
      if (response.status === status) return;
      last = `HTTP ${response.status}`;
    } catch (error) {
      last = error.cause?.code ?? error.message;
    }
    await sleep(200);
  }
  throw new Error(`${url} did not answer ${status} within ${timeoutMs} ms (last: ${last})`);
}

/** The CORS rule browsers need for presigned POST uploads and GET downloads from the app's origin. */
const corsFor = (origin) => `<CORSConfiguration>
  <CORSRule>
    <AllowedOrigin>${origin}</AllowedOrigin>
    <AllowedMethod>GET</AllowedMethod>
    <AllowedMethod>POST</AllowedMethod>
    <AllowedMethod>PUT</AllowedMethod>
    <AllowedHeader>*</AllowedHeader>
    <ExposeHeader>ETag</ExposeHeader>
  </CORSRule>
</CORSConfiguration>`;

/**
 * s3rver (the server's dev dependency, also used by its S3 storage tests) on `port`, keeping the
 * bucket's files in `directory`; returns the server's S3_* environment and `close()`.
 */
export async function startS3rver({ port, directory, bucket = 'dentflow', origin }) {
  const requireFromServer = createRequire(path.join(root, 'apps/server/package.json'));
  const S3rver = requireFromServer('s3rver');
  mkdirSync(directory, { recursive: true });
  const server = new S3rver({
    port,
    address: '127.0.0.1',
    silent: true,
    directory,
    configureBuckets: [{ name: bucket, configs: origin ? [corsFor(origin)] : [] }],
  });
  await server.run();
  return {
    env: {
      S3_BUCKET: bucket,
      S3_ENDPOINT: `http://127.0.0.1:${port}`,
      S3_REGION: 'us-east-1',
      S3_ACCESS_KEY_ID: 'S3RVER',
      S3_SECRET_ACCESS_KEY: 'S3RVER',
      S3_FORCE_PATH_STYLE: 'true',
    },
    close: () => server.close(),
  };
}

/**
 * The environment every instance shares (database, Redis, S3, secret, the balancer's address)
 * plus its own port and data folder.
 */
export function instanceEnv(shared, { port, dataDir }) {
  return { ...shared, PORT: String(port), HOST: '127.0.0.1', DATA_DIR: dataDir };
}

/**
 * Starts the instances together (the server migrates and seeds under a PostgreSQL advisory lock,
 * so one of them does it) and waits until each answers.
 */
export async function startInstances({ count, sharedEnv, basePort, workDir, log = console.log }) {
  const instances = Array.from({ length: count }, (_, index) => {
    const name = `app${index + 1}`;
    const port = basePort[index];
    const dataDir = path.join(workDir, name);
    const proc = startInstance({
      env: instanceEnv(sharedEnv, { port, dataDir }),
      logFile: path.join(workDir, `${name}.log`),
    });
    return { name, port, dataDir, proc, url: `http://127.0.0.1:${port}` };
  });
  await Promise.all(
    instances.map(async (instance) => {
      await waitForHttp(`${instance.url}/api/health`, {
        process: instance.proc,
        timeoutMs: 180_000,
      });
      log(`[cluster] ${instance.name} is up on ${instance.url}`);
    }),
  );
  return instances;
}
