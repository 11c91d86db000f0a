import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { users } from '../src/db/schema';
import { hashPassword } from '../src/security/passwords';
import { base32Decode, hotp } from '../src/security/totp';
import { totpStep } from '@dentflow/domain';
import {
  bearer,
  json,
  login,
  nextTotpCode,
  startTestApp,
  type Session,
  type TestApp,
} from './support/test-app';

const CHROME_LINUX =
  'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36';

let t: TestApp;
beforeAll(async () => {
  t = await startTestApp();
});
afterAll(async () => {
  await t?.close();
});

const post = (url: string, payload: unknown, headers: Record<string, string> = {}) =>
  t.app.inject({ method: 'POST', url, payload: payload as object, headers });
const authed = (method: 'GET' | 'POST', url: string, session: Session, payload?: unknown) =>
  t.app.inject({
    method,
    url,
    headers: bearer(session),
    ...(payload === undefined ? {} : { payload: payload as object }),
  });
const errorOf = (response: { json(): unknown }) =>
  response.json() as { code: string; error: string };

type LoginAnswer = Session & {
  twoFactor?: { challenge: string; step: 'code' | 'enrol' };
  deviceToken?: string;
  recoveryCodes?: string[];
};

async function passwordStep(
  loginName: string,
  extra: Record<string, unknown> = {},
  password = 'Dentflow123',
): Promise<LoginAnswer> {
  const response = await post('/api/v1/auth/login', { login: loginName, password, ...extra });
  expect(response.statusCode).toBe(200);
  return json<{ obj: LoginAnswer }>(response).obj;
}

/** An account of this test's own (password Dentflow123), so no two tests share a second factor. */
async function newStaff(nickName: string, role: 'admin' | 'supervisor' | 'doctor') {
  const db = t.app.database.db;
  const [demo] = await db.select().from(users).where(eq(users.nickName, 'doctor')).limit(1);
  await db.insert(users).values({
    email: `${nickName}@clinic.test`,
    nickName,
    fname: 'Rita',
    lname: 'Lima',
    displayName: 'Rita Lima',
    passwordHash: await hashPassword('Dentflow123'),
    roles: [role],
    verifiedAt: new Date(),
    dataInfo: { ...demo!.dataInfo, language: 'en', currency: 'USD' },
    dataAddress: demo!.dataAddress,
    dataCapabilities: demo!.dataCapabilities,
  });
}

/** Enrols an account whose login asks for an enrolment; returns its secret and what enrol gave. */
async function enrolAtLogin(loginName: string, rememberDevice = false) {
  const answer = await passwordStep(loginName, {}, 'Dentflow123');
  expect(answer.twoFactor?.step).toBe('enrol');
  const challenge = answer.twoFactor!.challenge;
  const setup = await post('/api/v1/auth/twoFactor/setup', { challenge });
  expect(setup.statusCode).toBe(200);
  const { secret, otpauthUri } = json<{ obj: { secret: string; otpauthUri: string } }>(setup).obj;
  const key = base32Decode(secret);
  const { code, step } = await nextTotpCode(key);
  const enrolled = await post(
    '/api/v1/auth/twoFactor/enrol',
    { challenge, code, rememberDevice },
    { 'user-agent': CHROME_LINUX },
  );
  expect(enrolled.statusCode, enrolled.body).toBe(200);
  return { key, secret, otpauthUri, step, session: json<{ obj: LoginAnswer }>(enrolled).obj };
}

