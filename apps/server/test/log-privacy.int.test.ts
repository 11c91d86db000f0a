import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq, sql } from 'drizzle-orm';
import { users } from '../src/db/schema';
import {
  caseApi,
  caseInStatus,
  createUser,
  demoSessions,
  speakEnglish,
} from './support/cases-fixtures';
import { sampleJpeg, uploadFile } from './support/storage-fixtures';
import {
  bearer,
  captureLog,
  json,
  lastLinkTo,
  login,
  startSmtpPeer,
  startTestApp,
  type CapturedLog,
  type Session,
  type SmtpPeer,
  type TestApp,
} from './support/test-app';

/**
 * Health data and secrets never reach the log. A realistic journey runs through the whole server
 * with the log at debug level and mail over SMTP (as in production): a case for a patient with a
 * name found nowhere else, a search by that name, chat, a file uploaded and downloaded, a status
 * change mailed to the owner (its subject names the patient), an invitation, a password reset
 * and a login. Then the captured log is searched for the patient, the message, the mails' texts
 * and every token the journey handled.
 */
const PATIENT = { fname: 'Zorvanelle', lname: 'Quillingsworth' };
const CHAT_TEXT = 'Periapical lesion on 36, xylophonic remark 4471';
const NEW_PASSWORD = 'Brandnew-Pass-9931';

let t: TestApp;
let peer: SmtpPeer;
let log: CapturedLog;
/** Every token and link the journey saw, to look for in the log. */
const secrets: string[] = [];

beforeAll(async () => {
  peer = await startSmtpPeer();
  log = captureLog();
  t = await startTestApp({ SMTP_URL: peer.url, LOG_LEVEL: 'debug' }, { logStream: log.stream });
  // The demo doctor and clinic are Brazilian; the mails this journey checks are the English ones.
  await speakEnglish(t.app, 'doctor', 'clinic');
});

afterAll(async () => {
  await t?.close();
  await peer?.close();
});

const remember = (session: Session) => secrets.push(session.accessToken, session.refreshToken);
const mailTo = (email: string) => peer.received.filter((mail) => mail.to.includes(email));

