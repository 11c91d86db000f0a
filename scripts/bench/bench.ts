/**
 * `npm run bench`: the case API at 100,000 cases.
 *
 * 1. creates a fresh PostgreSQL database (BENCH_PG_URL, else TEST_PG_URL, else the local one);
 * 2. starts the real server on it (`apps/server/src/main.ts` through tsx, in its own process, on
 *    a free local port): migrations and the demo seed run as on any first start;
 * 3. bulk-seeds 100,000 cases in SQL (scripts/bench/seed.ts);
 * 4. measures each call for the demo doctor (the heavy owner, 2,000 cases) and the supervisor
 *    with BENCH_CONCURRENCY requests in flight (default 10), and the list's rows read by one
 *    hand-written SQL query through `pg` at the same concurrency;
 * 5. prints p50/p95/p99 and throughput per call, the list/SQL ratios and the budget verdict,
 *    and drops the database (BENCH_KEEP=1 keeps it).
 *
 * BENCH_ONLY=<text> measures only the calls whose "actor call" contains it (e.g. `supervisor
 * list`); BENCH_CPU_PROF=<dir> starts the server with `node --cpu-prof` and writes its profile
 * there when it stops (open it in Chrome DevTools or speedscope).
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { Agent, request as httpRequest } from 'node:http';
import { createServer } from 'node:net';
import { cpus, loadavg, tmpdir, totalmem } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { CASE_COUNT, HEAVY_OWNER_CASES, MOVE_CASES, MOVE_MARK, seedBenchCases } from './seed';

const ADMIN_URL =
  process.env.BENCH_PG_URL ??
  process.env.TEST_PG_URL ??
  'postgres://postgres@127.0.0.1:5432/postgres';
// The budget's concurrency (docs/decisions/017-bench-budget-concurrency.md).
const CONCURRENCY = Number(process.env.BENCH_CONCURRENCY ?? 10);
const REQUESTS = Number(process.env.BENCH_REQUESTS ?? 1000);
const WARMUP = Math.min(200, Math.ceil(REQUESTS / 5));
const PAGE_SIZE = 20;
const DEEP_PAGE = 200;
const SEARCH = 'muller';
/** The server's pool size (apps/server/src/db/client.ts); the SQL baseline uses the same. */
const POOL_SIZE = 10;
const BUDGET_P95_MS = 50;
const BUDGET_RATIO = 3;
const ONLY = process.env.BENCH_ONLY;
const CPU_PROF_DIR = process.env.BENCH_CPU_PROF;
const selected = (actor: string, call: string) => !ONLY || `${actor} ${call}`.includes(ONLY);
const repoRoot = join(import.meta.dirname, '..', '..');

interface Stats {
  /** CPU milliseconds per request: the server process, this load generator, everything else (PostgreSQL). */
  cpu?: { server: number; client: number; other: number };
  count: number;
  errors: number;
  p50: number;
  p95: number;
  p99: number;
  mean: number;
  rps: number;
}

function percentile(sorted: number[], p: number): number {
  if (sorted.length === 0) return NaN;
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)]!;
}

/**
 * Runs `total` calls of `call(i)` with `concurrency` in flight (a pool of workers, each starting
 * its next call when the previous one ends); `call` resolves to false on a failed call.
 */
async function measure(
  total: number,
  concurrency: number,
  call: (i: number, worker: number) => Promise<boolean>,
): Promise<Stats> {
  const latencies: number[] = [];
  let errors = 0;
  let next = 0;
  const started = performance.now();
  await Promise.all(
    Array.from({ length: concurrency }, async (_, worker) => {
      while (next < total) {
        const i = next++;
        const t0 = performance.now();
        const ok = await call(i, worker).catch(() => false);
        latencies.push(performance.now() - t0);
        if (!ok) errors++;
      }
    }),
  );
  const elapsed = (performance.now() - started) / 1000;
  latencies.sort((a, b) => a - b);
  return {
    count: latencies.length,
    errors,
    p50: percentile(latencies, 50),
    p95: percentile(latencies, 95),
    p99: percentile(latencies, 99),
    mean: latencies.reduce((sum, v) => sum + v, 0) / latencies.length,
    rps: latencies.length / elapsed,
  };
}