describe('an admin or supervisor without a second factor', () => {
  it('must enrol before any session: the challenge opens nothing else', async () => {
    await newStaff('forcedadmin', 'admin');
    const answer = await passwordStep('forcedadmin');
    expect(answer).toEqual({ twoFactor: { challenge: expect.any(String), step: 'enrol' } });
    expect(answer).not.toHaveProperty('accessToken');
    // The challenge is no access token, and a code step does not take it.
    const asBearer = await t.app.inject({
      method: 'GET',
      url: '/api/v1/profile/get',
      headers: { authorization: `Bearer ${answer.twoFactor!.challenge}` },
    });
    expect(asBearer.statusCode).toBe(401);
    const asCode = await post('/api/v1/auth/twoFactor/verify', {
      challenge: answer.twoFactor!.challenge,
      code: '123456',
    });
    expect(asCode.statusCode).toBe(401);
    expect(errorOf(asCode).code).toBe('TWO_FACTOR_CHALLENGE_EXPIRED');
  });

  it('enrols with a first code: otpauth URI, ten recovery codes, the platform recorded', async () => {
    await newStaff('enrolsup', 'supervisor');
    const answer = await passwordStep('enrolsup');
    const challenge = answer.twoFactor!.challenge;
    const setup = json<{ obj: { secret: string; otpauthUri: string } }>(
      await post('/api/v1/auth/twoFactor/setup', { challenge }),
    ).obj;
    expect(setup.secret).toMatch(/^[A-Z2-7]{32}$/);
    expect(setup.otpauthUri).toBe(
      `otpauth://totp/Dentflow%3Aenrolsup%40clinic.test?secret=${setup.secret}&issuer=Dentflow&algorithm=SHA1&digits=6&period=30`,
    );
    const key = base32Decode(setup.secret);
    const wrong = await post('/api/v1/auth/twoFactor/enrol', {
      challenge,
      code: hotp(key, totpStep(Date.now()) + 5),
    });
    expect(wrong.statusCode).toBe(400);
    expect(errorOf(wrong)).toEqual({
      code: 'TWO_FACTOR_CODE_INVALID',
      error: 'This security code is wrong. Check the code in your authenticator app and try again.',
    });
    const enrolled = await post(
      '/api/v1/auth/twoFactor/enrol',
      { challenge, code: (await nextTotpCode(key)).code },
      { 'user-agent': CHROME_LINUX },
    );
    expect(enrolled.statusCode).toBe(200);
    const session = json<{ obj: LoginAnswer }>(enrolled).obj;
    expect(session.accessToken).toEqual(expect.any(String));
    expect(session.recoveryCodes).toHaveLength(10);
    expect(new Set(session.recoveryCodes).size).toBe(10);
    for (const code of session.recoveryCodes!) expect(code).toMatch(/^[a-z2-7]{5}-[a-z2-7]{5}$/);
    expect(session.deviceToken).toBeUndefined();
    expect(session.profile.dataInfo).toMatchObject({ platform: 'web · Chrome · Linux' });

    // The secret is never answered again: no new secret once enabled, none in the status.
    const status = await authed('GET', '/api/v1/profile/twoFactor/get', session);
    expect(json(status)).toEqual({
      obj: { enabled: true, required: true, recoveryCodesLeft: 10, rememberedDevices: 0 },
    });
    const again = await authed('POST', '/api/v1/profile/twoFactor/setup', session, {});
    expect(again.statusCode).toBe(409);
    expect(errorOf(again).code).toBe('TWO_FACTOR_ALREADY_ENABLED');
  });
});

