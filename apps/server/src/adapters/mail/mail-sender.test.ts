import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Fastify from 'fastify';
import { SMTPServer } from 'smtp-server';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { accountMail } from './account-mails';
import { createMailSender, mailFromWithSenderName, outboxMessageId } from './mail-sender';

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
/** How long the server takes to accept a recipient (slow peers for the background tests). */
let rcptDelayMs = 0;

beforeAll(async () => {
  smtp = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS'],
    onRcptTo(address, _session, callback) {
      // Like real servers, the rejection quotes the address.
      if (address.address.startsWith('rejected')) {
        callback(
          Object.assign(new Error(`<${address.address}>: Recipient address rejected`), {
            responseCode: 550,
          }),
        );
        return;
      }
      setTimeout(() => callback(), rcptDelayMs);
    },
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

describe('the From header with the settings’ sender name', () => {
  it.each([
    ['Dentflow <no-reply@x.y>', 'Clínica', '"Clínica" <no-reply@x.y>'],
    ['no-reply@x.y', 'New Name', '"New Name" <no-reply@x.y>'],
    ['"Old, Name" <no-reply@x.y> ', ' New Name ', '"New Name" <no-reply@x.y>'],
    [
      'Dentflow <no-reply@x.y>',
      'Evil" <a@b.c>\r\nBcc: c@d.e',
      '"Evil a@b.cBcc: c@d.e" <no-reply@x.y>',
    ],
    ['Dentflow <no-reply@x.y>', '<>', 'Dentflow <no-reply@x.y>'],
  ])('%j named %j → %j', (mailFrom, senderName, expected) =>
    expect(mailFromWithSenderName(mailFrom, senderName)).toBe(expected),
  );
});

describe('SMTP adapter', () => {
  it('delivers to a real SMTP server', async () => {
    const sender = createMailSender({
      smtpUrl: `smtp://127.0.0.1:${smtpPort}`,
      from: 'Dentflow <no-reply@dentflow.test>',
      outboxDir: '/nonexistent',
      logLinks: false,
      logger,
    });
    expect(sender.kind).toBe('smtp');
    const link = 'http://localhost:3000/resetPassword/tok_123';
    await sender.send(
      accountMail('resetPassword', 'en', { email: 'ana@example.com', name: 'Ana' }, link),
    );
    await sender.close();
    expect(received).toHaveLength(1);
    expect(received[0]!.from).toBe('no-reply@dentflow.test');
    expect(received[0]!.to).toEqual(['ana@example.com']);
    expect(received[0]!.raw).toContain('Subject: Reset your Dentflow password');
    expect(unfold(received[0]!.raw)).toContain(link);
  });

  it('logs a message id and the recipient domain — never the subject, the links or the address', async () => {
    const capture = capturingLogger();
    const sender = createMailSender({
      smtpUrl: `smtp://127.0.0.1:${smtpPort}`,
      from: 'Dentflow <no-reply@dentflow.test>',
      outboxDir: '/nonexistent',
      logLinks: false,
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
    await sender.close();
    const logged = capture.lines.join('\n');
    expect(logged).not.toContain(token);
    expect(logged).not.toContain('resetPassword/');
    expect(logged).not.toContain('bea@');
    expect(capture.lines).toHaveLength(1);
    const entry = JSON.parse(capture.lines[0]!) as Record<string, unknown>;
    expect(entry).toMatchObject({ msg: 'mail sent', recipientDomain: 'clinic.example' });
    // A notification's subject names the patient: no subject is ever logged.
    expect(entry).not.toHaveProperty('subject');
    expect(logged).not.toContain('Reset your Dentflow password');
    expect(entry.messageId).toEqual(expect.stringMatching(/^<.+>$/));
  });

  it('rejects when the SMTP server cannot be reached', async () => {
    const sender = createMailSender({
      smtpUrl: 'smtp://127.0.0.1:1',
      from: 'x@y.z',
      outboxDir: '/nonexistent',
      logLinks: false,
      logger,
    });
    await expect(
      sender.send(
        accountMail('verifyAccount', 'en', { email: 'a@b.c', name: 'A' }, 'http://x/verify/t'),
      ),
    ).rejects.toThrow();
    await sender.close();
  });
});

describe('background delivery (dispatch)', () => {
  const smtpSender = (log = logger) =>
    createMailSender({
      smtpUrl: `smtp://127.0.0.1:${smtpPort}`,
      from: 'Dentflow <no-reply@dentflow.test>',
      outboxDir: '/nonexistent',
      logLinks: false,
      logger: log,
    });
  const resetMail = (email: string, token: string) =>
    accountMail(
      'resetPassword',
      'en',
      { email, name: 'Ana' },
      `http://localhost:3000/resetPassword/${token}`,
    );
  afterEach(() => {
    rcptDelayMs = 0;
  });

  it('returns at once and delivers in the background; idle() waits for the delivery', async () => {
    rcptDelayMs = 600;
    const sender = smtpSender();
    const before = received.length;
    const started = performance.now();
    sender.dispatch(resetMail('slow@example.com', 'tok_slow'));
    expect(performance.now() - started).toBeLessThan(50);
    expect(received).toHaveLength(before);
    await sender.idle();
    expect(received).toHaveLength(before + 1);
    expect(received.at(-1)!.to).toEqual(['slow@example.com']);
    await sender.close();
  });

  it('close() waits for a delivery still under way', async () => {
    rcptDelayMs = 600;
    const sender = smtpSender();
    const before = received.length;
    sender.dispatch(resetMail('closing@example.com', 'tok_closing'));
    await sender.close();
    expect(received).toHaveLength(before + 1);
    expect(received.at(-1)!.to).toEqual(['closing@example.com']);
  });

  it('never throws on a failure and logs it without the link, the token or the address', async () => {
    const capture = capturingLogger();
    const sender = smtpSender(capture.logger);
    const token = 'live_reset_token_77c1';
    sender.dispatch(resetMail('rejected.bea@clinic.example', token), {
      userId: 7,
      kind: 'resetPassword',
    });
    await sender.idle();
    const logged = capture.lines.join('\n');
    expect(logged).not.toContain(token);
    expect(logged).not.toContain('resetPassword/');
    expect(logged).not.toContain('rejected.bea');
    expect(logged).not.toContain('Reset your Dentflow password');
    expect(capture.lines).toHaveLength(1);
    const entry = JSON.parse(capture.lines[0]!) as Record<string, unknown>;
    expect(entry).toMatchObject({
      level: 50,
      msg: 'mail not sent',
      userId: 7,
      kind: 'resetPassword',
      recipientDomain: 'clinic.example',
      err: { responseCode: 550, command: 'RCPT TO' },
    });
    // The server's reply is kept, with the address reduced to its domain.
    expect((entry.err as { message: string }).message).toContain(
      '[address]@clinic.example>: Recipient address rejected',
    );
    await sender.close();
  });

  it('survives an unreachable server', async () => {
    const capture = capturingLogger();
    const sender = createMailSender({
      smtpUrl: 'smtp://127.0.0.1:1',
      from: 'x@y.z',
      outboxDir: '/nonexistent',
      logLinks: false,
      logger: capture.logger,
    });
    expect(() => sender.dispatch(resetMail('a@b.c', 'tok_x'))).not.toThrow();
    await sender.close();
    expect(capture.lines).toHaveLength(1);
    expect(JSON.parse(capture.lines[0]!)).toMatchObject({ msg: 'mail not sent' });
  });
});

describe('outbox adapter', () => {
  const verifyMail = () =>
    accountMail(
      'verifyAccount',
      'es',
      { email: 'eva@example.com', name: 'Eva' },
      'http://localhost:3000/verify/tok_9',
    );

  it('writes one .eml file per message, readable as a mail', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'dentflow-outbox-'));
    try {
      const capture = capturingLogger();
      const sender = createMailSender({
        smtpUrl: undefined,
        from: 'Dentflow <no-reply@dentflow.local>',
        outboxDir: join(dir, 'outbox'),
        logger: capture.logger,
        logLinks: true,
      });
      expect(sender.kind).toBe('outbox');
      await sender.send(verifyMail());
      const files = readdirSync(join(dir, 'outbox'));
      expect(files).toHaveLength(1);
      expect(files[0]).toMatch(/\.eml$/);
      const raw = readFileSync(join(dir, 'outbox', files[0]!), 'utf8');
      expect(raw).toContain('To: eva@example.com');
      expect(raw).toContain('From: Dentflow <no-reply@dentflow.local>');
      expect(unfold(raw)).toContain('http://localhost:3000/verify/tok_9');
      // A local run's convenience: the log shows the recipient and the link to follow, never the
      // subject (a notification's names the patient).
      expect(capture.lines).toHaveLength(1);
      const entry = JSON.parse(capture.lines[0]!) as Record<string, unknown>;
      expect(entry).toMatchObject({
        msg: 'mail written to the outbox',
        to: 'eva@example.com',
        links: ['http://localhost:3000/verify/tok_9'],
      });
      expect(entry).not.toHaveProperty('subject');
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('makes its folder again when it is gone, and writes into it when it is there', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'dentflow-outbox-'));
    try {
      const sender = createMailSender({
        smtpUrl: undefined,
        from: 'Dentflow <no-reply@dentflow.local>',
        outboxDir: join(dir, 'a', 'outbox'),
        logger: capturingLogger().logger,
        logLinks: false,
      });
      await sender.send(verifyMail());
      await sender.send(verifyMail());
      expect(readdirSync(join(dir, 'a', 'outbox'))).toHaveLength(2);
      rmSync(join(dir, 'a'), { recursive: true });
      await sender.send(verifyMail());
      expect(readdirSync(join(dir, 'a', 'outbox'))).toHaveLength(1);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it("carries a message's stable Message-ID, so a mail sent again is the same mail", async () => {
    const dir = mkdtempSync(join(tmpdir(), 'dentflow-outbox-'));
    try {
      const sender = createMailSender({
        smtpUrl: undefined,
        from: 'Dentflow <no-reply@dentflow.local>',
        outboxDir: join(dir, 'outbox'),
        logger: capturingLogger().logger,
        logLinks: false,
      });
      const row = { id: 42, createdAt: new Date('2026-11-25T10:00:00Z') };
      const messageId = outboxMessageId(row, 'https://app.dentflow.example/');
      expect(messageId).toBe(`<outbox-42-${row.createdAt.getTime()}@app.dentflow.example>`);
      await sender.send({ ...verifyMail(), messageId });
      await sender.send({ ...verifyMail(), messageId });
      const ids = readdirSync(join(dir, 'outbox')).map(
        (file) => /^Message-ID: (.+)$/im.exec(readFileSync(join(dir, 'outbox', file), 'utf8'))?.[1],
      );
      expect(ids).toEqual([messageId, messageId]);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('in production logs only the file: no link, token, recipient or subject', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'dentflow-outbox-'));
    try {
      const capture = capturingLogger();
      const sender = createMailSender({
        smtpUrl: undefined,
        from: 'Dentflow <no-reply@dentflow.local>',
        outboxDir: join(dir, 'outbox'),
        logger: capture.logger,
        logLinks: false,
      });
      await sender.send(verifyMail());
      expect(readdirSync(join(dir, 'outbox'))).toHaveLength(1);
      const logged = capture.lines.join('\n');
      expect(logged).not.toContain('tok_9');
      expect(logged).not.toContain('eva@');
      expect(logged).not.toContain('Confirme');
      expect(capture.lines).toHaveLength(1);
      expect(JSON.parse(capture.lines[0]!)).toMatchObject({
        msg: 'mail written to the outbox',
        file: expect.stringMatching(/\.eml$/),
      });
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
