import addressparser from 'nodemailer/lib/addressparser';
import { afterEach, describe, expect, it } from 'vitest';
import { enqueueMail } from '../src/modules/mail/mail-outbox';
import {
  bearer,
  decodeQuotedPrintable,
  login,
  startSmtpPeer,
  startTestApp,
  type SmtpPeer,
  type TestApp,
} from './support/test-app';

const MAIL_FROM = 'Dentflow Mailer <no-reply@clinic.test>';

const notice = (recipient: string) => ({
  recipient,
  template: 'notification',
  language: 'en',
  params: { eventType: 9, caseId: 12, patientName: 'Ana Lima', actorName: 'Bruno Costa' },
});

/** Undoes RFC 2047 Q-encoded words, as a mail reader shows a non-ASCII display name. */
const decodeWords = (text: string) =>
  text.replace(/=\?utf-8\?q\?(.*?)\?=/gi, (_, word: string) =>
    decodeQuotedPrintable(word.replace(/_/g, ' ')),
  );

/** The From header of a raw message, as display name and address. */
function fromOf(raw: string) {
  const header = /^From: (.*)$/m.exec(raw.replace(/\r?\n[ \t]+/g, ' '))?.[1];
  expect(header, raw).toBeDefined();
  return addressparser(decodeWords(header!), { flatten: true });
}

async function saveSenderName(t: TestApp, senderName: string) {
  const admin = await login(t.app, 'admin');
  const response = await t.app.inject({
    method: 'POST',
    url: '/api/v1/settings/emails',
    headers: bearer(admin),
    payload: { senderName, defaultEvents: [] },
  });
  expect(response.statusCode, response.body).toBe(200);
}

describe('the sender name of the emails settings', () => {
  let t: TestApp | undefined;
  let peer: SmtpPeer | undefined;
  afterEach(async () => {
    await t?.close();
    await peer?.close();
    t = undefined;
    peer = undefined;
  });

  it('names the sender of the next mail written to the outbox, without a restart', async () => {
    t = await startTestApp({ MAIL_FROM });
    const db = t.app.database.db;

    await enqueueMail(db, notice('first@example.com'));
    const [first] = await t.outbox();
    // Nothing saved yet: the default sender name with the configured address.
    expect(fromOf(first!)).toEqual([{ name: 'Dentflow', address: 'no-reply@clinic.test' }]);

    await saveSenderName(t, 'New Name');
    await enqueueMail(db, notice('second@example.com'));
    const mails = await t.outbox();
    expect(mails).toHaveLength(2);
    expect(fromOf(mails[1]!)).toEqual([{ name: 'New Name', address: 'no-reply@clinic.test' }]);
  });

  it('names the sender of mails delivered over SMTP, accents included', async () => {
    peer = await startSmtpPeer();
    t = await startTestApp({ MAIL_FROM, SMTP_URL: peer.url });
    await saveSenderName(t, 'Clínica Sorriso');

    await enqueueMail(t.app.database.db, notice('smtp@example.com'));
    await t.app.mail.idle();
    expect(peer.received).toHaveLength(1);
    expect(fromOf(peer.received[0]!.raw)).toEqual([
      { name: 'Clínica Sorriso', address: 'no-reply@clinic.test' },
    ]);
  });
});