describe('a login with two-factor on', () => {
  it('asks for the code; a wrong one is refused, a right one opens the session once', async () => {
    await newStaff('codeadmin', 'admin');
    const { key, step: enrolStep } = await enrolAtLogin('codeadmin');
    const answer = await passwordStep('codeadmin');
    expect(answer.twoFactor?.step).toBe('code');
    const challenge = answer.twoFactor!.challenge;

    const wrong = await post(
      '/api/v1/auth/twoFactor/verify',
      { challenge, code: '000000' },
      { 'accept-language': 'pt-BR' },
    );
    expect(wrong.statusCode).toBe(400);
    expect(errorOf(wrong).error).toBe(
      'Código de segurança incorreto. Confira o código no seu app autenticador e tente de novo.',
    );

    const { code } = await nextTotpCode(key, enrolStep);
    const right = await post('/api/v1/auth/twoFactor/verify', { challenge, code });
    expect(right.statusCode).toBe(200);
    const session = json<{ obj: LoginAnswer }>(right).obj;
    expect((await authed('GET', '/api/v1/profile/get', session)).statusCode).toBe(200);

    // The same code again, even with a fresh challenge, is a replay.
    const next = await passwordStep('codeadmin');
    const replay = await post('/api/v1/auth/twoFactor/verify', {
      challenge: next.twoFactor!.challenge,
      code,
    });
    expect(replay.statusCode).toBe(400);
    expect(errorOf(replay).code).toBe('TWO_FACTOR_CODE_USED');
  });

  it('takes each recovery code once instead of a code', async () => {
    await newStaff('recoveradmin', 'admin');
    const { session } = await enrolAtLogin('recoveradmin');
    const recovery = session.recoveryCodes![3]!;
    const first = await passwordStep('recoveradmin');
    const used = await post('/api/v1/auth/twoFactor/verify', {
      challenge: first.twoFactor!.challenge,
      code: recovery.toUpperCase(),
    });
    expect(used.statusCode).toBe(200);
    const second = await passwordStep('recoveradmin');
    const reused = await post('/api/v1/auth/twoFactor/verify', {
      challenge: second.twoFactor!.challenge,
      code: recovery,
    });
    expect(reused.statusCode).toBe(400);
    expect(errorOf(reused).code).toBe('TWO_FACTOR_CODE_INVALID');
    const status = await authed(
      'GET',
      '/api/v1/profile/twoFactor/get',
      json<{ obj: Session }>(used).obj,
    );
    expect(json<{ obj: { recoveryCodesLeft: number } }>(status).obj.recoveryCodesLeft).toBe(9);
  });

  it('skips the code on a remembered device, until the password changes', async () => {
    await newStaff('deviceadmin', 'admin');
    const { session } = await enrolAtLogin('deviceadmin', true);
    const deviceToken = session.deviceToken!;
    expect(deviceToken).toEqual(expect.any(String));

    const skipped = await passwordStep('deviceadmin', { devices: ['unknown-token', deviceToken] });
    expect(skipped.accessToken).toEqual(expect.any(String));
    expect(skipped).not.toHaveProperty('twoFactor');

    // Another account's device token does not skip this account's code.
    await newStaff('otherdeviceadmin', 'admin');
    const other = await enrolAtLogin('otherdeviceadmin', true);
    const foreign = await passwordStep('deviceadmin', { devices: [other.session.deviceToken] });
    expect(foreign.twoFactor?.step).toBe('code');

    const changed = await authed('POST', '/api/v1/profile/updatePassword', skipped, {
      currentPassword: 'Dentflow123',
      newPassword: 'Changed1234',
      confirmPassword: 'Changed1234',
    });
    expect(changed.statusCode).toBe(200);
    const afterChange = await passwordStep(
      'deviceadmin',
      { devices: [deviceToken] },
      'Changed1234',
    );
    expect(afterChange.twoFactor?.step).toBe('code');
  });

  it('ends a challenge when the password changes meanwhile', async () => {
    await newStaff('staleadmin', 'admin');
    const { key, step } = await enrolAtLogin('staleadmin', true);
    const pending = await passwordStep('staleadmin');
    const session = await passwordStep('staleadmin', {});
    const fresh = await post('/api/v1/auth/twoFactor/verify', {
      challenge: session.twoFactor!.challenge,
      code: (await nextTotpCode(key, step)).code,
    });
    const open = json<{ obj: Session }>(fresh).obj;
    await authed('POST', '/api/v1/profile/updatePassword', open, {
      currentPassword: 'Dentflow123',
      newPassword: 'Changed1234',
      confirmPassword: 'Changed1234',
    });
    const stale = await post('/api/v1/auth/twoFactor/verify', {
      challenge: pending.twoFactor!.challenge,
      code: '123456',
    });
    expect(stale.statusCode).toBe(401);
    expect(errorOf(stale).code).toBe('TWO_FACTOR_CHALLENGE_EXPIRED');
    const garbage = await post('/api/v1/auth/twoFactor/verify', {
      challenge: 'not-a-token',
      code: '123456',
    });
    expect(garbage.statusCode).toBe(401);
  });
});

