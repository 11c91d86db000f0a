import type { MailMessage, MailSender } from '../../adapters/mail/mail-sender';
import type { Config } from '../../config';
import type { AppContext } from '../../context';
import type { DbOrTx } from '../../db/client';
import { enqueueChatDigests } from './chat-digest';
import { describeMailFailure, outboxMessageId } from '../../adapters/mail/mail-sender';
import { emailsSettingsOf } from '../settings';
import { storedMailError } from './mail-failure';
import {
  leaseMail,
  listenForQueuedMail,
  lockDueMail,
  markMailAttemptFailed,
  markMailSent,
  withOwnConnection,
  type MailRow,
} from './mail-outbox.repository';
import { renderMail } from './mail-templates';

export type MailWorkerContext = Pick<AppContext, 'db' | 'mail' | 'log'> & {
  config: Pick<Config, 'publicUrl' | 'databaseUrl'>;
};

export interface MailWorkerOptions {
  /** How often due retries and mails left by a crash are looked for. */
  intervalMs?: number;
  /** The most mails one run delivers (a full run asks for another at once). */
  batchSize?: number;
  /** Failed attempts before a mail is given up ('failed'). */
  maxAttempts?: number;
  /** The wait after the `attempt`-th failed attempt (1, 2, …). */
  backoffMs?: (attempt: number) => number;
  /** A send taking longer counts as failed; the row lock is held this long and 30 s more. */
  sendTimeoutMs?: number;
  /** On stop, how long due mails are still delivered before the process may exit. */
  drainMs?: number;
}

export interface MailWorker {
  /** Listens for committed mails, polls every interval and delivers what is already due. */
  start(): Promise<void>;
  /** Stops listening and polling, waits for the runs under way, then delivers what is due. */
  stop(): Promise<void>;
  /** Delivers due mails, one row lock (or lease) at a time, up to the batch size. */
  runOnce(): Promise<{ sent: number; failed: number }>;
  /** Starts a run in the background (while started); runs beyond two wait and are merged. */
  kick(): void;
  /** Enqueues the chat digests due at `now` (see chat-digest.ts). */
  runDigest(now?: Date): Promise<{ mails: number; notifications: number }>;
  /** (Tests) delivers what is due now and resolves when no run is under way. */
  idle(): Promise<void>;
}

const DEFAULTS = {
  intervalMs: 30_000,
  batchSize: 50,
  maxAttempts: 8,
  sendTimeoutMs: 60_000,
  drainMs: 5_000,
};
/** 30 s, 1 min, 2 min, … capped at one hour. */
export const defaultMailBackoffMs = (attempt: number) =>
  Math.min(30_000 * 2 ** Math.max(0, attempt - 1), 3_600_000);
/** How much longer than a send the row stays locked (or leased). */
const LOCK_MARGIN_MS = 30_000;
const MAX_CONCURRENT_KICKS = 2;

type Attempt =
  | { kind: 'sent' }
  | { kind: 'failed'; error: unknown; message: MailMessage }
  | { kind: 'unrenderable'; error: unknown };

class MailSendTimeout extends Error {
  override name = 'MailSendTimeout';
  constructor(ms: number) {
    super(`no answer from the mail server within ${ms} ms`);
  }
}

/**
 * The outbox worker (decision 016). On PostgreSQL a row is locked (`FOR UPDATE SKIP LOCKED`)
 * for the whole send and marked in the same transaction, so two instances never send one row
 * twice; PGlite (one process, one connection) leases the row instead, so the embedded database
 * is not blocked during an SMTP exchange.
 */
