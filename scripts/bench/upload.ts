/**
 * `npm run bench:upload`: what a 1 GB exam upload costs the server, through the real resumable
 * protocol (not part of `npm test`).
 *
 * 1. Writes a 1 GiB file of random bytes (a zip header first: the confirmation checks it) in a
 *    temporary folder, and times `cat file > copy` on the same disk, flushed (`sync -f`), as the
 *    disk's own speed.
 * 2. Local store: the real server in its own process (fresh PostgreSQL database, DATA_DIR in the
 *    same temporary folder); the demo doctor opens a case and uploads the file as a CT exam the
 *    way the browser does (same part size, same parts in flight). The time runs from the start
 *    call until the completion has confirmed the file and the disk is flushed. Targets: the
 *    server's RSS grows < 64 MiB, the upload runs at >= 0.5x cat.
 *    The same client then sends the same parts to a bare `node:http` receiver that only streams
 *    them to a file (bare-upload-server.ts): the best the same client gets on this machine. Last,
 *    the same bytes over raw TCP to that process, no HTTP: the floor of a Node.js receiver here.
 * 3. S3 (s3rver in its own process): the parts go straight to presigned URLs, so the server never
 *    sees the bytes; its RSS must not grow with the file (256 MiB and 1 GiB uploads both < 64 MiB
 *    of growth, the larger one within 32 MiB of the smaller).
 *
 * Prints a markdown table, writes it to /tmp/dentflow-bench-upload.md and exits 1 when a target is
 * missed. BENCH_UPLOAD_DIR picks the disk (default: the OS temporary folder), BENCH_UPLOAD_MIB the
 * file size (default 1024).
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import {
  closeSync,
  fsyncSync,
  mkdtempSync,
  openSync,
  rmSync,
  writeFileSync,
  writeSync,
} from 'node:fs';
import { randomFillSync } from 'node:crypto';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { benchLogin } from './bench-login';
import { processCpuMs } from './measure';
import {
  adminQuery,
  databaseUrl,
  startBareUpload,
  startProduct,
  type ServerProcess,
} from './servers';
import {
  createBenchCase,
  uploadBare,
  uploadExam,
  uploadOverSocket,
  watchRss,
  type RssWindow,
  type UploadSession,
} from './upload-client';

const MIB = 1024 * 1024;
const FILE_MIB = Number(process.env.BENCH_UPLOAD_MIB ?? 1024);
const S3_SMALL_MIB = Math.min(256, FILE_MIB);
const WARM_UP_MIB = 64;
const RSS_GROWTH_TARGET = 64 * MIB;
const S3_SCALING_SLACK = 32 * MIB;
const SPEED_TARGET = 0.5;
const REPORT = '/tmp/dentflow-bench-upload.md';
const repoRoot = join(import.meta.dirname, '..', '..');

const load = () =>
  loadavg()
    .map((l) => l.toFixed(2))
    .join(' ');
const mib = (bytes: number) => (bytes / MIB).toFixed(1);

/**
 * What the bench made, undone even when it is stopped (Ctrl-C) or dies: a server or s3rver left
 * behind would hold a port, files and a database.
 */
