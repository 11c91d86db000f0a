import { randomBytes } from 'node:crypto';
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import nodemailer from 'nodemailer';
import type { FastifyBaseLogger } from 'fastify';

export interface MailMessage {
  to: string;
  subject: string;
  text: string;
  html: string;
  /**
   * The links the message carries (with live tokens). Logged only by the outbox of a local run
   * (no SMTP, not NODE_ENV=production), so a person can follow them; never otherwise.
   */
  links: string[];
  /**
   * The name the From header shows with the configured address (the settings' sender name, read
   * by the outbox worker); absent or empty: the configured `MAIL_FROM` as it is.
   */
  senderName?: string;
  /**
   * A Message-ID that stays the same each time this mail is sent (`<…@…>`). The outbox sets one
   * per row: a crash between sending and marking the row sent makes the worker send it again, and
   * mail clients show two deliveries with one Message-ID as one mail.
   */
  messageId?: string;
}

/** The outbox row's stable Message-ID: its id and creation time, at the public URL's host. */
export function outboxMessageId(row: { id: number; createdAt: Date }, publicUrl: string): string {
  const host = new URL(publicUrl).hostname || 'dentflow.local';
  return `<outbox-${row.id}-${row.createdAt.getTime()}@${host}>`;
}

/** The mail port: SMTP in production, an outbox of `.eml` files by default. */
export interface MailSender {
  readonly kind: 'smtp' | 'outbox';
  /** Delivers now: resolves once delivered, rejects when delivery fails. */
  send(message: MailMessage): Promise<void>;
  /**
   * Starts delivery in the background and returns at once, so an HTTP reply never waits for
   * (nor reveals, by its timing) a delivery. Never throws: a failure is logged with `context`.
   */
  dispatch(message: MailMessage, context?: Record<string, unknown>): void;
  /** Resolves when every dispatched message has been delivered or has failed. */
  idle(): Promise<void>;
  /** Waits for the dispatched messages, then releases the transport. */
  close(): Promise<void>;
}

/** One way of delivering a message, and what of a failed message may be logged in that mode. */
interface Delivery {
  readonly kind: MailSender['kind'];
  send(message: MailMessage): Promise<void>;
  failureLog(error: unknown, message: MailMessage): Record<string, unknown>;
  close(): void;
}

/**
 * What the mail log holds: never a subject (a notification's names the patient), a body or an
 * address in SMTP mode; the outbox of a local run also lists the recipient and the links.
 */
export function createMailSender(options: {
  smtpUrl: string | undefined;
  from: string;
  outboxDir: string;
  logger: FastifyBaseLogger;
  /** Outbox only: log each mail's recipient and links (a local run's convenience). */
  logLinks: boolean;
}): MailSender {
  const delivery = options.smtpUrl
    ? smtpDelivery(options.smtpUrl, options.from, options.logger)
    : outboxDelivery(options.outboxDir, options.from, options.logger, options.logLinks);
  return withBackgroundDispatch(delivery, options.logger);
}

function withBackgroundDispatch(delivery: Delivery, logger: FastifyBaseLogger): MailSender {
  const pending = new Set<Promise<void>>();
  async function idle(): Promise<void> {
    // A message dispatched while we wait is waited for too.
    while (pending.size > 0) await Promise.all(pending);
  }
  return {
    kind: delivery.kind,
    send: (message) => delivery.send(message),
    dispatch(message, context = {}) {
      const sending: Promise<void> = Promise.resolve()
        .then(() => delivery.send(message))
        .catch((error: unknown) => {
          logger.error({ ...context, ...delivery.failureLog(error, message) }, 'mail not sent');
        })
        .finally(() => pending.delete(sending));
      pending.add(sending);
    },
    idle,
    async close() {
      await idle();
      delivery.close();
    },
  };
}

/**
 * `MAIL_FROM` with its display name replaced by the settings' sender name:
 * ('Dentflow <no-reply@x.y>', 'Clínica') → '"Clínica" <no-reply@x.y>'. Quotes, backslashes,
 * angle brackets and control characters are dropped from the name; nothing left → `mailFrom`.
 */
