/**
 * `npm run bench`: the case API at BENCH_CASES cases (default 100,000), against a bare server.
 *
 * 1. creates a fresh PostgreSQL database (BENCH_PG_URL, else TEST_PG_URL, else the local one);
 * 2. starts the real server on it with the SQL recorder loaded (migrations and the demo seed run
 *    as on any first start), bulk-seeds the cases in SQL (seed.ts), and records the statements
 *    each measured call sends (sql-recorder.ts), a submit and a backToNew of one move case per
 *    actor included; then stops it;
 * 3. starts the real server again, without the recorder (its production bundle, built with tsup
 *    first: servers.ts), and the bare anchor (bare-server.ts: Fastify + pg replaying the same
 *    statements), each in its own process, and checks that both answer the same rows and that
 *    the bare server's moves do to a case what the product's did;
 * 4. warms both (every call a thousand times), then measures every call on both with the same
 *    client, at each of BENCH_CONCURRENCY (default "10,50") requests in flight, in BENCH_ROUNDS
 *    rounds (default 4) in which the servers take turns; then the moves (moves.ts) the same way,
 *    the bare server replaying the captured submit and backToNew;
 * 5. prints per call p50/p95, throughput and CPU per request of both, the ratio product/bare and
 *    the verdicts (report.ts), writes the results as JSON, and drops the database (BENCH_KEEP=1
 *    keeps it). BENCH_BASELINE=<json of an earlier run> adds its p50s and the ratio to them.
 *
 * BENCH_ONLY=<text> measures only the calls whose "actor call" contains it (e.g. `supervisor
 * list`); BENCH_CPU_PROF=<dir> starts the measured server with `node --cpu-prof`, and the bare
 * server into <dir>/bare.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { caseCalls, keyOf, referenceCalls, type Actor, type BenchCall } from './calls';
import { benchLogin } from './bench-login';
import { groupCaptured } from './captured-calls';
import { httpClient, type Send } from './http-client';
import { measure, sampleWithCpu, statsOf, type Sample } from './measure';
import {
  captureMoves,
  measureMoves,
  moveAndObserve,
  moveCasesOf,
  MOVE_ACTIONS,
  type MoveOutcome,
} from './moves';
import { printReport, type Result, type Run } from './report';
import { CASE_COUNT, seedBenchCases } from './seed';
import { adminQuery, databaseUrl, startBare, startProduct, type ServerProcess } from './servers';

const CONCURRENCIES = (process.env.BENCH_CONCURRENCY ?? '10,50').split(',').map(Number);
const REQUESTS = Number(process.env.BENCH_REQUESTS ?? 1000);
/**
 * Each call is measured in rounds, the two servers taking turns (product, bare, bare, product,
 * …): on a shared VM whose speed drifts by half within minutes, one stretch per server compared
 * two different machines.
 */
const ROUNDS = Math.max(1, Number(process.env.BENCH_ROUNDS ?? 4));
const WARMUP = Math.min(200, Math.ceil(REQUESTS / 5));
const PROCESS_WARMUP = 1000;
/** The server's pool size (apps/server/src/db/client.ts); the bare server uses the same. */
const POOL_SIZE = 10;
const ONLY = process.env.BENCH_ONLY;
const selected = (actor: string, call: string) => !ONLY || `${actor} ${call}`.includes(ONLY);
const load = () =>
  loadavg()
    .map((l) => l.toFixed(1))
    .join(' ');

async function actorOf(
  send: Send,
  client: pg.Client,
  role: 'doctor' | 'supervisor',
): Promise<Actor> {
  const { token, id } = await benchLogin(
    async (path, payload) => send('POST', path, {}, payload),
    role,
  );
  const list = await send('GET', '/api/v1/case/list/new/0', { authorization: `Bearer ${token}` });
  const newTotal = (JSON.parse(list.body) as { obj: { total: number } }).obj.total;
  const { rows } = await client.query<{ id: number }>(
    role === 'doctor'
      ? `SELECT id FROM cases WHERE owner_id = $1 ORDER BY hashint4(id) LIMIT 200`
      : `SELECT id FROM cases WHERE $1::int IS NOT NULL ORDER BY hashint4(id) LIMIT 200`,
    [id],
  );
  return { role, token, id, newTotal, caseIds: rows.map((r) => r.id) };
}