const children = new Set<ChildProcess>();
const databases = new Set<string>();
const folders = new Set<string>();
process.once('exit', () => {
  children.forEach((child) => child.kill('SIGTERM'));
  folders.forEach((folder) => rmSync(folder, { recursive: true, force: true }));
});
for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.once(signal, () => {
    void Promise.all([...children].map(stopChild))
      .then(() => Promise.all([...databases].map(dropDatabase)))
      .finally(() => process.exit(130));
  });
}
const dropDatabase = (name: string) =>
  adminQuery(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`).catch(() => undefined);

/** Random bytes behind a local-file zip header, fsynced: nothing compresses or dedups them. */
function writeSampleFile(path: string, bytes: number) {
  const chunk = Buffer.alloc(16 * MIB);
  const fd = openSync(path, 'w');
  try {
    for (let written = 0; written < bytes;) {
      randomFillSync(chunk);
      if (written === 0) chunk.set([0x50, 0x4b, 0x03, 0x04]);
      written += writeSync(fd, chunk, 0, Math.min(chunk.length, bytes - written));
    }
    fsyncSync(fd);
  } finally {
    closeSync(fd);
  }
}

/** Seconds `cat from > to` takes on this disk, flushed to it; the copy is removed. */
function catSeconds(from: string, to: string): number {
  const started = performance.now();
  const run = spawnSync('sh', ['-c', 'cat "$1" > "$2" && sync -f "$2"', 'sh', from, to]);
  const seconds = (performance.now() - started) / 1000;
  rmSync(to, { force: true });
  if (run.status !== 0) throw new Error(`cat failed: ${run.stderr.toString()}`);
  return seconds;
}

/** s3rver (the tests' S3) in its own process, so its memory is not the bench's. */
async function startS3rver(directory: string) {
  const script = `
    import S3rver from 's3rver';
    const server = new S3rver({ port: 0, address: '127.0.0.1', silent: true, directory: process.argv[1],
      configureBuckets: [{ name: 'dentflow-bench', configs: [] }] });
    const { port } = await server.run();
    console.log('PORT ' + port);`;
  const child = spawn(process.execPath, ['--input-type=module', '-e', script, directory], {
    cwd: repoRoot,
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  children.add(child);
  const port = await new Promise<number>((resolve, reject) => {
    child.stdout!.on('data', (chunk: Buffer) => {
      const match = /PORT (\d+)/.exec(chunk.toString());
      if (match) resolve(Number(match[1]));
    });
    child.once('exit', (code) => reject(new Error(`s3rver exited (${code})`)));
  });
  const endpoint = `http://127.0.0.1:${port}`;
  return {
    child,
    env: {
      S3_BUCKET: 'dentflow-bench',
      S3_ENDPOINT: endpoint,
      S3_REGION: 'us-east-1',
      S3_ACCESS_KEY_ID: 'S3RVER',
      S3_SECRET_ACCESS_KEY: 'S3RVER',
      S3_FORCE_PATH_STYLE: 'true',
    },
  };
}

async function stopChild(child: ChildProcess) {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = once(child, 'exit');
  child.kill('SIGTERM');
  await exited;
}

interface Row {
  store: string;
  mib: number;
  seconds: number;
  rss: RssWindow;
  cpuMs: number;
  /** The bench's own CPU (the client reading the file and sending it), for comparison. */
  clientCpuMs: number;
}

/** A fresh server (and database) on `store`, the doctor signed in and a case of theirs. */
async function withServer<T>(
  name: string,
  dataDir: string,
  extraEnv: Record<string, string>,
  run: (server: ServerProcess, session: UploadSession, caseId: number) => Promise<T>,
): Promise<T> {
  const database = `dentflow_bench_upload_${name}_${Date.now()}`;
  await adminQuery(`CREATE DATABASE "${database}"`);
  databases.add(database);
  let server: ServerProcess | undefined;
  try {
    server = await startProduct({
      DATABASE_URL: databaseUrl(database),
      HOST: '127.0.0.1',
      DATA_DIR: dataDir,
      LOG_LEVEL: 'warn',
      JWT_SECRET: 'bench-secret-that-is-long-enough-for-hs256-0123456789',
      WEB_DIST_DIR: join(dataDir, 'no-web-build'),
      RATE_LIMIT_LOGIN_MAX: '100000',
      RATE_LIMIT_UPLOAD_MAX: '100000',
      ...extraEnv,
    });
    children.add(server.child);
    const base = server.base;
    const { token } = await benchLogin(async (path, payload) => {
      const response = await fetch(`${base}${path}`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify(payload),
      });
      return { status: response.status, body: await response.text() };
    }, 'doctor');
    const session = { base, token };
    return await run(server, session, await createBenchCase(session));
  } finally {
    await server?.stop();
    await dropDatabase(database);
    databases.delete(database);
  }
}

