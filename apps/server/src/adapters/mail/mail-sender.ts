import { randomBytes } from 'node:crypto';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import nodemailer from 'nodemailer';
import type { FastifyBaseLogger } from 'fastify';

export interface MailMessage {
  to: string;
  subject: string;
  text: string;
  html: string;
  /**
   * The links the message carries (with live tokens). Logged only in outbox mode, so a person
   * running locally can follow them; never in SMTP mode.
   */
  links: string[];
}

/** The mail port: SMTP in production, an outbox of `.eml` files by default. */
export interface MailSender {
  readonly kind: 'smtp' | 'outbox';
  send(message: MailMessage): Promise<void>;
  close(): void;
}

export function createMailSender(options: {
  smtpUrl: string | undefined;
  from: string;
  outboxDir: string;
  logger: FastifyBaseLogger;
}): MailSender {
  return options.smtpUrl
    ? createSmtpSender(options.smtpUrl, options.from, options.logger)
    : createOutboxSender(options.outboxDir, options.from, options.logger);
}

function createSmtpSender(smtpUrl: string, from: string, logger: FastifyBaseLogger): MailSender {
  const transport = nodemailer.createTransport(smtpUrl);
  return {
    kind: 'smtp',
    async send(message) {
      const info = await transport.sendMail({
        from,
        to: message.to,
        subject: message.subject,
        text: message.text,
        html: message.html,
      });
      // Never the links (they carry live verification and reset tokens) nor the full address.
      logger.info(
        {
          subject: message.subject,
          messageId: info.messageId,
          recipientDomain: recipientDomain(message.to),
        },
        'mail sent',
      );
    },
    close: () => transport.close(),
  };
}

function recipientDomain(address: string): string {
  const at = address.lastIndexOf('@');
  return at === -1 ? '' : address.slice(at + 1).replace(/>$/, '');
}

/** Writes each message as an RFC 822 `.eml` file (nodemailer's stream transport builds it). */
function createOutboxSender(
  outboxDir: string,
  from: string,
  logger: FastifyBaseLogger,
): MailSender {
  const transport = nodemailer.createTransport({
    streamTransport: true,
    buffer: true,
    newline: 'unix',
  });
  return {
    kind: 'outbox',
    async send(message) {
      const info = await transport.sendMail({
        from,
        to: message.to,
        subject: message.subject,
        text: message.text,
        html: message.html,
      });
      mkdirSync(outboxDir, { recursive: true });
      const file = join(
        outboxDir,
        `${new Date().toISOString().replace(/[:.]/g, '-')}-${randomBytes(4).toString('hex')}.eml`,
      );
      writeFileSync(file, info.message as Buffer);
      logger.info(
        { to: message.to, subject: message.subject, links: message.links, file },
        'mail written to the outbox',
      );
    },
    close: () => transport.close(),
  };
}