describe('the log of a whole journey', () => {
  it('holds no patient name, message text, mail text or token', async () => {
    const demo = await demoSessions(t.app);
    Object.values(demo).forEach(remember);
    const api = caseApi(t.app);
    const owner = demo.doctor;

    // A case up to execute: the supervisor's validation mails the owner about the patient.
    const caseId = await caseInStatus(
      {
        app: t.app,
        owner,
        supervisor: demo.supervisor,
        planner: demo.planner,
        printer: demo.printer,
      },
      'execute',
      { patient: PATIENT },
    );
    const search = await api(owner, 'GET', `list/execute/0?patient=${PATIENT.lname}`);
    expect(search.statusCode, search.body).toBe(200);
    expect(json<{ obj: { items: { id: number }[] } }>(search).obj.items).toContainEqual(
      expect.objectContaining({ id: caseId }),
    );

    const posted = await api(owner, 'POST', `${caseId}/chat/3`, { text: CHAT_TEXT });
    expect(posted.statusCode, posted.body).toBe(200);
    const read = await api(demo.planner, 'GET', `${caseId}/chat/3`);
    expect(read.body).toContain(CHAT_TEXT);

    const uploaded = await uploadFile(
      t.app,
      demo.supervisor,
      caseId,
      'photoProtocol.generic',
      `${PATIENT.fname} smile.jpg`,
      await sampleJpeg(),
    );
    secrets.push(uploaded.url);
    const redirect = await t.app.inject({
      method: 'GET',
      url: `/api/v1/attachment/${uploaded.attachment.id}/download`,
      headers: bearer(owner),
    });
    secrets.push(redirect.headers.location as string);
    expect((await t.app.inject({ method: 'GET', url: uploaded.url })).statusCode).toBe(200);

    // An invitation: its link carries a bearer token, previewed through the API.
    const invitee = 'invited.student@privacy.test';
    const invited = await t.app.inject({
      method: 'POST',
      url: '/api/v1/users/invite_doctor',
      headers: bearer(demo.instructor),
      payload: { email: invitee, language: 'en' },
    });
    expect(invited.statusCode, invited.body).toBe(200);
    await t.app.mail.idle();
    const inviteToken = /invite=([A-Za-z0-9_-]+)/.exec(mailTo(invitee)[0]!.raw)![1]!;
    secrets.push(inviteToken);
    const preview = await t.app.inject({
      method: 'GET',
      url: `/api/v1/students/invitations/${inviteToken}`,
    });
    expect(preview.statusCode).toBe(200);

    // A password reset: the mailed link is opened, the new password set, then a login.
    const user = await createUser(t.app, ['doctor']);
    remember(user);
    const [row] = await t.app.database.db
      .select({ email: users.email })
      .from(users)
      .where(eq(users.id, user.profile.id));
    const email = row!.email;
    const forgot = await t.app.inject({
      method: 'POST',
      url: '/api/v1/auth/forgotPassword',
      payload: { email },
    });
    expect(forgot.statusCode).toBe(200);
    await t.app.mail.idle();
    const resetToken = lastLinkTo(
      mailTo(email).map((mail) => mail.raw),
      email,
      'resetPassword',
    );
    secrets.push(resetToken);
    await t.app.inject({ method: 'GET', url: `/resetPassword/${resetToken}` });
    const reset = await t.app.inject({
      method: 'POST',
      url: '/api/v1/auth/resetPassword',
      payload: { token: resetToken, password: NEW_PASSWORD, confirmPassword: NEW_PASSWORD },
    });
    expect(reset.statusCode, reset.body).toBe(200);
    const again = await login(t.app, email, NEW_PASSWORD);
    remember(again);
    const refreshed = await t.app.inject({
      method: 'POST',
      url: '/api/v1/auth/refresh_token',
      payload: { refresh_token: again.refreshToken },
    });
    const rotated = json<{ obj: Session }>(refreshed).obj;
    remember(rotated);

    // The mails went out, one of them naming the patient in its subject.
    await t.app.mail.idle();
    const ownerMail = mailTo('doctor@dentflow.local').map((mail) => mail.raw);
    expect(ownerMail.join('\n')).toContain(`Subject: New activity on case #${caseId}`);
    expect(ownerMail.join('\n')).toContain(PATIENT.lname);

    const logged = log.lines.join('\n');
    // The journey was logged (requests, mails), at debug level.
    expect(log.lines.length).toBeGreaterThan(40);
    expect(logged).toContain('"msg":"mail sent"');

    const forbidden = [
      PATIENT.fname,
      PATIENT.lname,
      CHAT_TEXT,
      '36, xylophonic',
      NEW_PASSWORD,
      'Dentflow123',
      'New activity on case',
      'There is new activity',
      'Reset your Dentflow password',
      'We received a request to reset your password',
      ...secrets.flatMap((secret) => {
        const query = secret.includes('?') ? secret.slice(secret.indexOf('?') + 1) : '';
        const values = [...new URLSearchParams(query).values()];
        return [secret, ...values.filter((value) => value.length >= 16)];
      }),
    ];
    for (const text of forbidden) {
      expect(logged.includes(text), `the log contains ${JSON.stringify(text)}`).toBe(false);
    }
    // The requests that carried them are there, redacted.
    expect(logged).toContain('/resetPassword/[redacted]');
    expect(logged).toContain('?patient=[redacted]');
  });

  it('keeps the values of a failed statement out of the log', async () => {
    // A statement the database refuses, carrying health data as a value: the 500's log line
    // names the database's error, never the statement's parameters.
    const bio = 'Ankylosed 47, quintessential remark 9023';
    const { db } = t.app.database;
    await db.execute(
      sql.raw(
        `alter table users add constraint test_refused_bio check (coalesce(data_info->>'bio', '') not like '%quintessential%') not valid`,
      ),
    );
    try {
      const demo = await demoSessions(t.app);
      const refused = await t.app.inject({
        method: 'POST',
        url: '/api/v1/profile/set',
        headers: bearer(demo.doctor),
        payload: { dataInfo: { bio } },
      });
      expect(refused.statusCode, refused.body).toBe(500);
    } finally {
      await db.execute(sql.raw('alter table users drop constraint test_refused_bio'));
    }
    const logged = log.lines.join('\n');
    expect(logged).toContain('test_refused_bio');
    expect(logged).not.toContain('quintessential');
  });
});