/** One timed, watched upload of the file's first `sizeMib`, flushed to disk at the end. */
async function measuredUpload(
  store: string,
  server: ServerProcess,
  session: UploadSession,
  caseId: number,
  file: string,
  sizeMib: number,
  flushDir: string,
): Promise<Row> {
  let status = '';
  const measured = await watchedUpload(server.child.pid!, flushDir, async () => {
    ({ status } = await uploadExam(session, caseId, file, sizeMib * MIB));
  });
  if (status === 'uploading') throw new Error(`${store}: the exam is ${status}`);
  return { store, mib: sizeMib, ...measured };
}

/**
 * Runs one upload, then flushes the disk holding `flushPath`, while watchRss watches the server
 * `pid`: answers its RSS window, its time and the CPU the server and the bench spent on it. Only
 * the upload and its flush are timed, not the second of RSS samples watchRss takes before it.
 */
async function watchedUpload(pid: number, flushPath: string, upload: () => Promise<void>) {
  const { result, rss } = await watchRss(pid, async () => {
    const cpuBefore = processCpuMs(pid);
    const clientBefore = processCpuMs(process.pid);
    const started = performance.now();
    await upload();
    spawnSync('sync', ['-f', flushPath]);
    return {
      seconds: (performance.now() - started) / 1000,
      cpuMs: processCpuMs(pid) - cpuBefore,
      clientCpuMs: processCpuMs(process.pid) - clientBefore,
    };
  });
  return { rss, ...result };
}

/**
 * The same upload to the bare receiver (bare-upload-server.ts), timed and watched the same way:
 * what the same client and the same parts cost on this machine with no product around them. Then
 * the same bytes to its raw socket, no HTTP: the floor of any Node.js receiver here.
 */
async function measuredBareUploads(
  root: string,
  file: string,
  sizeMib: number,
): Promise<[Row, Row]> {
  const target = join(root, 'bare-target');
  writeFileSync(target, '');
  const bare = await startBareUpload(target);
  children.add(bare.child);
  try {
    await uploadBare(bare.base, file, WARM_UP_MIB * MIB);
    const http = await watchedUpload(bare.child.pid!, target, () =>
      uploadBare(bare.base, file, sizeMib * MIB),
    );
    await uploadOverSocket(bare.socketPort, file, WARM_UP_MIB * MIB);
    const socket = await watchedUpload(bare.child.pid!, target, () =>
      uploadOverSocket(bare.socketPort, file, sizeMib * MIB),
    );
    return [
      { store: 'bare node:http → file', mib: sizeMib, ...http },
      { store: 'bare node:net → file (no HTTP)', mib: sizeMib, ...socket },
    ];
  } finally {
    await bare.stop();
    children.delete(bare.child);
    rmSync(target, { force: true });
  }
}

