import { writeFileSync } from 'node:fs';
import { cpus, tmpdir, totalmem } from 'node:os';
import { join } from 'node:path';
import type { Stats } from './measure';

export interface Result {
  actor: string;
  call: string;
  product: Stats;
  /** The bare server's figures for the same call (for a move: the captured move's statements). */
  bare?: Stats;
  /** product/bare throughput of each round (the servers take turns, rounds apart in time). */
  roundRatios?: number[];
  note?: string | undefined;
}

export interface Run {
  concurrency: number;
  loadBefore: string;
  loadAfter: string;
  results: Result[];
}

/** Budgets (docs/performance.md): p95 at 10 in flight, throughput and CPU against the bare server. */
const BUDGET_P95_MS = 50;
const BUDGET_P95_CONCURRENCY = 10;
const MIN_THROUGHPUT_RATIO = 0.7;
const MAX_EXTRA_SERVER_CPU_MS = 0.5;
const MAX_P50_GROWTH = 1.5;

const fmt = (ms: number) => (Number.isFinite(ms) ? ms.toFixed(1) : '–');
const cpuCell = ({ cpu }: Stats) =>
  cpu ? `${cpu.server.toFixed(2)} · ${cpu.client.toFixed(2)} · ${cpu.other.toFixed(2)}` : '';
const isRead = (r: Result) => !r.call.includes('move') && !r.call.startsWith('reference');
/** The calls whose throughput must reach 0.7× the bare server's (the search is judged by p95). */
const hasThroughputTarget = (r: Result) => isRead(r) && !r.call.includes('q=');

/**
 * Prints (and writes to the temp directory, as Markdown and JSON) one table per concurrency and
 * the verdicts. Returns true when a target is missed.
 */
export function printReport(input: {
  info: string[];
  runs: Run[];
  baseline: { runs: Run[]; cases: number } | undefined;
  cases: number;
  requests: number;
  rounds: number;
  warmup: number;
  /** Requests per call each server answered before any measurement. */
  processWarmup: number;
  poolSize: number;
  postgres: string;
  seedSeconds: number;
  databaseSize: string;
}): boolean {
  const lines = [...input.info, ''];
  const log = (line = '') => {
    lines.push(line);
    console.log(line);
  };
  const { baseline } = input;
  log(
    `${input.cases.toLocaleString('en')} bench cases (+ demo); ${input.requests} measured requests per call and server in ${input.rounds} rounds, the servers taking turns (product, bare, then bare, product, …), after ${input.processWarmup} warm-up requests per call and server, and ${input.warmup} more spread over the rounds (node:http, keep-alive); ` +
      `bare server: Fastify + pg.Pool max ${input.poolSize} (= the product's pool) replaying the product's statements. ` +
      `Machine: ${cpus().length} × ${cpus()[0]?.model ?? 'cpu'}, ${(totalmem() / 2 ** 30).toFixed(0)} GiB, Node ${process.versions.node}, PostgreSQL ${input.postgres}.`,
  );
  const verdicts: string[] = [];
  for (const run of input.runs) {
    const before = baseline?.runs.find((r) => r.concurrency === run.concurrency);
    log();
    log(
      `### ${run.concurrency} in flight — load average ${run.loadBefore} before, ${run.loadAfter} after`,
    );
    log();
    log(
      `| actor | call | p50 ms | p95 ms | req/s | CPU ms/req server · bench · other | bare p50 | bare p95 | bare req/s | bare CPU ms/req | req/s product/bare (rounds) | server CPU − bare ms |${before ? ` p50 at ${baseline!.cases.toLocaleString('en')} | p50 ratio |` : ''} note |`,
    );
    log(
      `|---|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|${before ? '---:|---:|' : ''}---|`,
    );
    for (const r of run.results) {
      const { product: p, bare: b } = r;
      const ratio = b ? p.rps / b.rps : NaN;
      const extraCpu = b && p.cpu && b.cpu ? p.cpu.server - b.cpu.server : NaN;
      const old = before?.results.find((o) => o.actor === r.actor && o.call === r.call);
      const growth = old ? p.p50 / old.product.p50 : NaN;
      const spread =
        r.roundRatios && r.roundRatios.length > 1
          ? ` (${Math.min(...r.roundRatios).toFixed(2)}–${Math.max(...r.roundRatios).toFixed(2)})`
          : '';
      log(
        `| ${r.actor} | ${r.call} | ${fmt(p.p50)} | ${fmt(p.p95)} | ${p.rps.toFixed(0)} | ${cpuCell(p)} | ` +
          `${b ? fmt(b.p50) : ''} | ${b ? fmt(b.p95) : ''} | ${b ? b.rps.toFixed(0) : ''} | ${b ? cpuCell(b) : ''} | ` +
          `${b ? `${ratio.toFixed(2)}${spread}` : ''} | ${b ? extraCpu.toFixed(2) : ''} |` +
          `${before ? ` ${old ? fmt(old.product.p50) : ''} | ${old ? growth.toFixed(2) : ''} |` : ''} ${r.note ?? ''} |`,
      );
      const label = `${run.concurrency} in flight, ${r.actor} ${r.call}`;
      if (p.errors > 0 || (b && b.errors > 0)) {
        verdicts.push(`${label}: ${p.errors} / ${b?.errors ?? 0} failed requests`);
      }
      if (!isRead(r)) continue;
      if (run.concurrency === BUDGET_P95_CONCURRENCY && p.p95 >= BUDGET_P95_MS) {
        verdicts.push(`${label}: p95 ${fmt(p.p95)} ms ≥ ${BUDGET_P95_MS} ms`);
      }
      if (hasThroughputTarget(r) && ratio < MIN_THROUGHPUT_RATIO) {
        verdicts.push(
          `${label}: throughput ${ratio.toFixed(2)}× the bare server's < ${MIN_THROUGHPUT_RATIO}`,
        );
      }
      if (extraCpu > MAX_EXTRA_SERVER_CPU_MS) {
        verdicts.push(
          `${label}: server CPU ${extraCpu.toFixed(2)} ms/req above the bare server's > ${MAX_EXTRA_SERVER_CPU_MS}`,
        );
      }
      if (growth > MAX_P50_GROWTH) {
        verdicts.push(
          `${label}: p50 ${growth.toFixed(2)}× the p50 at ${baseline!.cases.toLocaleString('en')} cases > ${MAX_P50_GROWTH}`,
        );
      }
    }
  }
  log();
  log(`seeding: ${input.seedSeconds.toFixed(0)} s; database size: ${input.databaseSize}`);
  if (verdicts.length === 0) {
    log(
      `targets met: p95 < ${BUDGET_P95_MS} ms at ${BUDGET_P95_CONCURRENCY} in flight; list, counts and get ≥ ${MIN_THROUGHPUT_RATIO}× the bare server's throughput; server CPU ≤ bare + ${MAX_EXTRA_SERVER_CPU_MS} ms${baseline ? `; p50 ≤ ${MAX_P50_GROWTH}× the baseline's` : ''}`,
    );
  } else {
    log('targets MISSED:');
    for (const v of verdicts) log(`- ${v}`);
  }
  const out = join(tmpdir(), `dentflow-bench-${input.cases}`);
  writeFileSync(`${out}.md`, `${lines.join('\n')}\n`);
  writeFileSync(`${out}.json`, JSON.stringify({ cases: input.cases, runs: input.runs }, null, 1));
  console.log(`\n(results also in ${out}.md and ${out}.json)`);
  return verdicts.length > 0;
}