const CLOCK_TICK_MS = 10; // USER_HZ = 100 on Linux
/** CPU time used so far, in ms: one process (from /proc/<pid>/stat) or the whole machine. */
function processCpuMs(pid: number): number {
  const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
  return (Number(fields[11]) + Number(fields[12])) * CLOCK_TICK_MS; // utime + stime
}
function machineCpuMs(): number {
  const [, user, nice, system, , , irq, softirq] = readFileSync('/proc/stat', 'utf8')
    .split('\n')[0]!
    .trim()
    .split(/\s+/)
    .map(Number);
  return (user! + nice! + system! + irq! + softirq!) * CLOCK_TICK_MS;
}

/** `measure`, plus the CPU each request cost the server, this process and the rest of the machine. */
async function measureWithCpu(
  serverPid: number,
  ...args: Parameters<typeof measure>
): Promise<Stats> {
  const before = {
    server: processCpuMs(serverPid),
    client: process.cpuUsage(),
    machine: machineCpuMs(),
  };
  const stats = await measure(...args);
  const server = processCpuMs(serverPid) - before.server;
  const clientUsage = process.cpuUsage(before.client);
  const client = (clientUsage.user + clientUsage.system) / 1000;
  const other = Math.max(0, machineCpuMs() - before.machine - server - client);
  const per = (ms: number) => ms / stats.count;
  return { ...stats, cpu: { server: per(server), client: per(client), other: per(other) } };
}

function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const probe = createServer().listen(0, '127.0.0.1', () => {
      const { port } = probe.address() as { port: number };
      probe.close(() => resolve(port));
    });
  });
}

async function adminQuery(text: string) {
  const admin = new pg.Client({ connectionString: ADMIN_URL });
  await admin.connect();
  try {
    return await admin.query(text);
  } finally {
    await admin.end();
  }
}

function databaseUrl(name: string) {
  const url = new URL(ADMIN_URL);
  url.pathname = `/${name}`;
  return url.toString();
}