async function main() {
  const root = mkdtempSync(
    join(process.env.BENCH_UPLOAD_DIR ?? tmpdir(), 'dentflow-bench-upload-'),
  );
  folders.add(root);
  const file = join(root, 'exam.zip');
  const lines: string[] = [];
  const say = (line: string) => {
    console.log(line);
    lines.push(line);
  };
  let s3: Awaited<ReturnType<typeof startS3rver>> | undefined;
  try {
    say(`Upload bench, ${new Date().toISOString()}; folder ${root}`);
    say(`load average at the start: ${load()}`);
    writeSampleFile(file, FILE_MIB * MIB);
    // The disk's speed swings with what else writes to it: the median of three copies.
    const cats = [0, 1, 2].map(() => catSeconds(file, join(root, 'copy'))).sort((a, b) => a - b);
    const cat = cats[1]!;
    const catSpeed = FILE_MIB / cat;
    say(
      `cat of ${FILE_MIB} MiB to the same disk (flushed), median of ${cats.map((c) => c.toFixed(2)).join(', ')} s: ${catSpeed.toFixed(0)} MiB/s`,
    );

    const rows: Row[] = [];
    const localDir = join(root, 'local');
    rows.push(
      await withServer('local', localDir, {}, async (server, session, caseId) => {
        // Modules load and pools fill on the first upload: the baseline is taken after one.
        await uploadExam(session, caseId, file, WARM_UP_MIB * MIB);
        return measuredUpload('local', server, session, caseId, file, FILE_MIB, localDir);
      }),
    );
    rmSync(localDir, { recursive: true, force: true });
    const bares = await measuredBareUploads(root, file, FILE_MIB);
    const [bare, socketFloor] = bares;

    s3 = await startS3rver(join(root, 's3rver'));
    const s3Env = s3.env;
    rows.push(
      ...(await withServer('s3', join(root, 's3-data'), s3Env, async (server, session, caseId) => {
        await uploadExam(session, caseId, file, WARM_UP_MIB * MIB);
        const measured: Row[] = [];
        for (const size of [S3_SMALL_MIB, FILE_MIB]) {
          measured.push(
            await measuredUpload('s3 (s3rver)', server, session, caseId, file, size, root),
          );
        }
        return measured;
      })),
    );

    const [local, s3Small, s3Large] = rows as [Row, Row, Row];
    const timesCat = (row: Row) => (row.mib / row.seconds / catSpeed).toFixed(2);
    const checks = [
      {
        what: `local: RSS growth < ${mib(RSS_GROWTH_TARGET)} MiB`,
        ok: local.rss.growth < RSS_GROWTH_TARGET,
      },
      {
        what: `local: upload >= ${SPEED_TARGET}x cat (the bare receiver, same client: ${timesCat(bare)}x cat, raw TCP ${timesCat(socketFloor)}x; the real server ${(local.mib / local.seconds / (bare.mib / bare.seconds)).toFixed(2)}x the bare one)`,
        ok: local.mib / local.seconds >= SPEED_TARGET * catSpeed,
      },
      {
        what: `s3: RSS growth < ${mib(RSS_GROWTH_TARGET)} MiB for ${S3_SMALL_MIB} and ${FILE_MIB} MiB`,
        ok: s3Small.rss.growth < RSS_GROWTH_TARGET && s3Large.rss.growth < RSS_GROWTH_TARGET,
      },
      {
        what: `s3: growth at ${FILE_MIB} MiB within ${mib(S3_SCALING_SLACK)} MiB of ${S3_SMALL_MIB} MiB`,
        ok: s3Large.rss.growth <= s3Small.rss.growth + S3_SCALING_SLACK,
      },
    ];

    rows.splice(1, 0, ...bares);
    say('');
    say(
      '| store | file MiB | upload s | MiB/s | x cat | server RSS baseline MiB | peak MiB | growth MiB | server CPU s | bench CPU s |',
    );
    say('|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|');
    for (const row of rows) {
      const speed = row.mib / row.seconds;
      say(
        `| ${row.store} | ${row.mib} | ${row.seconds.toFixed(2)} | ${speed.toFixed(0)} | ${(speed / catSpeed).toFixed(2)} | ${mib(row.rss.baseline)} | ${mib(row.rss.peak)} | ${mib(row.rss.growth)} | ${(row.cpuMs / 1000).toFixed(2)} | ${(row.clientCpuMs / 1000).toFixed(2)} |`,
      );
    }
    say('');
    say(
      `cat: ${catSpeed.toFixed(0)} MiB/s. With S3 the parts go from the client straight to the store's presigned URLs: the server signs and completes, it never sees the bytes (s3rver's speed is not S3's).`,
    );
    say('');
    for (const check of checks) say(`- ${check.ok ? 'ok' : 'MISSED'}: ${check.what}`);
    say(`load average at the end: ${load()}`);
    return checks.every((check) => check.ok);
  } finally {
    if (s3) await stopChild(s3.child);
    rmSync(root, { recursive: true, force: true });
    writeFileSync(REPORT, `${lines.join('\n')}\n`);
    console.log(`written to ${REPORT}`);
  }
}

const ok = await main();
process.exit(ok ? 0 : 1);
