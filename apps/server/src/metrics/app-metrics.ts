import { collectDefaultMetrics, Counter, Gauge, Histogram, Registry } from 'prom-client';
import type { JobOutcome } from '../jobs/job-runner';
import type { MetricsPort } from './metrics-port';

/** What the gauges read at each scrape. */
export interface ScrapeSources {
  pool(): { total: number; idle: number; waiting: number } | undefined;
  outbox(): Promise<{ pending: number; oldestAgeSeconds: number }>;
  liveConnections(): number;
}

export interface AppMetrics {
  registry: Registry;
  /** The port services count through (`ctx.metrics`). */
  port: MetricsPort;
  /** One finished request: its route pattern (never the raw URL), method and status. */
  request(route: string, method: string, status: number, seconds: number): void;
  job(job: string, outcome: JobOutcome, seconds: number): void;
  /** Wires the gauges read at scrape time (the sources exist once the app is built). */
  readFrom(sources: ScrapeSources): void;
}

/**
 * The Prometheus metrics of one app instance, in a registry of its own (several apps in one
 * process — tests — do not share series). Names start with `dentflow_`.
 */
export function createAppMetrics(): AppMetrics {
  const registry = new Registry();
  collectDefaultMetrics({ register: registry, prefix: 'dentflow_' });
  let sources: ScrapeSources | undefined;

  const requestDuration = new Histogram({
    name: 'dentflow_http_request_duration_seconds',
    help: 'HTTP request duration by route pattern, method and status code',
    labelNames: ['route', 'method', 'status_code'] as const,
    buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
    registers: [registry],
  });
  const jobRuns = new Counter({
    name: 'dentflow_job_runs_total',
    help: 'Periodic job ticks by outcome: ran here, contended (another instance held the lock), failed',
    labelNames: ['job', 'outcome'] as const,
    registers: [registry],
  });
  const jobFailures = new Counter({
    name: 'dentflow_job_failures_total',
    help: 'Periodic job runs that failed',
    labelNames: ['job'] as const,
    registers: [registry],
  });
  const jobDuration = new Histogram({
    name: 'dentflow_job_duration_seconds',
    help: 'Periodic job run duration (runs done here)',
    labelNames: ['job'] as const,
    buckets: [0.01, 0.1, 0.5, 1, 5, 15, 60, 300],
    registers: [registry],
  });
  const paymentNotices = new Counter({
    name: 'dentflow_payment_notices_total',
    help: 'Provider payment notices: applied (moved a transaction) or refused, with the outcome',
    labelNames: ['result', 'outcome'] as const,
    registers: [registry],
  });
  new Gauge({
    name: 'dentflow_db_pool_connections',
    help: 'PostgreSQL pool connections by state (total, idle, waiting requests)',
    labelNames: ['state'] as const,
    registers: [registry],
    collect() {
      const pool = sources?.pool();
      if (!pool) return;
      this.set({ state: 'total' }, pool.total);
      this.set({ state: 'idle' }, pool.idle);
      this.set({ state: 'waiting' }, pool.waiting);
    },
  });
  // Read once per scrape for both gauges.
  let backlog: Promise<{ pending: number; oldestAgeSeconds: number } | undefined> | undefined;
  const readBacklog = () => {
    backlog ??= (sources?.outbox() ?? Promise.resolve(undefined))
      .catch(() => undefined)
      .finally(() => setTimeout(() => (backlog = undefined), 0));
    return backlog;
  };
  new Gauge({
    name: 'dentflow_mail_outbox_pending',
    help: 'Mails waiting in the outbox',
    registers: [registry],
    async collect() {
      const value = await readBacklog();
      if (value) this.set(value.pending);
    },
  });
  new Gauge({
    name: 'dentflow_mail_outbox_oldest_pending_age_seconds',
    help: 'Age of the oldest mail waiting in the outbox (0 when none)',
    registers: [registry],
    async collect() {
      const value = await readBacklog();
      if (value) this.set(value.oldestAgeSeconds);
    },
  });
  new Gauge({
    name: 'dentflow_live_socket_connections',
    help: 'Socket.IO connections to this instance',
    registers: [registry],
    collect() {
      if (sources) this.set(sources.liveConnections());
    },
  });

  return {
    registry,
    port: {
      paymentNotice: (result, outcome) => paymentNotices.inc({ result, outcome }),
    },
    request(route, method, status, seconds) {
      requestDuration.observe({ route, method, status_code: String(status) }, seconds);
    },
    job(job, outcome, seconds) {
      jobRuns.inc({ job, outcome });
      if (outcome === 'failed') jobFailures.inc({ job });
      if (outcome === 'ran') jobDuration.observe({ job }, seconds);
    },
    readFrom(next) {
      sources = next;
    },
  };
}
