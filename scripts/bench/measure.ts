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
 * Runs `total` calls of `call(i)` with `concurrency` in flight (a pool of workers, each starting
 * its next call when the previous one ends); `call` resolves to false on a failed call.
 */
export async function measure(
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

/**
 * `measure`, plus the CPU each request cost the server, this process and the rest of the
 * machine (PostgreSQL, and whatever else runs on a shared machine).
 */
export async function measureWithCpu(
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