describe('two-factor from the profile (optional for other roles)', () => {
  it('lets a doctor turn it on and off; then the login asks for a code, then not', async () => {
    await newStaff('optdoctor', 'doctor');
    const session = await login(t.app, 'optdoctor');
    expect(json(await authed('GET', '/api/v1/profile/twoFactor/get', session))).toEqual({
      obj: { enabled: false, required: false, recoveryCodesLeft: 0, rememberedDevices: 0 },
    });
    const setup = json<{ obj: { secret: string } }>(
      await authed('POST', '/api/v1/profile/twoFactor/setup', session, {}),
    ).obj;
    const key = base32Decode(setup.secret);
    const first = await nextTotpCode(key);
    const enabled = await authed('POST', '/api/v1/profile/twoFactor/enable', session, {
      code: first.code,
    });
    expect(enabled.statusCode).toBe(200);
    expect(json<{ obj: { recoveryCodes: string[] } }>(enabled).obj.recoveryCodes).toHaveLength(10);

    const asked = await passwordStep('optdoctor');
    expect(asked.twoFactor?.step).toBe('code');

    const regenerated = await authed('POST', '/api/v1/profile/twoFactor/recoveryCodes', session, {
      code: first.code,
    });
    expect(errorOf(regenerated).code).toBe('TWO_FACTOR_CODE_USED');

    const wrongPassword = await authed('POST', '/api/v1/profile/twoFactor/disable', session, {
      password: 'Nope12345',
      code: '123456',
    });
    expect(wrongPassword.statusCode).toBe(400);
    expect(errorOf(wrongPassword).code).toBe('WRONG_PASSWORD');
    const disabled = await authed('POST', '/api/v1/profile/twoFactor/disable', session, {
      password: 'Dentflow123',
      code: (await nextTotpCode(key, first.step)).code,
    });
    expect(disabled.statusCode, disabled.body).toBe(200);
    const plain = await passwordStep('optdoctor');
    expect(plain.accessToken).toEqual(expect.any(String));
  });

  it('does not let an admin turn it off', async () => {
    await newStaff('keepadmin', 'admin');
    const { key, step, session } = await enrolAtLogin('keepadmin');
    const refused = await authed('POST', '/api/v1/profile/twoFactor/disable', session, {
      password: 'Dentflow123',
      code: (await nextTotpCode(key, step)).code,
    });
    expect(refused.statusCode).toBe(409);
    expect(errorOf(refused).code).toBe('TWO_FACTOR_REQUIRED_FOR_ROLE');
  });

  it("acts only on the caller's own second factor; without a session, on none", async () => {
    await newStaff('mineadmin', 'admin');
    const mine = await enrolAtLogin('mineadmin');
    await newStaff('otherdoctor', 'doctor');
    const doctor = await login(t.app, 'otherdoctor');
    // The doctor's status is the doctor's, and the admin's code means nothing on their account.
    expect(json(await authed('GET', '/api/v1/profile/twoFactor/get', doctor))).toMatchObject({
      obj: { enabled: false },
    });
    const borrowed = await authed('POST', '/api/v1/profile/twoFactor/recoveryCodes', doctor, {
      code: (await nextTotpCode(mine.key, mine.step)).code,
    });
    expect(borrowed.statusCode).toBe(409);
    const disable = await authed('POST', '/api/v1/profile/twoFactor/disable', doctor, {
      password: 'Dentflow123',
      code: mine.session.recoveryCodes![0],
    });
    expect(disable.statusCode).toBe(409);
    for (const url of [
      '/api/v1/profile/twoFactor/setup',
      '/api/v1/profile/twoFactor/enable',
      '/api/v1/profile/twoFactor/disable',
      '/api/v1/profile/twoFactor/recoveryCodes',
    ]) {
      expect((await post(url, { code: '123456', password: 'x' })).statusCode).toBe(401);
    }
    // The admin's recovery codes still all work for the admin.
    const status = await authed('GET', '/api/v1/profile/twoFactor/get', mine.session);
    expect(json<{ obj: { recoveryCodesLeft: number } }>(status).obj.recoveryCodesLeft).toBe(10);
  });

  it('refuses malformed codes with a translated 400, never a 500', async () => {
    const session = await login(t.app, 'doctor');
    for (const code of ['', '12', 'abc', 'x'.repeat(100)]) {
      const response = await authed('POST', '/api/v1/profile/twoFactor/enable', session, { code });
      expect(response.statusCode).toBe(400);
      expect(errorOf(response).code).toBe('VALIDATION_ERROR');
    }
  });
});

describe('rate limits on codes', () => {
  let limited: TestApp;
  beforeAll(async () => {
    limited = await startTestApp({ RATE_LIMIT_PASSWORD_ACCOUNT_MAX: '3' });
  });
  afterAll(async () => {
    await limited?.close();
  });

  it('counts wrong codes like wrong passwords: past the limit, every code and the password step get 429', async () => {
    const session = await login(limited.app, 'supervisor');
    expect(session.accessToken).toEqual(expect.any(String));
    const passwordStepOf = () =>
      limited.app.inject({
        method: 'POST',
        url: '/api/v1/auth/login',
        payload: { login: 'supervisor', password: 'Dentflow123' },
      });
    const { challenge } = json<{ obj: LoginAnswer }>(await passwordStepOf()).obj.twoFactor!;
    const verify = (code: string) =>
      limited.app.inject({
        method: 'POST',
        url: '/api/v1/auth/twoFactor/verify',
        payload: { challenge, code },
      });
    const statuses: number[] = [];
    for (let i = 0; i < 4; i++) statuses.push((await verify('000000')).statusCode);
    expect(statuses).toEqual([400, 400, 400, 429]);
    const blocked = await verify('111111');
    expect(blocked.statusCode).toBe(429);
    expect(errorOf(blocked).code).toBe('RATE_LIMITED');
    // The same counters as the password: the password step is held too.
    expect((await passwordStepOf()).statusCode).toBe(429);
  });
});
