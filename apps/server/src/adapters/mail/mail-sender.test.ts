import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Fastify from 'fastify';
import { SMTPServer } from 'smtp-server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { accountMail } from './account-mails';
import { createMailSender } from './mail-sender';

const logger = Fastify({ logger: { level: 'silent' } }).log;

/** A real pino logger whose lines land in `lines`, to check what each mode writes to the logs. */
function capturingLogger() {
  const lines: string[] = [];
  const stream = { write: (line: string) => void lines.push(line) };
  return { logger: Fastify({ logger: { level: 'info', stream } }).log, lines };
}

interface Received {
  from: string | undefined;
  to: string[];
  raw: string;
}
const received: Received[] = [];
let smtp: SMTPServer;
let smtpPort: number;

beforeAll(async () => {
  smtp = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS'],
    onData(stream, session, callback) {
      const chunks: Buffer[] = [];
      stream.on('data', (chunk: Buffer) => chunks.push(chunk));
      stream.on('end', () => {
        received.push({
          from: session.envelope.mailFrom ? session.envelope.mailFrom.address : undefined,
          to: session.envelope.rcptTo.map((r) => r.address),
          raw: Buffer.concat(chunks).toString('utf8'),
        });
        callback();
      });
    },
  });
  await new Promise<void>((resolve) => smtp.listen(0, '127.0.0.1', resolve));
  smtpPort = (smtp.server.address() as AddressInfo).port;
});
afterAll(async () => {
  await new Promise<void>((resolve) => smtp.close(() => resolve()));
});

const unfold = (raw: string) => raw.replace(/=\r?\n/g, '').replace(/=3D/g, '=');

describe('account mails', () => {
  it('are written in the recipient language with the link in text and HTML', () => {
    const link = 'http://localhost:3000/verify/abc_DEF-123';
    const pt = accountMail('verifyAccount', 'ptBR', { email: 'a@b.c', name: 'Ana' }, link);
    expect(pt.subject).toBe('Confirme sua conta Dentflow');
    expect(pt.text).toContain('Olá Ana,');
    expect(pt.text).toContain(link);
    expect(pt.html).toContain(`href="${link}"`);
    const es = accountMail('resetPassword', 'es', { email: 'a@b.c', name: '<b>Eve</b>' }, link);
    expect(es.subject).toBe('Restablezca su contraseña de Dentflow');
    expect(es.html).toContain('&lt;b&gt;Eve&lt;/b&gt;');
    expect(es.links).toEqual([link]);
  });
});

describe('SMTP adapter', () => {
  it('delivers to a real SMTP server', async () => {
    const sender = createMailSender({
      smtpUrl: `smtp://127.0.0.1:${smtpPort}`,
      from: 'Dentflow <no-reply@dentflow.test>',
      outboxDir: '/nonexistent',
      logger,
    });
    expect(sender.kind).toBe('smtp');
    const link = 'http://localhost:3000/resetPassword/tok_123';
    await sender.send(
      accountMail('resetPassword', 'en', { email: 'ana@example.com', name: 'Ana' }, link),
    );
    sender.close();
    expect(received).toHaveLength(1);
    expect(received[0]!.from).toBe('no-reply@dentflow.test');
    expect(received[0]!.to).toEqual(['ana@example.com']);
    expect(received[0]!.raw).toContain('Subject: Reset your Dentflow password');
    expect(unfold(received[0]!.raw)).toContain(link);
  });

  it('logs the subject, a message id and the recipient domain — never the links or the address', async () => {
    const capture = capturingLogger();
    const sender = createMailSender({
      smtpUrl: `smtp://127.0.0.1:${smtpPort}`,
      from: 'Dentflow <no-reply@dentflow.test>',
      outboxDir: '/nonexistent',
      logger: capture.logger,
    });
    const token = 'live_reset_token_4f9a';
    await sender.send(
      accountMail(
        'resetPassword',
        'en',
        { email: 'bea@clinic.example', name: 'Bea' },
        `http://localhost:3000/resetPassword/${token}`,
      ),
    );
    sender.close();
    const logged = capture.lines.join('\n');
    expect(logged).not.toContain(token);
    expect(logged).not.toContain('resetPassword/');
    expect(logged).not.toContain('bea@');
    expect(capture.lines).toHaveLength(1);
    const entry = JSON.parse(capture.lines[0]!) as Record<string, unknown>;
    expect(entry).toMatchObject({
      msg: 'mail sent',
      subject: 'Reset your Dentflow password',
      recipientDomain: 'clinic.example',
    });
    expect(entry.messageId).toEqual(expect.stringMatching(/^<.+>$/));
  });

  it('rejects when the SMTP server cannot be reached', async () => {
    const sender = createMailSender({
      smtpUrl: 'smtp://127.0.0.1:1',
      from: 'x@y.z',
      outboxDir: '/nonexistent',
      logger,
    });
    await expect(
      sender.send(
        accountMail('verifyAccount', 'en', { email: 'a@b.c', name: 'A' }, 'http://x/verify/t'),
      ),
    ).rejects.toThrow();
    sender.close();
  });
});

describe('outbox adapter', () => {
  it('writes one .eml file per message, readable as a mail', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'dentflow-outbox-'));
    try {
      const capture = capturingLogger();
      const sender = createMailSender({
        smtpUrl: undefined,
        from: 'Dentflow <no-reply@dentflow.local>',
        outboxDir: join(dir, 'outbox'),
        logger: capture.logger,
      });
      expect(sender.kind).toBe('outbox');
      await sender.send(
        accountMail(
          'verifyAccount',
          'es',
          { email: 'eva@example.com', name: 'Eva' },
          'http://localhost:3000/verify/tok_9',
        ),
      );
      const files = readdirSync(join(dir, 'outbox'));
      expect(files).toHaveLength(1);
      expect(files[0]).toMatch(/\.eml$/);
      const raw = readFileSync(join(dir, 'outbox', files[0]!), 'utf8');
      expect(raw).toContain('To: eva@example.com');
      expect(raw).toContain('From: Dentflow <no-reply@dentflow.local>');
      expect(unfold(raw)).toContain('http://localhost:3000/verify/tok_9');
      // Local convenience: the log shows the subject and the link to follow.
      expect(capture.lines).toHaveLength(1);
      expect(JSON.parse(capture.lines[0]!)).toMatchObject({
        msg: 'mail written to the outbox',
        subject: 'Confirme su cuenta de Dentflow',
        links: ['http://localhost:3000/verify/tok_9'],
      });
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