const productHeaders = (call: BenchCall): Record<string, string> =>
  call.token ? { authorization: `Bearer ${call.token}` } : {};
const bareHeaders = (call: BenchCall): Record<string, string> =>
  call.user ? { 'x-bench-user': call.user } : {};

/** Records each call's statements on the capture server: warmed first, then once labelled. */
async function capture(send: Send, calls: BenchCall[]) {
  for (const call of calls) {
    for (let i = 0; i < 3; i++) await send('GET', call.path(0), productHeaders(call));
  }
  for (const call of calls) {
    const answer = await send('GET', call.path(0), {
      ...productHeaders(call),
      'x-bench-capture': keyOf(call),
    });
    if (!answer.ok) throw new Error(`${call.actor} ${call.name}: ${answer.status} ${answer.body}`);
  }
}

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
  const env = {
    DATABASE_URL: url,
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
  };
  const client = new pg.Client({ connectionString: url });
  const servers: ServerProcess[] = [];
  const info: string[] = [];
  const say = (line: string) => {
    info.push(line);
    console.log(line);
  };
  let failed = false;
  try {
    const recordFile = join(dataDir, 'captured.jsonl');
    const capturing = await startProduct(env, { recordSqlTo: recordFile });
    servers.push(capturing);
    say(`server up (migrated, demo seeded) in ${((Date.now() - started) / 1000).toFixed(1)} s`);
    await client.connect();
    const loadBeforeSeed = load();
    const seedStarted = Date.now();
    await seedBenchCases(client);
    const seedSeconds = (Date.now() - seedStarted) / 1000;
    const { rows: totals } = await client.query<{ cases: number; services: number; size: string }>(
      `SELECT (SELECT count(*) FROM cases)::int AS cases, (SELECT count(*) FROM case_services)::int AS services,
              pg_size_pretty(pg_database_size(current_database())) AS size`,
    );
    say(
      `seeded ${totals[0]!.cases} cases, ${totals[0]!.services} services in ${seedSeconds.toFixed(1)} s ` +
        `(SQL, incl. VACUUM ANALYZE and CHECKPOINT; load average ${loadBeforeSeed} before, ${load()} after); database ${totals[0]!.size}`,
    );

    const sendCapture = httpClient(capturing.base, 1);
    const doctor = await actorOf(sendCapture, client, 'doctor');
    const supervisor = await actorOf(sendCapture, client, 'supervisor');
    const calls = [...referenceCalls(doctor), ...caseCalls(doctor), ...caseCalls(supervisor)];
    await capture(sendCapture, calls);
    const moveCaptures = {
      doctor: await captureMoves(client, sendCapture, doctor, doctor.id),
      supervisor: await captureMoves(client, sendCapture, supervisor, doctor.id),
    };
    await capturing.stop();
    const caseIdOf = {
      ...Object.fromEntries(calls.filter((c) => c.caseIds).map((c) => [keyOf(c), c.caseIds![0]!])),
      ...moveCaptures.doctor.caseIds,
      ...moveCaptures.supervisor.caseIds,
    };
    const callsFile = join(dataDir, 'calls.json');
    const captured = groupCaptured(readFileSync(recordFile, 'utf8'), caseIdOf);
    writeFileSync(callsFile, JSON.stringify(captured));
    // The move's statements change with the server's code: how many the capture saw, by name.
    for (const key of Object.keys(moveCaptures.doctor.caseIds).concat(
      Object.keys(moveCaptures.supervisor.caseIds),
    )) {
      const statements = captured[key]?.statements ?? [];
      say(
        `captured ${key}: ${statements.length} statements (${statements.map((s) => s.name ?? s.text.split(/\s/, 1)[0]).join(', ')})`,
      );
    }

    const product = await startProduct(env);
    servers.push(product);
    const bare = await startBare({
      DATABASE_URL: url,
      BARE_CALLS: callsFile,
      POOL_SIZE: String(POOL_SIZE),
    });
    servers.push(bare);

    const maxInFlight = Math.max(...CONCURRENCIES);
    const sendProduct = httpClient(product.base, maxInFlight);
    const sendBare = httpClient(bare.base, maxInFlight);
    // Same rows both ways, or the comparison means nothing (three case ids for a get). The
    // second server's start runs the periodic jobs, which may touch a demo case while both
    // answer: a difference counts only if it is still there a second later.
    const compare = async (call: BenchCall, i: number) => {
      const [p, b] = await Promise.all([
        sendProduct('GET', call.path(i), productHeaders(call)),
        sendBare('GET', call.path(i), bareHeaders(call)),
      ]);
      return p.ok && b.ok
        ? call.mismatch(JSON.parse(p.body), JSON.parse(b.body))
        : `status ${p.status} / ${b.status}: ${b.body.slice(0, 200)}`;
    };
    for (const call of calls) {
      for (let i = 0; i < (call.caseIds ? 3 : 1); i++) {
        let why = await compare(call, i);
        if (why) {
          await new Promise((resolve) => setTimeout(resolve, 1000));
          why = await compare(call, i);
        }
        if (why) {
          say(`WARNING ${call.actor} ${call.name}: the answers differ (${why})`);
          failed = true;
        }
      }
    }
    // The bare server's moves must do to a case what the product's did in the capture: on
    // another move case than the captured one (the id replaced), a submit then a backToNew, each
    // leaving the same status and list and adding the same history rows.
    const steps: string[] = [];
    for (const actor of [doctor, supervisor]) {
      const [first, other = first] = await moveCasesOf(client, actor.role, doctor.id);
      for (const action of MOVE_ACTIONS) {
        const productOutcome: MoveOutcome = moveCaptures[actor.role].outcomes[action];
        const bareOutcome = await moveAndObserve(
          client,
          sendBare,
          { 'x-bench-user': actor.role },
          other!.id,
          action,
        ).catch((error: unknown) => String(error));
        const why =
          typeof bareOutcome === 'string'
            ? bareOutcome
            : JSON.stringify(bareOutcome) === JSON.stringify(productOutcome)
              ? undefined
              : `product ${JSON.stringify(productOutcome)} ≠ bare ${JSON.stringify(bareOutcome)}`;
        if (why) {
          say(`WARNING ${actor.role} case/{id}/move ${action}: the moves differ (${why})`);
          failed = true;
        } else {
          steps.push(`${actor.role} ${action} → ${productOutcome.status}`);
        }
      }
    }
    if (steps.length > 0) say(`bare moves as the product's: ${steps.join(', ')}`);

    // Steady state before anything is measured: each server answers every call a thousand times
    // first, so neither is measured while V8 still compiles its hot paths (the first calls
    // measured paid for it, the product more: it has more code to warm). Every call, also with
    // BENCH_ONLY: a move runs the reads' code too (the session, the case read of its answer).
    for (const [send, headersOf] of [
      [sendProduct, productHeaders],
      [sendBare, bareHeaders],
    ] as const) {
      for (const call of calls) {
        const headers = headersOf(call);
        await measure(
          PROCESS_WARMUP,
          10,
          async (i) => (await send('GET', call.path(i), headers)).ok,
        );
      }
    }

    const runs: Run[] = [];
    for (const concurrency of CONCURRENCIES) {
      const run: Run = { concurrency, loadBefore: load(), loadAfter: '', results: [] };
      const perRound = Math.ceil(REQUESTS / ROUNDS);
      const warmupPerRound = Math.ceil(WARMUP / ROUNDS);
      /** Both servers' stretches of one call, in rounds; which goes first alternates. */
      const inRounds = async (stretch: (side: 'product' | 'bare') => Promise<Sample>) => {
        const samples = { product: [] as Sample[], bare: [] as Sample[] };
        for (let round = 0; round < ROUNDS; round += 1) {
          const order =
            round % 2 === 0 ? (['product', 'bare'] as const) : (['bare', 'product'] as const);
          for (const side of order) samples[side].push(await stretch(side));
        }
        const rate = (s: Sample) => s.latencies.length / s.seconds;
        return {
          product: statsOf(samples.product),
          bare: statsOf(samples.bare),
          roundRatios: samples.product.map((s, i) => rate(s) / rate(samples.bare[i]!)),
        };
      };
      for (const call of calls) {
        if (!selected(call.actor, call.name)) continue;
        const {
          product: productStats,
          bare: bareStats,
          roundRatios,
        } = await inRounds(async (side) => {
          const [server, send, headers] =
            side === 'product'
              ? [product, sendProduct, productHeaders(call)]
              : [bare, sendBare, bareHeaders(call)];
          const once = async (i: number) => (await send('GET', call.path(i), headers)).ok;
          await measure(warmupPerRound, concurrency, once);
          return sampleWithCpu(server.child.pid!, perRound, concurrency, once);
        });
        const result: Result = {
          actor: call.actor,
          call: call.name,
          product: productStats,
          bare: bareStats,
          roundRatios,
          note: call.note,
        };
        run.results.push(result);
        console.log(
          `  ${concurrency} in flight, ${call.actor} ${call.name}: p95 ${productStats.p95.toFixed(1)} / bare ${bareStats.p95.toFixed(1)} ms, ${productStats.rps.toFixed(0)} / ${bareStats.rps.toFixed(0)} req/s`,
        );
      }
      for (const actor of [doctor, supervisor]) {
        if (!selected(actor.role, 'case/{id}/move')) continue;
        let note: string | undefined;
        const moves = await inRounds(async (side) => {
          const measured = await measureMoves(
            client,
            side === 'product' ? sendProduct : sendBare,
            side === 'product' ? product : bare,
            side === 'product'
              ? { authorization: `Bearer ${actor.token}` }
              : { 'x-bench-user': actor.role },
            actor.role,
            doctor.id,
            concurrency,
            perRound,
            warmupPerRound,
          );
          note = measured.note;
          return measured.sample;
        });
        run.results.push({
          actor: actor.role,
          call: 'case/{id}/move (submit ↔ backToNew)',
          ...moves,
          note,
        });
        console.log(
          `  ${concurrency} in flight, ${actor.role} case/{id}/move: p95 ${moves.product.p95.toFixed(1)} / bare ${moves.bare.p95.toFixed(1)} ms, ${moves.product.rps.toFixed(0)} / ${moves.bare.rps.toFixed(0)} req/s`,
        );
      }
      run.loadAfter = load();
      runs.push(run);
    }
    const baseline = process.env.BENCH_BASELINE
      ? (JSON.parse(readFileSync(process.env.BENCH_BASELINE, 'utf8')) as {
          runs: Run[];
          cases: number;
        })
      : undefined;
    const version = (
      await client.query<{ server_version: string }>('SHOW server_version')
    ).rows[0]!.server_version.split(' ')[0]!;
    failed =
      printReport({
        info,
        runs,
        baseline,
        cases: CASE_COUNT,
        requests: REQUESTS,
        rounds: ROUNDS,
        warmup: WARMUP,
        processWarmup: PROCESS_WARMUP,
        poolSize: POOL_SIZE,
        postgres: version,
        seedSeconds,
        databaseSize: totals[0]!.size,
      }) || failed;
  } finally {
    await client.end().catch(() => undefined);
    for (const server of servers.reverse()) await server.stop();
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
