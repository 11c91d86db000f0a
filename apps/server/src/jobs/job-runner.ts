import type { FastifyBaseLogger } from 'fastify';
import type { Db } from '../db/client';
import { withJobLock } from './job-lock.repository';

/** A periodic job. Its work must be idempotent: a second run finds nothing left to do. */
export interface JobDefinition {
  /** Stable name: log lines, metrics and the lock key. */
  name: string;
  /** The advisory lock key, fixed per job: every instance must use the same one. */
  lockKey: number;
  everyMs: number;
  /** Also runs once as soon as the server is ready (work left while no instance ran). */
  runAtStart?: boolean;
  run(): Promise<unknown>;
}

/**
 * 'ran': this instance did the work; 'contended': another instance holds the job's lock (it is
 * running it now); 'busy': this instance is running it already; 'failed': it threw (logged);
 * 'stopped': the runner is stopping.
 */
export type JobOutcome = 'ran' | 'contended' | 'busy' | 'failed' | 'stopped';

export interface JobCounts {
  runs: number;
  contended: number;
  failures: number;
}

export interface JobRunner {
  /** Starts every job's timer (and the run-at-start ones). */
  start(): void;
  /** No new run starts; resolves when the runs under way have finished. */
  stop(): Promise<void>;
  /** Runs one job now, through the same lock as its timer (tests, operations). */
  runNow(name: string): Promise<JobOutcome>;
  /** Per job: runs done here, runs skipped because another instance held the lock, failures. */
  counts(): Record<string, JobCounts>;
}

/**
 * One runner for every periodic job of the process. On PostgreSQL each run takes the job's
 * advisory lock (`pg_try_advisory_xact_lock`), so with several instances on one database only one
 * runs a given job at a time and the others skip that tick. PGlite is one process: there the
 * runner's own check that a job is not already running is the whole guard.
 */
export function createJobRunner(options: {
  db: Db;
  driver: 'pg' | 'pglite';
  log: FastifyBaseLogger;
  jobs: JobDefinition[];
  /** Called after every run (metrics). */
  onOutcome?: (job: string, outcome: JobOutcome, seconds: number) => void;
}): JobRunner {
  const { db, driver, log } = options;
  const jobs = new Map(options.jobs.map((job) => [job.name, job]));
  if (jobs.size !== options.jobs.length) throw new Error('two periodic jobs share a name');
  if (new Set(options.jobs.map((job) => job.lockKey)).size !== jobs.size) {
    throw new Error('two periodic jobs share a lock key');
  }
  const counts = new Map(
    options.jobs.map((job) => [job.name, { runs: 0, contended: 0, failures: 0 }]),
  );
  const running = new Map<string, Promise<JobOutcome>>();
  const timers: NodeJS.Timeout[] = [];
  let state: 'new' | 'running' | 'stopped' = 'new';

  async function execute(job: JobDefinition): Promise<JobOutcome> {
    const started = performance.now();
    const count = counts.get(job.name)!;
    let outcome: JobOutcome;
    try {
      if (driver === 'pglite') {
        await job.run();
        outcome = 'ran';
      } else {
        const locked = await withJobLock(db, job.lockKey, () => job.run());
        outcome = locked.locked ? 'ran' : 'contended';
      }
    } catch (error) {
      log.error({ err: error, job: job.name }, 'periodic job failed');
      outcome = 'failed';
    }
    if (outcome === 'ran') count.runs += 1;
    else if (outcome === 'contended') count.contended += 1;
    else count.failures += 1;
    options.onOutcome?.(job.name, outcome, (performance.now() - started) / 1000);
    return outcome;
  }

  function runNow(name: string): Promise<JobOutcome> {
    const job = jobs.get(name);
    if (!job) return Promise.reject(new Error(`no periodic job named ${name}`));
    if (state === 'stopped') return Promise.resolve('stopped');
    if (running.has(name)) return Promise.resolve('busy');
    const run = execute(job).finally(() => running.delete(name));
    running.set(name, run);
    return run;
  }

  return {
    start() {
      if (state !== 'new') return;
      state = 'running';
      for (const job of jobs.values()) {
        const timer = setInterval(() => void runNow(job.name), job.everyMs);
        timer.unref();
        timers.push(timer);
        if (job.runAtStart) void runNow(job.name);
      }
    },
    async stop() {
      state = 'stopped';
      for (const timer of timers) clearInterval(timer);
      // A job stops after its current item: each job's work is a loop of short transactions.
      await Promise.allSettled([...running.values()]);
    },
    runNow,
    counts: () =>
      Object.fromEntries([...counts].map(([name, count]) => [name, { ...count }])) as Record<
        string,
        JobCounts
      >,
  };
}