function startServer(env: Record<string, string>): { child: ChildProcess; output: () => string } {
  const profile = CPU_PROF_DIR ? ['--cpu-prof', '--cpu-prof-dir', CPU_PROF_DIR] : [];
  const child = spawn(process.execPath, [...profile, '--import', 'tsx', 'src/main.ts'], {
    cwd: join(repoRoot, 'apps', 'server'),
    env: { ...process.env, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout!.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr!.on('data', (chunk: Buffer) => (output += chunk.toString()));
  return { child, output: () => output };
}

async function waitForHealth(base: string, server: { output(): string }) {
  for (let i = 0; i < 240; i++) {
    try {
      const response = await fetch(`${base}/api/health`);
      if (response.ok) return;
    } catch {
      // not listening yet
    }
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
  throw new Error(`the server did not start:\n${server.output()}`);
}

const fmt = (ms: number) => (Number.isFinite(ms) ? ms.toFixed(1) : '–');
const cpuCell = ({ cpu }: Stats) =>
  cpu ? `${cpu.server.toFixed(2)} · ${cpu.client.toFixed(2)} · ${cpu.other.toFixed(2)}` : '';

async function main() {
  const started = Date.now();
  const name = `dentflow_bench_${Date.now()}`;
  const { rows: leftovers } = await adminQuery(
    "SELECT datname FROM pg_database WHERE datname LIKE 'dentflow\\_bench\\_%'",
  );
  for (const { datname } of leftovers as { datname: string }[]) {
    if (Date.now() - Number(datname.split('_')[2]) > 3600_000) {
      await adminQuery(`DROP DATABASE IF EXISTS "${datname}" WITH (FORCE)`);
    }
  }
  await adminQuery(`CREATE DATABASE "${name}"`);
  const url = databaseUrl(name);
  const dataDir = mkdtempSync(join(tmpdir(), 'dentflow-bench-'));
  const port = await freePort();
  const base = `http://127.0.0.1:${port}`;
  const server = startServer({
    DATABASE_URL: url,
    PORT: String(port),
    HOST: '127.0.0.1',
    DATA_DIR: dataDir,
    LOG_LEVEL: 'warn',
    JWT_SECRET: 'bench-secret-that-is-long-enough-for-hs256-0123456789',
    WEB_DIST_DIR: join(dataDir, 'no-web-build'),
    RATE_LIMIT_LOGIN_MAX: '100000000',
    RATE_LIMIT_REGISTER_MAX: '100000000',
    RATE_LIMIT_FORGOT_PASSWORD_MAX: '100000000',
    RATE_LIMIT_NICKNAME_MAX: '100000000',
    // The move benchmark is one user moving cases as fast as the server answers.
    RATE_LIMIT_CASE_MOVE_MAX: '100000000',
  });
  const client = new pg.Client({ connectionString: url });
  const pool = new pg.Pool({ connectionString: url, max: POOL_SIZE });
  const lines: string[] = [];
  const log = (line = '') => {
    lines.push(line);
    console.log(line);
  };
  let failed = false;
  try {
    await waitForHealth(base, server);
    log(`server up (migrated, demo seeded) in ${((Date.now() - started) / 1000).toFixed(1)} s`);
    await client.connect();
    const seedStarted = Date.now();
    await seedBenchCases(client);
    const { rows: totals } = await client.query<{ cases: number; services: number }>(
      'SELECT (SELECT count(*) FROM cases)::int AS cases, (SELECT count(*) FROM case_services)::int AS services',
    );
    log(
      `seeded ${totals[0]!.cases} cases, ${totals[0]!.services} services in ${((Date.now() - seedStarted) / 1000).toFixed(1)} s (SQL, incl. VACUUM ANALYZE)`,
    );

    const login = async (nickName: string) => {
      const response = await fetch(`${base}/api/v1/auth/login`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ login: nickName, password: 'Dentflow123', remember: false }),
      });
      if (!response.ok)
        throw new Error(`login ${nickName}: ${response.status} ${await response.text()}`);
      const body = (await response.json()) as {
        obj: { accessToken: string; profile: { id: number } };
      };
      return { token: body.obj.accessToken, id: body.obj.profile.id };
    };
    const actors = { doctor: await login('doctor'), supervisor: await login('supervisor') };

    // node:http with one keep-alive socket per request in flight: `fetch` (undici) cost the
    // load generator 1.5–2.3 ms of CPU per request on the same two cores as the server.
    const agent = new Agent({ keepAlive: true, maxSockets: CONCURRENCY });
    const send = (method: 'GET' | 'POST', path: string, token?: string, payload?: unknown) =>
      new Promise<{ ok: boolean; status: number; body: string }>((resolve, reject) => {
        const body = payload === undefined ? undefined : JSON.stringify(payload);
        const req = httpRequest(
          `${base}${path}`,
          {
            method,
            agent,
            headers: {
              ...(token ? { authorization: `Bearer ${token}` } : {}),
              ...(body ? { 'content-type': 'application/json' } : {}),
            },
          },
          (res) => {
            const chunks: Buffer[] = [];
            res.on('data', (chunk: Buffer) => chunks.push(chunk));
            res.on('end', () => {
              const status = res.statusCode ?? 0;
              resolve({
                ok: status >= 200 && status < 300,
                status,
                body: Buffer.concat(chunks).toString(),
              });
            });
            res.on('error', reject);
          },
        );
        req.on('error', reject);
        req.end(body);
      });
    const measured = (...args: Parameters<typeof measure>) =>
      measureWithCpu(server.child.pid!, ...args);
    const get = (token: string | undefined, path: string) => send('GET', path, token);
    const post = async (token: string, path: string, payload: unknown) =>
      (await send('POST', path, token, payload)).ok;

    // The list's hand-written twin, one statement: the page of cases first (read in index order,
    // so OFFSET skips index entries only), then their patients, owners and services.
    const visibility = (role: 'doctor' | 'supervisor') =>
      role === 'supervisor'
        ? ''
        : `AND (c.owner_id = $3 OR c.id = ANY (ARRAY(
                 SELECT case_id FROM case_users WHERE user_id = $3
                 UNION SELECT case_id FROM case_services WHERE planner_id = $3)))`;
    const listSql = (role: 'doctor' | 'supervisor', search: boolean) => `
      WITH page AS (
        SELECT c.* FROM cases c
         WHERE c.list_group = 'new' AND NOT c.case_archived ${visibility(role)}
               ${search ? `AND c.search_text LIKE '%' || $${role === 'supervisor' ? 3 : 4} || '%'` : ''}
         ORDER BY c.modified_at DESC, c.id DESC
         LIMIT $1 OFFSET $2)
      SELECT c.id, p.fname, p.lname, c.case_status, c.case_archived, c.case_currency, c.owner_id,
             u.display_name, c.created_at, c.deadline_at, c.modified_at, c.case_review,
             coalesce((SELECT json_agg(json_build_object('id', s.id, 'productName',
                                pr.texts -> 'en' ->> 'name', 'category', s.product_category_id)
                                ORDER BY s.id)
                         FROM case_services s JOIN products pr ON pr.id = s.product_id
                        WHERE s.case_id = c.id), '[]') AS services
        FROM page c
        JOIN patients p ON p.id = c.patient_id
        JOIN users u ON u.id = c.owner_id
       ORDER BY c.modified_at DESC, c.id DESC`;

    const progress = (role: string, call: string, stats: Stats, sqlStats?: Stats) =>
      console.log(
        `  ${role} ${call}: p50 ${fmt(stats.p50)} p95 ${fmt(stats.p95)} ms, ${stats.rps.toFixed(0)} req/s, ${stats.errors} errors` +
          (sqlStats ? ` | SQL p50 ${fmt(sqlStats.p50)} p95 ${fmt(sqlStats.p95)} ms` : ''),
      );
    const results: {
      actor: string;
      call: string;
      stats: Stats;
      sql?: Stats;
      note?: string;
    }[] = [];

    const record = (entry: (typeof results)[number]) => {
      results.push(entry);
      progress(entry.actor, entry.call, entry.stats, entry.sql);
    };
    // The floor: what any request costs here, before the case code (no query; one query + auth).
    for (const [name, path, token] of [
      ['reference: GET /api/health (no auth)', '/api/health', undefined],
      ['reference: GET /api/v1/profile/get (auth)', '/api/v1/profile/get', actors.doctor.token],
    ] as const) {
      if (!selected('doctor', name)) continue;
      const once = async () => (await get(token, path)).ok;
      await measure(WARMUP, CONCURRENCY, once);
      record({ actor: 'doctor', call: name, stats: await measured(REQUESTS, CONCURRENCY, once) });
    }

    const moveIdsOf: Record<'doctor' | 'supervisor', number[]> = { doctor: [], supervisor: [] };
    const moveCall = 'case/{id}/move (submit ↔ backToNew)';
    for (const role of ['doctor', 'supervisor'] as const) {
      const actor = actors[role];
      const newTotal = (
        JSON.parse((await get(actor.token, `/api/v1/case/list/new/0`)).body) as {
          obj: { total: number };
        }
      ).obj.total;
      const lastPage = Math.max(0, Math.ceil(newTotal / PAGE_SIZE) - 1);
      const deepPage = Math.min(DEEP_PAGE, lastPage);
      const { rows: sample } = await client.query<{ id: number }>(
        role === 'doctor'
          ? `SELECT id FROM cases WHERE owner_id = $1 ORDER BY hashint4(id) LIMIT 200`
          : `SELECT id FROM cases WHERE $1::int IS NOT NULL ORDER BY hashint4(id) LIMIT 200`,
        [actor.id],
      );
      const ids = sample.map((r) => r.id);
      const { rows: moveRows } = await client.query<{ id: number }>(
        `SELECT id FROM cases WHERE observation = $1 AND (owner_id = $2) = $3 ORDER BY id LIMIT $4`,
        [MOVE_MARK, actors.doctor.id, role === 'doctor', MOVE_CASES],
      );

      const lists = [
        { call: 'list new page 0', page: 0, q: undefined as string | undefined },
        {
          call: `list new page ${deepPage}`,
          page: deepPage,
          q: undefined,
          note:
            deepPage < DEEP_PAGE
              ? `page ${DEEP_PAGE} does not exist for this caller (${newTotal} cases in 'new' = pages 0–${lastPage}): the last page instead`
              : undefined,
        },
        { call: `list new page 0, q=${SEARCH}`, page: 0, q: SEARCH },
      ];
      for (const list of lists) {
        if (!selected(role, list.call)) continue;
        const path = `/api/v1/case/list/new/${list.page}?pageSize=${PAGE_SIZE}${list.q ? `&q=${list.q}` : ''}`;
        const args = (): unknown[] => {
          const values: unknown[] = [PAGE_SIZE, list.page * PAGE_SIZE];
          if (role === 'doctor') values.push(actor.id);
          if (list.q) values.push(list.q);
          return values;
        };
        const text = listSql(role, Boolean(list.q));
        // Same rows both ways, or the comparison means nothing.
        const api = JSON.parse((await get(actor.token, path)).body) as {
          obj: { items: { id: number }[] };
        };
        const direct = await pool.query<{ id: number }>(text, args());
        const apiIds = api.obj.items.map((i) => i.id).join(',');
        const sqlIds = direct.rows.map((r) => r.id).join(',');
        if (apiIds !== sqlIds) {
          log(`WARNING ${role} ${list.call}: API and SQL rows differ (${apiIds} vs ${sqlIds})`);
          failed = true;
        }
        await measure(WARMUP, CONCURRENCY, async () => (await get(actor.token, path)).ok);
        const stats = await measured(
          REQUESTS,
          CONCURRENCY,
          async () => (await get(actor.token, path)).ok,
        );
        await measure(WARMUP, CONCURRENCY, async () => (await pool.query(text, args()), true));
        const sqlStats = await measured(REQUESTS, CONCURRENCY, async () => {
          await pool.query(text, args());
          return true;
        });
        record({ actor: role, call: list.call, stats, sql: sqlStats, note: list.note });
      }

      if (selected(role, 'case/counts')) {
        const counts = async () => (await get(actor.token, '/api/v1/case/counts')).ok;
        await measure(WARMUP, CONCURRENCY, counts);
        record({
          actor: role,
          call: 'case/counts',
          stats: await measured(REQUESTS, CONCURRENCY, counts),
        });
      }
      if (selected(role, 'case/{id}/get')) {
        const getCase = async (i: number) =>
          (await get(actor.token, `/api/v1/case/${ids[i % ids.length]}/get`)).ok;
        await measure(WARMUP, CONCURRENCY, getCase);
        record({
          actor: role,
          call: 'case/{id}/get',
          stats: await measured(REQUESTS, CONCURRENCY, getCase),
        });
      }
      moveIdsOf[role] = moveRows.map((r) => r.id);
    }

    // The moves last: their writes would otherwise age the tables under the reads measured after.
    for (const role of ['doctor', 'supervisor'] as const) {
      const actor = actors[role];
      const moveIds = moveIdsOf[role];
      if (!selected(role, moveCall)) continue;
      // Each worker moves its own case: submit (new → checkingout), then backToNew, and so on.
      const moved = new Map<number, boolean>();
      const move = async (_: number, worker: number) => {
        const id = moveIds[worker % moveIds.length]!;
        const submitted = moved.get(id) ?? false;
        const ok = await post(actor.token, `/api/v1/case/${id}/move`, {
          action: submitted ? 'backToNew' : 'submit',
        });
        if (ok) moved.set(id, !submitted);
        return ok;
      };
      const moveConcurrency = Math.min(CONCURRENCY, moveIds.length);
      await measure(Math.min(WARMUP, 100), moveConcurrency, move);
      record({
        actor: role,
        call: moveCall,
        stats: await measured(REQUESTS, moveConcurrency, move),
        note:
          moveConcurrency < CONCURRENCY
            ? `${moveConcurrency} in flight (one dedicated case each)`
            : undefined,
      });
    }

    log();
    log(
      `${CASE_COUNT.toLocaleString('en')} bench cases (+ demo), heavy owner = demo doctor (${HEAVY_OWNER_CASES} cases); ` +
        `${REQUESTS} measured requests per call after ${WARMUP} warm-up, ${CONCURRENCY} in flight (node:http, keep-alive); ` +
        `SQL baseline: pg.Pool max ${POOL_SIZE} (= the server's pool), same concurrency.`,
    );
    log(
      `load average at the end (other work on the machine): ${loadavg()
        .map((l) => l.toFixed(1))
        .join(' ')}; ` +
        `machine: ${cpus().length} × ${cpus()[0]?.model ?? 'cpu'}, ${(totalmem() / 2 ** 30).toFixed(0)} GiB, Node ${process.versions.node}, ` +
        `${(await client.query<{ server_version: string }>('SHOW server_version')).rows[0]?.server_version.split(' ')[0]} PostgreSQL`,
    );
    log();
    log(
      '| actor | call | p50 ms | p95 ms | p99 ms | req/s | errors | CPU ms/req server · bench · other | SQL p50 | SQL p95 | SQL req/s | ratio p95 (API/SQL) | note |',
    );
    log('|---|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---|');
    const verdicts: string[] = [];
    for (const r of results) {
      const ratio = r.sql ? r.stats.p95 / r.sql.p95 : NaN;
      log(
        `| ${r.actor} | ${r.call} | ${fmt(r.stats.p50)} | ${fmt(r.stats.p95)} | ${fmt(r.stats.p99)} | ${r.stats.rps.toFixed(0)} | ${r.stats.errors} | ${cpuCell(r.stats)} | ` +
          `${r.sql ? fmt(r.sql.p50) : ''} | ${r.sql ? fmt(r.sql.p95) : ''} | ${r.sql ? r.sql.rps.toFixed(0) : ''} | ${r.sql ? ratio.toFixed(2) : ''} | ${r.note ?? ''} |`,
      );
      const budgeted = !r.call.includes('move') && !r.call.startsWith('reference');
      if (budgeted && r.stats.p95 >= BUDGET_P95_MS) {
        verdicts.push(`${r.actor} ${r.call}: p95 ${fmt(r.stats.p95)} ms ≥ ${BUDGET_P95_MS} ms`);
      }
      if (r.sql && ratio >= BUDGET_RATIO) {
        verdicts.push(`${r.actor} ${r.call}: ratio ${ratio.toFixed(2)} ≥ ${BUDGET_RATIO}`);
      }
      if (r.stats.errors > 0)
        verdicts.push(`${r.actor} ${r.call}: ${r.stats.errors} failed requests`);
    }
    log();
    if (verdicts.length === 0) {
      log(
        `budget met: p95 < ${BUDGET_P95_MS} ms for list, counts and get; list/SQL ratio < ${BUDGET_RATIO}`,
      );
    } else {
      failed = true;
      log('budget MISSED:');
      for (const v of verdicts) log(`- ${v}`);
    }
    const out = join(tmpdir(), 'dentflow-bench-results.md');
    writeFileSync(out, `${lines.join('\n')}\n`);
    console.log(`\n(results also in ${out})`);
  } finally {
    await client.end().catch(() => undefined);
    await pool.end().catch(() => undefined);
    if (server.child.exitCode === null) {
      const exited = new Promise((resolve) => server.child.once('exit', resolve));
      server.child.kill('SIGTERM');
      await exited;
    }
    rmSync(dataDir, { recursive: true, force: true });
    if (process.env.BENCH_KEEP === '1') console.log(`kept database ${url}`);
    else await adminQuery(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`);
  }
  process.exitCode = failed ? 1 : 0;
}

main().catch((error: unknown) => {
  console.error(error);
  process.exitCode = 1;
});
