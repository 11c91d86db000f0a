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

/** Who is asking, for audit rows and messages. */
export interface RequestMeta {
  ip: string;
  /** The language detected for this request (profile, else Accept-Language, else en). */
  language: Language;
}
