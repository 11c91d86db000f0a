/**
 * `npx tsx scripts/bench/move-cost.ts`: what one case move (submit ↔ backToNew) costs, in CPU
 * time, so the number holds on a machine other work shares (latency there does not).
 *
 * Like `npm run bench`: a fresh database, the real server in its own process, the 100,000 bench
 * cases. Then, per actor (the demo doctor, no one to notify; the supervisor, who notifies and
 * mails the owner; the supervisor again once the owners want no mail, `supervisor-unmailed`: the
 * same move without the mail's delivery by the outbox worker):
 * - MOVE_COST_SERIAL moves one at a time: the server's CPU per move (its process, /proc) and the
 *   database's (every PostgreSQL backend connected to the bench database, /proc) — CPU time, not
 *   wall time, so other work on the machine does not count;
 * - MOVE_COST_REQUESTS moves with 10 in flight (one case per worker): p50/p95 and the same CPU.
 *
 * The server runs as production runs it, from its bundle (built first, `buildServerBundle`).
 * MOVE_COST_SERVER_DIR runs another checkout's server (e.g. /work/main/apps/server) for a
 * before/after comparison on the same machine, in the same hour. MOVE_COST_CPU_PROF=<dir> starts
 * the server with `node --cpu-prof` (the profile is written when it stops); MOVE_COST_ACTORS
 * (e.g. `supervisor`) measures only those.
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { Agent, request as httpRequest } from 'node:http';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { benchLogin, benchRefresh, type PostJson } from './bench-login';
import { processCpuMs } from './measure';
import { adminQuery, buildServerBundle, databaseUrl, freePort } from './servers';
import { MOVE_CASES, MOVE_MARK, seedBenchCases } from './seed';

const SERIAL = Number(process.env.MOVE_COST_SERIAL ?? 400);
const REQUESTS = Number(process.env.MOVE_COST_REQUESTS ?? 1000);
const CONCURRENCY = 10;
const CPU_PROF_DIR = process.env.MOVE_COST_CPU_PROF;
const ACTORS = (process.env.MOVE_COST_ACTORS ?? 'doctor,supervisor,supervisor-unmailed').split(',');
const serverDir =
  process.env.MOVE_COST_SERVER_DIR ?? join(import.meta.dirname, '..', '..', 'apps', 'server');

async function main() {
  const name = `dentflow_bench_${Date.now()}`;
  await adminQuery(`CREATE DATABASE "${name}"`);
  const url = new URL(databaseUrl(name));
  const dataDir = mkdtempSync(join(tmpdir(), 'dentflow-move-cost-'));
  const port = await freePort();
  const base = `http://127.0.0.1:${port}`;
  const profile = CPU_PROF_DIR ? ['--cpu-prof', '--cpu-prof-dir', CPU_PROF_DIR] : [];
  const child = spawn(process.execPath, [...profile, buildServerBundle(serverDir)], {
    cwd: serverDir,
    env: {
      ...process.env,
      DATABASE_URL: url.toString(),
      PORT: String(port),
      HOST: '127.0.0.1',
      DATA_DIR: dataDir,
      LOG_LEVEL: 'warn',
      JWT_SECRET: 'bench-secret-that-is-long-enough-for-hs256-0123456789',
      WEB_DIST_DIR: join(dataDir, 'no-web-build'),
      RATE_LIMIT_LOGIN_MAX: '100000000',
      RATE_LIMIT_CASE_MOVE_MAX: '100000000',
    },
    stdio: ['ignore', 'inherit', 'inherit'],
  });
  const client = new pg.Client({ connectionString: url.toString() });
  try {
    for (let i = 0; ; i++) {
      if (i > 1200) throw new Error('the server did not start');
      if (
        await fetch(`${base}/api/health`).then(
          (r) => r.ok,
          () => false,
        )
      )
        break;
      await new Promise((resolve) => setTimeout(resolve, 250));
    }
    await client.connect();
    await seedBenchCases(client);
    const { rows: me } = await client.query<{ pid: number }>('SELECT pg_backend_pid() AS pid');
    /** CPU ms of the backends serving the server (every connection to the database but ours). */
    const databaseCpuMs = async () => {
      const { rows } = await client.query<{ pid: number }>(
        'SELECT pid FROM pg_stat_activity WHERE datname = current_database() AND pid <> $1',
        [me[0]!.pid],
      );
      return new Map(rows.map((r) => [r.pid, processCpuMs(r.pid)]));
    };
    const spent = (before: Map<number, number>, after: Map<number, number>) =>
      [...after].reduce((sum, [pid, ms]) => sum + ms - (before.get(pid) ?? 0), 0);

    const postJson: PostJson = async (path, payload) => {
      const response = await fetch(`${base}${path}`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify(payload),
      });
      return { status: response.status, body: await response.text() };
    };
    const agent = new Agent({ keepAlive: true, maxSockets: CONCURRENCY });
    const post = (token: string, path: string, payload: unknown) =>
      new Promise<number>((resolve, reject) => {
        const body = JSON.stringify(payload);
        const req = httpRequest(
          `${base}${path}`,
          {
            method: 'POST',
            agent,
            headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
          },
          (res) => {
            res.resume();
            res.on('end', () => resolve(res.statusCode ?? 0));
          },
        );
        req.on('error', reject);
        req.end(body);
      });

    console.log(
      `server ${serverDir}; load average at the start ${loadavg()
        .map((l) => l.toFixed(1))
        .join(' ')}`,
    );
    console.log(
      '| actor | in flight | moves | server CPU ms/move | database CPU ms/move | p50 ms | p95 ms | errors |',
    );
    console.log('|---|---:|---:|---:|---:|---:|---:|---:|');
    const sessions = {
      doctor: await benchLogin(postJson, 'doctor'),
      supervisor: await benchLogin(postJson, 'supervisor'),
    };
    const doctor = sessions.doctor;
    for (const [label, role] of [
      ['doctor', 'doctor'],
      ['supervisor', 'supervisor'],
      // The same moves when the owners want no mail of them: the supervisor's move without the
      // mail's delivery (the outbox worker's share of the server's CPU above).
      ['supervisor-unmailed', 'supervisor'],
    ] as const) {
      if (!ACTORS.includes(label)) continue;
      // A fresh access token per actor: one lasts 15 minutes, which a slow run can outlive.
      const actor = sessions[role];
      await benchRefresh(postJson, actor);
      const { rows } = await client.query<{ id: number; case_status: string }>(
        `SELECT id, case_status FROM cases WHERE observation = $1 AND (owner_id = $2) = $3
          ORDER BY id LIMIT $4`,
        [MOVE_MARK, doctor.id, role === 'doctor', MOVE_CASES],
      );
      if (label === 'supervisor-unmailed') {
        await client.query(
          `UPDATE users SET email_notifications = '[]'::jsonb
            WHERE id IN (SELECT owner_id FROM cases WHERE id = ANY($1))`,
          [rows.map((r) => r.id)],
        );
      }
      // Where an earlier actor left each case: anything but 'new' was submitted.
      const submitted = new Map(rows.map((r) => [r.id, r.case_status !== 'new']));
      const moveOnce = async (id: number) => {
        const status = await post(actor.token, `/api/v1/case/${id}/move`, {
          action: submitted.get(id) ? 'backToNew' : 'submit',
        });
        if (status === 200) submitted.set(id, !submitted.get(id));
        return status === 200;
      };
      for (const [inFlight, total] of [
        [1, SERIAL],
        [CONCURRENCY, REQUESTS],
      ] as const) {
        const ids = rows.slice(0, inFlight).map((r) => r.id);
        // Warm: V8 compiles the hot paths before anything is measured.
        for (let i = 0; i < 300; i++) await moveOnce(ids[i % ids.length]!);
        const latencies: number[] = [];
        let errors = 0;
        let next = 0;
        const serverBefore = processCpuMs(child.pid!);
        const dbBefore = await databaseCpuMs();
        await Promise.all(
          ids.map(async (id) => {
            while (next < total) {
              next++;
              const started = performance.now();
              if (!(await moveOnce(id))) errors++;
              latencies.push(performance.now() - started);
            }
          }),
        );
        const server = processCpuMs(child.pid!) - serverBefore;
        const database = spent(dbBefore, await databaseCpuMs());
        latencies.sort((a, b) => a - b);
        const at = (p: number) =>
          latencies[Math.ceil((p / 100) * latencies.length) - 1]!.toFixed(1);
        console.log(
          `| ${label} | ${inFlight} | ${total} | ${(server / total).toFixed(2)} | ${(database / total).toFixed(2)} | ${at(50)} | ${at(95)} | ${errors} |`,
        );
      }
    }
    console.log(
      `load average at the end ${loadavg()
        .map((l) => l.toFixed(1))
        .join(' ')}`,
    );
  } finally {
    await client.end().catch(() => {});
    child.kill('SIGTERM');
    await new Promise((resolve) => child.once('exit', resolve));
    await adminQuery(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`);
    rmSync(dataDir, { recursive: true, force: true });
  }
}

await main();
