import type { FastifyBaseLogger } from 'fastify';
import type { Language } from '@dentflow/domain';
import type { CaseEvents } from './adapters/events/case-events';
import type { LiveUpdates } from './adapters/live/live-updates';
import type { MailSender } from './adapters/mail/mail-sender';
import type { Storage } from './adapters/storage/storage';
import type { ZipLookup } from './adapters/zip-lookup/zip-lookup';
import type { Config } from './config';
import type { Db } from './db/client';
import type { MetricsPort } from './metrics/metrics-port';
import type { PasswordChecks } from './security/password-checks';
import type { AccessTokens } from './security/tokens';

/** What services depend on, built once by buildApp(). */
export interface AppContext {
  config: Config;
  db: Db;
  mail: MailSender;
  accessTokens: AccessTokens;
  zipLookup: ZipLookup;
  /** File store: local folder or S3 (adapters/storage). */
  storage: Storage;
  /**
   * The process's logger. A service logging for a request logs through `logFor` instead, so the
   * line carries the request's id.
   */
  log: FastifyBaseLogger;
  /** Case changes, published after commit (cases, files; listened to by later features). */
  caseEvents: CaseEvents;
  /** Live updates to open browsers (Socket.IO rooms), sent after commit. */
  live: LiveUpdates;
  /** Every password check, limited per account and per client address (shared via Redis). */
  passwordChecks: PasswordChecks;
  /** Operational counters (Prometheus `GET /metrics`), through a port services need not know. */
  metrics: MetricsPort;
}

/**
 * What a service call may hold of the request it serves: the request's logger, whose lines carry
 * its id. Absent off HTTP (periodic jobs, sockets). Handed over explicitly rather than found
 * through `AsyncLocalStorage`, whose promise hooks cost every request about 0.05 ms of CPU on
 * Node.js 20 (`docs/performance.md`, "The per-request floor").
 */
export interface LogScope {
  log?: FastifyBaseLogger | undefined;
}

/** The logger for a line about `scope`'s request: the request's own, else the process's. */
export const logFor = (ctx: Pick<AppContext, 'log'>, scope?: LogScope): FastifyBaseLogger =>
  scope?.log ?? ctx.log;

/** Who is asking, for audit rows and messages. */
export interface RequestMeta extends LogScope {
  ip: string;
  /** The language detected for this request (profile, else Accept-Language, else en). */
  language: Language;
}