export function createMailWorker(
  ctx: MailWorkerContext,
  options: MailWorkerOptions = {},
): MailWorker {
  const { db, log, config } = ctx;
  const settings = { ...DEFAULTS, ...withoutUndefined(options) };
  const backoffMs = options.backoffMs ?? defaultMailBackoffMs;
  const holdMs = settings.sendTimeoutMs + LOCK_MARGIN_MS;
  const strategy = config.databaseUrl ? 'rowLock' : 'lease';

  let state: 'new' | 'running' | 'stopped' = 'new';
  const inFlight = new Set<Promise<unknown>>();
  let activeKicks = 0;
  let kickPending = false;
  let timer: NodeJS.Timeout | undefined;
  let relistenTimer: NodeJS.Timeout | undefined;
  let unlisten: (() => Promise<void>) | undefined;

  function track<T>(promise: Promise<T>): Promise<T> {
    const tracked = promise.finally(() => inFlight.delete(tracked));
    inFlight.add(tracked);
    return tracked;
  }

  async function settle(): Promise<void> {
    // A run started while we wait (a merged kick) is waited for too.
    while (inFlight.size > 0) await Promise.allSettled([...inFlight]);
  }

  async function attempt(row: MailRow, senderName: string): Promise<Attempt> {
    let message: MailMessage;
    try {
      message = {
        ...renderMail(row, config.publicUrl),
        senderName,
        messageId: outboxMessageId(row, config.publicUrl),
      };
    } catch (error) {
      return { kind: 'unrenderable', error };
    }
    try {
      await withTimeout(ctx.mail.send(message), settings.sendTimeoutMs);
      return { kind: 'sent' };
    } catch (error) {
      return { kind: 'failed', error, message };
    }
  }

  async function record(tx: DbOrTx, row: MailRow, outcome: Attempt): Promise<void> {
    if (outcome.kind === 'sent') return markMailSent(tx, row.id);
    const attempts = row.attempts + 1;
    const context = { mailId: row.id, kind: row.template, ...userOf(row), attempt: attempts };
    if (outcome.kind === 'unrenderable') {
      await markMailAttemptFailed(tx, row.id, {
        attempts,
        error: storedMailError(outcome.error),
        retryInMs: null,
      });
      log.error({ ...context, err: outcome.error }, 'mail given up');
      return;
    }
    const giveUp = attempts >= settings.maxAttempts;
    const retryInMs = giveUp ? null : Math.max(0, backoffMs(attempts));
    await markMailAttemptFailed(tx, row.id, {
      attempts,
      error: storedMailError(outcome.error, outcome.message),
      retryInMs,
    });
    log.error(
      { ...context, retryInMs, ...describeMailFailure(outcome.error, outcome.message) },
      giveUp ? 'mail given up' : 'mail not sent',
    );
  }

  /**
   * Delivers the next due mail not tried yet in this run, if any, and tells whether another may
   * be due. The sender name is read in the claiming statement, so a saved name applies to the
   * next mail without a restart.
   */
  async function deliverNext(
    tried: number[],
  ): Promise<{ outcome: Attempt['kind'] | 'none'; more: boolean }> {
    const none = { outcome: 'none', more: false } as const;
    if (strategy === 'rowLock') {
      return withOwnConnection(db, (connection) =>
        connection.transaction(async (tx) => {
          const row = await lockDueMail(tx, { exceptIds: tried, holdMs });
          if (!row) return none;
          tried.push(row.id);
          const { senderName } = emailsSettingsOf(row.emailsSettings);
          const outcome = await attempt(row, senderName);
          await record(tx, row, outcome);
          return { outcome: outcome.kind, more: row.more };
        }),
      );
    }
    const claimed = await db.transaction(async (tx) => {
      const due = await lockDueMail(tx, { exceptIds: tried });
      if (!due) return undefined;
      await leaseMail(tx, due.id, holdMs);
      return { row: due, senderName: emailsSettingsOf(due.emailsSettings).senderName };
    });
    if (!claimed) return none;
    tried.push(claimed.row.id);
    const outcome = await attempt(claimed.row, claimed.senderName);
    await record(db, claimed.row, outcome);
    return { outcome: outcome.kind, more: claimed.row.more };
  }

  async function deliver(limit: number, drainDeadline?: number) {
    const counts = { sent: 0, failed: 0 };
    // Each row at most once per run, even when its retry is due at once.
    const tried: number[] = [];
    // On stop a run ends after its current mail; only the drain goes on, until its deadline.
    const mayGoOn = () =>
      drainDeadline === undefined ? state !== 'stopped' : Date.now() < drainDeadline;
    for (let n = 0; n < limit && mayGoOn(); n++) {
      const { outcome, more } = await deliverNext(tried);
      if (outcome === 'none') return counts;
      if (outcome === 'sent') counts.sent += 1;
      else counts.failed += 1;
      // Nothing else was due when the row was claimed: no empty transaction to find that out.
      if (!more) return counts;
    }
    // More may be due: another run at once rather than at the next interval.
    if (counts.sent + counts.failed >= limit) kick();
    return counts;
  }

  function kick(): void {
    if (state !== 'running') return;
    if (activeKicks >= MAX_CONCURRENT_KICKS) {
      kickPending = true;
      return;
    }
    activeKicks += 1;
    void track(
      deliver(settings.batchSize)
        .catch((error: unknown) => log.warn({ err: error }, 'mail outbox run failed'))
        .finally(() => {
          activeKicks -= 1;
          if (kickPending) {
            kickPending = false;
            kick();
          }
        }),
    );
  }

  async function runDigest(now = new Date()) {
    const result = await enqueueChatDigests(db, now);
    if (result.mails > 0) kick();
    return result;
  }

  async function listen(): Promise<void> {
    relistenTimer = undefined;
    let current: (() => Promise<void>) | undefined;
    const lost = (error: Error) => {
      log.warn({ err: error }, 'mail outbox listener lost; polling until it is back');
      if (unlisten === current) unlisten = undefined;
      void current?.();
      scheduleListen();
    };
    try {
      current = await listenForQueuedMail(db, config.databaseUrl, kick, lost);
      if (state === 'running') unlisten = current;
      else await current();
    } catch (error) {
      log.warn({ err: error }, 'mail outbox listener not started; polling until it is');
      scheduleListen();
    }
  }

  function scheduleListen(): void {
    if (state !== 'running' || relistenTimer) return;
    relistenTimer = setTimeout(() => void listen(), settings.intervalMs);
    relistenTimer.unref();
  }

  return {
    async start() {
      if (state !== 'new') return;
      state = 'running';
      // The chat digest is a periodic job of its own (jobs/periodic-jobs.ts).
      timer = setInterval(kick, settings.intervalMs);
      timer.unref();
      await listen();
      // Mails left by a crash or by an instance that stopped go now.
      kick();
    },

    async stop() {
      if (state !== 'running') return settle();
      state = 'stopped';
      clearInterval(timer);
      clearTimeout(relistenTimer);
      kickPending = false;
      await unlisten?.();
      unlisten = undefined;
      await settle();
      // A mail committed just before the shutdown goes now rather than at the next start.
      await deliver(settings.batchSize, Date.now() + settings.drainMs).catch((error: unknown) =>
        log.warn({ err: error }, 'mail outbox not drained on stop'),
      );
    },

    runOnce: () => track(deliver(settings.batchSize)),
    kick,
    runDigest: (now) => track(runDigest(now)),

    async idle() {
      // A mail committed a moment ago may not have woken the worker yet: look now.
      kick();
      await settle();
    },
  };
}

/**
 * The app's mail sender, whose `idle()` also waits for the outbox worker: what was enqueued and
 * committed before the call has been delivered (or has failed) when it resolves.
 */
export function withMailWorker(mail: MailSender, worker: MailWorker): MailSender {
  return {
    kind: mail.kind,
    send: (message) => mail.send(message),
    dispatch: (message, context) => mail.dispatch(message, context),
    async idle() {
      await worker.idle();
      await mail.idle();
    },
    close: () => mail.close(),
  };
}

function withTimeout<T>(promise: Promise<T>, ms: number): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  // A send that fails after the time-out has already been counted: keep it from going unhandled.
  promise.catch(() => undefined);
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new MailSendTimeout(ms)), ms);
  });
  return Promise.race([promise, timeout]).finally(() => clearTimeout(timer));
}

/** The user an account mail is for (its params carry the id), for the failure log. */
function userOf(row: MailRow): { userId?: number } {
  const userId = row.params.userId;
  return typeof userId === 'number' ? { userId } : {};
}

function withoutUndefined<T extends object>(options: T): Partial<T> {
  return Object.fromEntries(
    Object.entries(options).filter(([, value]) => value !== undefined),
  ) as Partial<T>;
}
