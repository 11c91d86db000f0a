import { performance } from 'node:perf_hooks';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { json, startSmtpPeer, startTestApp, type SmtpPeer, type TestApp } from './support/test-app';
import { speakEnglish } from './support/cases-fixtures';

/** How long the slow SMTP peer takes to accept a recipient. */
const SMTP_DELAY_MS = 3000;
/**
 * An answer that waited for the delivery would take at least SMTP_DELAY_MS. The bounds are
 * generous because CI runs test files in parallel on two cores.
 */
const FAST_REPLY_MS = 1500;
/** How much a known and an unknown account may differ in response time. */
const TIMING_MARGIN_MS = 1000;

const KNOWN_EMAIL = 'doctor@dentflow.local';

async function timedPost(t: TestApp, url: string, payload: object) {
  const started = performance.now();
  const response = await t.app.inject({ method: 'POST', url, payload });
  return { response, ms: performance.now() - started };
}

describe('account mails with a slow SMTP server (no account enumeration by timing)', () => {
  let peer: SmtpPeer;
  let t: TestApp;
  beforeAll(async () => {
    peer = await startSmtpPeer({ delayMs: SMTP_DELAY_MS });
    t = await startTestApp({ SMTP_URL: peer.url });
  });
  afterAll(async () => {
    await t?.close();
    await peer?.close();
  });

  it('forgotPassword answers before the delivery, as fast for a known email as for an unknown one', async () => {
    // Warms up the route so the first measured call pays no one-off costs.
    await timedPost(t, '/api/v1/auth/forgotPassword', { email: 'warm-up@nowhere.test' });

    const known = await timedPost(t, '/api/v1/auth/forgotPassword', { email: KNOWN_EMAIL });
    const unknown = await timedPost(t, '/api/v1/auth/forgotPassword', {
      email: 'nobody@nowhere.test',
    });
    expect(known.response.statusCode).toBe(200);
    expect(json(known.response)).toEqual(json(unknown.response));
    expect(known.ms).toBeLessThan(FAST_REPLY_MS);
    expect(Math.abs(known.ms - unknown.ms)).toBeLessThan(TIMING_MARGIN_MS);
    expect(peer.received).toHaveLength(0);

    await t.app.mail.idle();
    expect(peer.received).toHaveLength(1);
    expect(peer.received[0]!.to).toEqual([KNOWN_EMAIL]);
    expect(peer.received[0]!.raw).toMatch(/http:\/\/dentflow\.test\/resetPassword\/[\w-]+/);
  });

  it('register and resendVerification answer before the delivery too', async () => {
    const email = 'slow.mail@example.com';
    const registered = await timedPost(t, '/api/v1/auth/register', {
      email,
      password: 'Secret123',
      fname: 'Ana',
      lname: 'Souza',
      nickName: 'slowmail',
      terms: true,
    });
    expect(registered.response.statusCode).toBe(200);
    expect(registered.ms).toBeLessThan(FAST_REPLY_MS);

    const resent = await timedPost(t, '/api/v1/auth/resendVerification', { login: email });
    const unknown = await timedPost(t, '/api/v1/auth/resendVerification', {
      login: 'nobody@nowhere.test',
    });
    expect(json(resent.response)).toEqual({ obj: { sent: true } });
    expect(resent.ms).toBeLessThan(FAST_REPLY_MS);
    expect(Math.abs(resent.ms - unknown.ms)).toBeLessThan(TIMING_MARGIN_MS);

    await t.app.mail.idle();
    const toNewUser = peer.received.filter((mail) => mail.to.includes(email));
    expect(toNewUser).toHaveLength(2);
    for (const mail of toNewUser) expect(mail.raw).toMatch(/http:\/\/dentflow\.test\/verify\//);
  });
});

describe('closing the app with a mail still being delivered', () => {
  let peer: SmtpPeer;
  let t: TestApp | undefined;
  beforeAll(async () => {
    peer = await startSmtpPeer({ delayMs: SMTP_DELAY_MS });
    t = await startTestApp({ SMTP_URL: peer.url });
  });
  afterAll(async () => {
    await t?.close();
    await peer?.close();
  });

  it('waits for the delivery before it finishes (SIGTERM loses no mail)', async () => {
    const app = t!;
    const response = await timedPost(app, '/api/v1/auth/forgotPassword', { email: KNOWN_EMAIL });
    expect(response.response.statusCode).toBe(200);
    expect(peer.received).toHaveLength(0);

    t = undefined;
    await app.close();
    expect(peer.received).toHaveLength(1);
    expect(peer.received[0]!.to).toEqual([KNOWN_EMAIL]);
  });
});

describe('account mails with an unreachable SMTP server', () => {
  let t: TestApp;
  beforeAll(async () => {
    // Nothing listens on port 1: the connection is refused.
    t = await startTestApp({ SMTP_URL: 'smtp://127.0.0.1:1' });
    await speakEnglish(t.app, 'doctor');
  });
  afterAll(async () => {
    await t?.close();
  });

  it('still answers forgotPassword with 200 and logs the failure without the link, the address or the subject', async () => {
    const logged = vi.spyOn(t.app.log, 'error');
    const response = await t.app.inject({
      method: 'POST',
      url: '/api/v1/auth/forgotPassword',
      payload: { email: KNOWN_EMAIL },
    });
    expect(response.statusCode).toBe(200);
    expect(json(response)).toEqual({ obj: { sent: true } });

    await t.app.mail.idle();
    expect(logged).toHaveBeenCalledTimes(1);
    expect(logged).toHaveBeenCalledWith(
      expect.objectContaining({
        kind: 'resetPassword',
        userId: expect.any(Number) as number,
        recipientDomain: 'dentflow.local',
        err: expect.objectContaining({
          message: expect.stringContaining('ECONNREFUSED') as string,
        }) as object,
      }),
      'mail not sent',
    );
    const entry = JSON.stringify(logged.mock.calls);
    expect(entry).not.toContain('resetPassword/');
    expect(entry).not.toContain('doctor@');
    // No subject: a notification's names the patient.
    expect(entry).not.toContain('Reset your Dentflow password');
  });
});
