import type { JobDefinition } from './job-runner';

/**
 * Every periodic job of the server, with its fixed advisory lock key (the same on every
 * instance; `4_711_023_0nn` keeps clear of the other advisory locks of the app). Each job's work
 * is idempotent on its own: a run that finds the work done changes nothing.
 */
export function periodicJobs(work: {
  /** Opens 'planning deadline near' once per case; the case row lock guards a second run. */
  markNearDeadlines(): Promise<unknown>;
  /** Removes unconfirmed uploads and temporary files older than 24 h. */
  cleanupFiles(): Promise<unknown>;
  /** Folds unseen chat notifications into digests; marks them mailed in the same transaction. */
  chatDigest(): Promise<unknown>;
}): JobDefinition[] {
  return [
    {
      name: 'deadline-near',
      lockKey: 4_711_023_001,
      everyMs: 600_000,
      runAtStart: true,
      run: work.markNearDeadlines,
    },
    { name: 'file-cleanup', lockKey: 4_711_023_002, everyMs: 3_600_000, run: work.cleanupFiles },
    { name: 'chat-digest', lockKey: 4_711_023_003, everyMs: 30_000, run: work.chatDigest },
  ];
}