export function mailFromWithSenderName(mailFrom: string, senderName: string): string {
  const address = /<([^<>]+)>\s*$/.exec(mailFrom)?.[1] ?? mailFrom.trim();
  const name = senderName.replace(/["\\<>\p{Cc}]/gu, '').trim();
  return name ? `"${name}" <${address}>` : mailFrom;
}

/** What nodemailer sends of a message, the same for both deliveries. */
const envelope = (from: string, message: MailMessage) => ({
  from: message.senderName ? mailFromWithSenderName(from, message.senderName) : from,
  to: message.to,
  subject: message.subject,
  text: message.text,
  html: message.html,
  ...(message.messageId ? { messageId: message.messageId } : {}),
});

function smtpDelivery(smtpUrl: string, from: string, logger: FastifyBaseLogger): Delivery {
  const transport = nodemailer.createTransport(smtpUrl);
  return {
    kind: 'smtp',
    async send(message) {
      const info = await transport.sendMail(envelope(from, message));
      // Never the subject (it may name the patient), the links (live tokens) nor the address.
      logger.info(
        { messageId: info.messageId, recipientDomain: recipientDomain(message.to) },
        'mail sent',
      );
    },
    // The SMTP peer's reply may quote the recipient; the same rules as above apply.
    failureLog: describeMailFailure,
    close: () => transport.close(),
  };
}

/**
 * What of a failed delivery may be logged: the recipient's domain and the error with the
 * message's links (live account tokens), subject (patient names) and any mail address removed.
 */
export function describeMailFailure(error: unknown, message: MailMessage): Record<string, unknown> {
  const failure = error instanceof Error ? error : new Error(String(error));
  const { code, command, responseCode } = failure as Error & Record<string, unknown>;
  return {
    err: {
      type: failure.name,
      message: redactMailText(failure.message, message),
      code,
      command,
      responseCode,
    },
    recipientDomain: recipientDomain(message.to),
  };
}

export function recipientDomain(address: string): string {
  const at = address.lastIndexOf('@');
  return at === -1 ? '' : address.slice(at + 1).replace(/>$/, '');
}

/** Removes the message's links, its subject and any mail address (keeping its domain) from a text. */
export function redactMailText(text: string, message: MailMessage): string {
  const withoutLinks = message.links.reduce((out, link) => out.split(link).join('[link]'), text);
  const withoutSubject = message.subject
    ? withoutLinks.split(message.subject).join('[subject]')
    : withoutLinks;
  return withoutSubject.replace(/[^\s<>"'@:;,()[\]]+@([A-Za-z0-9.-]+)/g, '[address]@$1');
}

/** Writes each message as an RFC 822 `.eml` file (nodemailer's stream transport builds it). */
function outboxDelivery(
  outboxDir: string,
  from: string,
  logger: FastifyBaseLogger,
  logLinks: boolean,
): Delivery {
  const transport = nodemailer.createTransport({
    streamTransport: true,
    buffer: true,
    newline: 'unix',
  });
  return {
    kind: 'outbox',
    async send(message) {
      const info = await transport.sendMail(envelope(from, message));
      const file = join(
        outboxDir,
        `${new Date().toISOString().replace(/[:.]/g, '-')}-${randomBytes(4).toString('hex')}.eml`,
      );
      // Off the event loop (a file's open and write block it for a while on a slow disk); the
      // folder is made when a write finds it missing, not checked before every mail.
      await writeFile(file, info.message as Buffer).catch(async (error: NodeJS.ErrnoException) => {
        if (error.code !== 'ENOENT') throw error;
        await mkdir(outboxDir, { recursive: true });
        await writeFile(file, info.message as Buffer);
      });
      logger.info(
        logLinks ? { to: message.to, links: message.links, file } : { file },
        'mail written to the outbox',
      );
    },
    // A failed write of a local file: the error names the file, never the message.
    failureLog: (error) => ({ err: error }),
    close: () => transport.close(),
  };
}
