import type { DbOrTx } from '../../db/client';
import {
  insertMails,
  mailsCte,
  mailsCteValues,
  readOutboxBacklog,
  type NewMail,
} from './mail-outbox.repository';

/**
 * Puts a mail in the durable outbox (decision 016). Call it with the transaction of the change
 * that causes the mail: it is delivered only if that change commits, and then even across a
 * crash. The commit wakes the mail workers; nothing needs to be sent by the caller.
 *
 * `template` names one of `mail-templates.ts` (rendered by the worker in `language`, English when
 * unknown); `params` are that template's (plain JSON: they are stored until delivery).
 */
export async function enqueueMail(tx: DbOrTx, mail: NewMail): Promise<void> {
  await insertMails(tx, [mail]);
}

/** Mails to send as a CTE of another write: its builder, its size and its placeholders' values. */
export interface MailsCte {
  count: number;
  cte(db: DbOrTx): ReturnType<typeof mailsCte>;
  values: Record<string, unknown>;
}

/**
 * Several mails of one change as a CTE of another write of it (`with mails as (insert …)`, one
 * statement for both, which may be built once per connection): the rows are written, and
 * delivered, exactly as `enqueueMail` writes them.
 */
export function enqueueMailsWith(mails: readonly NewMail[]): MailsCte {
  return {
    count: mails.length,
    cte: (db) => mailsCte(db, mails.length),
    values: mailsCteValues(mails),
  };
}

/** How many mails wait and how old the oldest is, for the operator's metrics. */
export function outboxBacklog(db: DbOrTx): Promise<{ pending: number; oldestAgeSeconds: number }> {
  return readOutboxBacklog(db);
}
