// `npm run cluster`: Dentflow as it runs in production, on this machine — CLUSTER_SIZE instances
// of the built server behind HAProxy, sharing one PostgreSQL database, Redis, an S3 store
// (s3rver) and the JWT secret. Ctrl-C stops everything it started. docs/operations.md.
import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import pg from 'pg';
import {
  ensureBuild,
  ensureHaproxy,
  renderHaproxyConfig,
  root,
  startHaproxy,
  startInstances,
  startS3rver,
  waitForHttp,
} from './cluster/stack.mjs';

const size = Number(process.env.CLUSTER_SIZE ?? 3);
const port = Number(process.env.CLUSTER_PORT ?? 8080);
const s3Port = Number(process.env.CLUSTER_S3_PORT ?? port + 100);
const adminUrl = process.env.CLUSTER_PG_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
const database = process.env.CLUSTER_DATABASE ?? 'dentflow_cluster';
const redisUrl = process.env.CLUSTER_REDIS_URL ?? 'redis://127.0.0.1:6379';
const workDir = path.join(root, '.data-cluster');
const publicUrl = process.env.CLUSTER_PUBLIC_URL ?? `http://localhost:${port}`;

if (!Number.isInteger(size) || size < 1 || size > 20) {
  console.error('CLUSTER_SIZE must be a whole number from 1 to 20');
  process.exit(1);
}

const stoppers = [];
let stopping = false;
async function stopAll(code) {
  if (stopping) return;
  stopping = true;
  console.log('\n[cluster] stopping: balancer, instances (graceful), file store');
  for (const stop of stoppers.reverse()) {
    try {
      await stop();
    } catch (error) {
      console.error(`[cluster] ${error.message}`);
    }
  }
  process.exit(code);
}
process.on('SIGINT', () => stopAll(0));
process.on('SIGTERM', () => stopAll(0));

/** Creates the cluster's own database when it is missing (the first instance migrates it). */
async function ensureDatabase() {
  const admin = new pg.Client({ connectionString: adminUrl });
  try {
    await admin.connect();
  } catch (error) {
    throw new Error(
      `PostgreSQL is not reachable at ${adminUrl} (${error.message}); start it or set CLUSTER_PG_URL`,
    );
  }
  const { rowCount } = await admin.query('SELECT 1 FROM pg_database WHERE datname = $1', [
    database,
  ]);
  if (rowCount === 0) {
    console.log(`[cluster] creating the database ${database}`);
    await admin.query(`CREATE DATABASE "${database}"`);
  }
  await admin.end();
  const url = new URL(adminUrl);
  url.pathname = `/${database}`;
  return url.toString();
}

/** One secret for every instance, kept so sessions survive a restart of the cluster. */
function sharedJwtSecret() {
  const file = path.join(workDir, 'jwt-secret');
  if (existsSync(file)) return readFileSync(file, 'utf8').trim();
  const secret = randomBytes(48).toString('base64url');
  writeFileSync(file, `${secret}\n`, { mode: 0o600 });
  return secret;
}

async function main() {
  mkdirSync(workDir, { recursive: true });
  const haproxy = ensureHaproxy();
  ensureBuild();
  const databaseUrl = await ensureDatabase();

  const s3 = await startS3rver({
    port: s3Port,
    directory: path.join(workDir, 's3'),
    origin: publicUrl,
  });
  stoppers.push(() => s3.close());
  console.log(`[cluster] s3rver on http://127.0.0.1:${s3Port} (files in .data-cluster/s3)`);

  const sharedEnv = {
    DATABASE_URL: databaseUrl,
    REDIS_URL: redisUrl,
    ...s3.env,
    JWT_SECRET: sharedJwtSecret(),
    PUBLIC_URL: publicUrl,
    // Only the balancer on this machine may tell the client address (X-Forwarded-For).
    TRUST_PROXY: 'loopback',
    // Longer than the balancer needs to see "not ready" (2 checks 1 s apart) on a shutdown.
    SHUTDOWN_DRAIN_MS: process.env.SHUTDOWN_DRAIN_MS ?? '3000',
    LOG_LEVEL: process.env.LOG_LEVEL ?? 'warn',
  };
  const ports = Array.from({ length: size }, (_, i) => port + 1 + i);
  const instances = await startInstances({ count: size, sharedEnv, basePort: ports, workDir });
  stoppers.push(() => Promise.all(instances.map((i) => i.proc.stop('SIGTERM'))));
  for (const instance of instances) {
    instance.proc.exited.then(({ code, signal }) => {
      if (!stopping) {
        console.error(
          `[cluster] ${instance.name} exited (${signal ?? code}); see ${path.relative(root, instance.proc.logFile)}`,
        );
      }
    });
  }

  const balancer = startHaproxy({
    haproxy,
    config: renderHaproxyConfig({ bind: `0.0.0.0:${port}`, instances }),
    dir: workDir,
  });
  stoppers.push(() => balancer.stop('SIGTERM'));
  balancer.exited.then(({ code, signal }) => {
    if (!stopping) {
      console.error(`[cluster] HAProxy exited (${signal ?? code}); see .data-cluster/haproxy.log`);
      stopAll(1);
    }
  });
  await waitForHttp(`http://127.0.0.1:${port}/api/health`, { process: balancer });

  console.log(`
Dentflow cluster: ${size} instance(s) behind HAProxy
  app         ${publicUrl}
  instances   ${instances.map((i) => `${i.name} :${i.port}`).join(', ')} (logs in .data-cluster/)
  database    ${database} on ${new URL(adminUrl).host}
  redis       ${redisUrl}
  files       s3rver :${s3Port}
Ctrl-C stops everything.`);
}

main().catch((error) => {
  console.error(`[cluster] ${error.message}`);
  stopAll(1);
});
