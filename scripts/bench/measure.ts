import { readFileSync } from 'node:fs';

/** One measured call: latency percentiles, throughput and CPU per request. */
export interface Stats {
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
 * One stretch of measured calls, raw: `statsOf` merges the stretches of one server (the bench
 * alternates the two servers in rounds).
 */
export interface Sample {
  latencies: number[];
  errors: number;
  seconds: number;
  /** CPU milliseconds in all: the server process, this load generator, everything else. */
  cpuMs?: { server: number; client: number; other: number };
}

/**
 * Runs `total` calls of `call(i)` with `concurrency` in flight (a pool of workers, each starting
 * its next call when the previous one ends); `call` resolves to false on a failed call.
 */
async function sample(
  total: number,
  concurrency: number,
  call: (i: number, worker: number) => Promise<boolean>,
): Promise<Sample> {
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
  return { latencies, errors, seconds: (performance.now() - started) / 1000 };
}

/** The figures of one server's stretches together: pooled latencies, summed time and CPU. */
export function statsOf(samples: readonly Sample[]): Stats {
  const latencies = samples.flatMap((s) => s.latencies).sort((a, b) => a - b);
  const sum = (of: (s: Sample) => number) => samples.reduce((total, s) => total + of(s), 0);
  const count = latencies.length;
  const withCpu = samples.every((s) => s.cpuMs);
  return {
    count,
    errors: sum((s) => s.errors),
    p50: percentile(latencies, 50),
    p95: percentile(latencies, 95),
    p99: percentile(latencies, 99),
    mean: latencies.reduce((total, v) => total + v, 0) / count,
    rps: count / sum((s) => s.seconds),
    ...(withCpu
      ? {
          cpu: {
            server: sum((s) => s.cpuMs!.server) / count,
            client: sum((s) => s.cpuMs!.client) / count,
            other: sum((s) => s.cpuMs!.other) / count,
          },
        }
      : {}),
  };
}

export async function measure(...args: Parameters<typeof sample>): Promise<Stats> {
  return statsOf([await sample(...args)]);
}

const CLOCK_TICK_MS = 10; // USER_HZ = 100 on Linux
/** CPU time used so far, in ms: one process (from /proc/<pid>/stat) or the whole machine. */
export function processCpuMs(pid: number): number {
  try {
    const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
    return (Number(fields[11]) + Number(fields[12])) * CLOCK_TICK_MS; // utime + stime
  } catch {
    return 0; // the process has ended (a database backend that closed)
  }
}
function machineCpuMs(): number {
  const [, user, nice, system, , , irq, softirq] = readFileSync('/proc/stat', 'utf8')
    .split('\n')[0]!
    .trim()
    .split(/\s+/)
    .map(Number);
  return (user! + nice! + system! + irq! + softirq!) * CLOCK_TICK_MS;
}

/**
 * A stretch of calls (`sample`), plus the CPU it cost the server, this process and the rest of
 * the machine (PostgreSQL, and whatever else runs on a shared machine).
 */
export async function sampleWithCpu(
  serverPid: number,
  ...args: Parameters<typeof sample>
): Promise<Sample> {
  const before = {
    server: processCpuMs(serverPid),
    client: process.cpuUsage(),
    machine: machineCpuMs(),
  };
  const stretch = await sample(...args);
  const server = processCpuMs(serverPid) - before.server;
  const clientUsage = process.cpuUsage(before.client);
  const client = (clientUsage.user + clientUsage.system) / 1000;
  const other = Math.max(0, machineCpuMs() - before.machine - server - client);
  return { ...stretch, cpuMs: { server, client, other } };
}
