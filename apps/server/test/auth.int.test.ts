import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { accountTokens, coupons, refreshTokens, users } from '../src/db/schema';
import { hashToken } from '../src/security/tokens';
import {
  bearer,
  json,
  lastLinkTo,
  login,
  startTestApp,
  type Session,
  type TestApp,
} from './support/test-app';

let t: TestApp;
beforeAll(async () => {
  t = await startTestApp();
});
afterAll(async () => {
  await t?.close();
});

const post = (url: string, payload: unknown, headers: Record<string, string> = {}) =>
  t.app.inject({ method: 'POST', url, payload: payload as object, headers });
const get = (url: string, session: { accessToken: string }) =>
  t.app.inject({ method: 'GET', url, headers: bearer(session) });

let counter = 0;
function newUser(overrides: Record<string, unknown> = {}) {
  counter += 1;
  return {
    email: `New.User${counter}@Example.com`,
    password: 'Secret123',
    fname: 'Ana',
    lname: 'Souza',
    nickName: `anasouza${counter}`,
    terms: true,
    ...overrides,
  };
}

async function registerAndVerify(overrides: Record<string, unknown> = {}) {
  const input = newUser(overrides);
  const registered = await post('/api/v1/auth/register', input);
  expect(registered.statusCode).toBe(200);
  const token = lastLinkTo(await t.outbox(), String(input.email).toLowerCase(), 'verify');
  const verified = await post('/api/v1/auth/verifyAccount', { token });
  expect(verified.statusCode).toBe(200);
  return input;
}

describe('register', () => {
  it('creates an unverified account, lower-cases the email and mails a verification link', async () => {
    const input = newUser();
    const response = await post('/api/v1/auth/register', input);
    expect(response.statusCode).toBe(200);
    const { obj } = json<{ obj: { id: number } }>(response);
    expect(obj.id).toBeGreaterThan(0);

    const [row] = await t.app.database.db.select().from(users).where(eq(users.id, obj.id));
    expect(row?.email).toBe(input.email.toLowerCase());
    expect(row?.verifiedAt).toBeNull();
    expect(row?.passwordHash).toMatch(/^\$argon2id\$v=19\$m=19456,t=2,p=1\$/);

    const token = lastLinkTo(await t.outbox(), input.email.toLowerCase(), 'verify');
    const mail = (await t.outbox()).find((m) => m.includes(token))!;
    expect(mail).toContain(`http://dentflow.test/verify/${token}`);
    // Only the hash is stored.
    const stored = await t.app.database.db
      .select()
      .from(accountTokens)
      .where(eq(accountTokens.tokenHash, hashToken(token)));
    expect(stored).toHaveLength(1);
    expect(stored[0]!.expiresAt.getTime() - Date.now()).toBeGreaterThan(6.9 * 24 * 3600 * 1000);
  });

  it('refuses a taken email (any case) and a taken nickname (any case) with 409', async () => {
    const first = newUser();
    expect((await post('/api/v1/auth/register', first)).statusCode).toBe(200);

    const sameEmail = await post(
      '/api/v1/auth/register',
      newUser({ email: first.email.toUpperCase() }),
    );
    expect(sameEmail.statusCode).toBe(409);
    expect(json(sameEmail)).toMatchObject({
      code: 'EMAIL_TAKEN',
      error: 'This email is already registered',
    });

    const sameNick = await post(
      '/api/v1/auth/register',
      newUser({ nickName: first.nickName.toUpperCase() }),
    );
    expect(sameNick.statusCode).toBe(409);
    expect(json(sameNick)).toMatchObject({ code: 'NICKNAME_TAKEN' });
  });

  it('validates every field with translated messages per field', async () => {
    const response = await post(
      '/api/v1/auth/register',
      { email: 'not-an-email', password: 'short', fname: '', nickName: 'has space', terms: false },
      { 'accept-language': 'pt-BR,pt;q=0.9' },
    );
    expect(response.statusCode).toBe(400);
    const body = json<{ error: string; code: string; fields: Record<string, string> }>(response);
    expect(body.code).toBe('VALIDATION_ERROR');
    expect(body.error).toBe('Erro de validação, verifique os campos obrigatórios');
    expect(body.fields).toMatchObject({
      email: 'Informe um e-mail válido',
      password:
        'A senha precisa de pelo menos 8 caracteres, com uma letra minúscula e uma maiúscula',
      fname: 'Este campo é obrigatório',
      lname: 'Este campo é obrigatório',
      nickName: 'Use apenas letras e números, sem espaços ou símbolos',
      terms: 'Você precisa aceitar os termos',
    });
  });

  it('requires terms to be exactly true', async () => {
    const response = await post('/api/v1/auth/register', newUser({ terms: 'yes' }));
    expect(response.statusCode).toBe(400);
    expect(json<{ fields: Record<string, string> }>(response).fields.terms).toBe(
      'You must accept the terms',
    );
  });

  it('keeps a valid coupon on the account and refuses unknown, inactive or used-up codes', async () => {
    const db = t.app.database.db;
    await db.insert(coupons).values([
      { code: 'OFF-INACTIVE', active: false },
      { code: 'OFF-USEDUP', maxUsage: 2, used: 2 },
      { code: 'OFF-EXPIRED', expireAt: new Date(Date.now() - 1000) },
      { code: 'OFF-DELETED', deletedAt: new Date() },
      { code: 'OFF-PERSONAL', bind2User: 1 },
    ]);
    const ok = await post('/api/v1/auth/register', newUser({ coupom: 'welcome10' }));
    expect(ok.statusCode).toBe(200);
    const [row] = await db
      .select()
      .from(users)
      .where(eq(users.id, json<{ obj: { id: number } }>(ok).obj.id));
    const [welcome] = await db.select().from(coupons).where(eq(coupons.code, 'WELCOME10'));
    expect(row?.couponId).toBe(welcome?.id);

    for (const code of [
      'NOPE',
      'OFF-INACTIVE',
      'OFF-USEDUP',
      'OFF-EXPIRED',
      'OFF-DELETED',
      'OFF-PERSONAL',
    ]) {
      const response = await post('/api/v1/auth/register', newUser({ coupom: code }), {
        'accept-language': 'es-ES',
      });
      expect(response.statusCode, code).toBe(400);
      expect(json(response)).toEqual({
        code: 'INVALID_COUPON',
        error: 'Este código de cupón no es válido',
      });
    }
  });

  it('mails in the language chosen at registration, else the Accept-Language one', async () => {
    const pt = newUser({ language: 'ptBR' });
    await post('/api/v1/auth/register', pt);
    const ptMail = (await t.outbox()).find((m) => m.includes(`To: ${pt.email.toLowerCase()}`))!;
    expect(ptMail).toContain('Bem-vindo ao Dentflow! Confirme seu endereço de e-mail');

    const es = newUser();
    await post('/api/v1/auth/register', es, { 'accept-language': 'es-ES,es;q=0.8' });
    const esMail = (await t.outbox()).find((m) => m.includes(`To: ${es.email.toLowerCase()}`))!;
    expect(esMail).toContain('¡Bienvenido a Dentflow! Confirme su dirección de correo electrónico');
    expect(esMail).toMatch(/http:\/\/dentflow\.test\/verify\/[A-Za-z0-9_-]{43}/);
  });
});

describe('verifyAccount and resendVerification', () => {
  it('verifies once; the same token again, an unknown one or an expired one give INVALID_TOKEN', async () => {
    const input = newUser();
    await post('/api/v1/auth/register', input);
    const token = lastLinkTo(await t.outbox(), input.email.toLowerCase(), 'verify');
    const first = await post('/api/v1/auth/verifyAccount', { token });
    expect(json(first)).toEqual({ obj: { verified: true } });
    const again = await post('/api/v1/auth/verifyAccount', { token });
    expect(again.statusCode).toBe(400);
    expect(json(again)).toMatchObject({ code: 'INVALID_TOKEN' });
    const unknown = await post('/api/v1/auth/verifyAccount', { token: 'x'.repeat(43) });
    expect(json(unknown)).toMatchObject({ code: 'INVALID_TOKEN' });

    const other = newUser();
    await post('/api/v1/auth/register', other);
    const expiring = lastLinkTo(await t.outbox(), other.email.toLowerCase(), 'verify');
    await t.app.database.db
      .update(accountTokens)
      .set({ expiresAt: sql`now() - interval '1 second'` })
      .where(eq(accountTokens.tokenHash, hashToken(expiring)));
    const expired = await post('/api/v1/auth/verifyAccount', { token: expiring });
    expect(expired.statusCode).toBe(400);
    expect(json(expired)).toMatchObject({ code: 'INVALID_TOKEN' });
  });

  it('answers the same for unknown logins and resends a working link to unverified accounts', async () => {
    const unknown = await post('/api/v1/auth/resendVerification', { login: 'nobody@nowhere.test' });
    expect(json(unknown)).toEqual({ obj: { sent: true } });

    const input = newUser();
    await post('/api/v1/auth/register', input);
    const before = (await t.outbox()).length;
    const resent = await post('/api/v1/auth/resendVerification', {
      login: input.nickName.toUpperCase(),
    });
    expect(json(resent)).toEqual({ obj: { sent: true } });
    expect((await t.outbox()).length).toBe(before + 1);
    const token = lastLinkTo(await t.outbox(), input.email.toLowerCase(), 'verify');
    expect((await post('/api/v1/auth/verifyAccount', { token })).statusCode).toBe(200);

    // Verified accounts get no more verification mail.
    const after = (await t.outbox()).length;
    await post('/api/v1/auth/resendVerification', { login: input.email });
    expect((await t.outbox()).length).toBe(after);
  });
});

describe('login', () => {
  it('accepts the email or the nickname in any case and returns tokens and a profile with public', async () => {
    const input = await registerAndVerify();
    for (const loginName of [input.email.toUpperCase(), input.nickName.toUpperCase()]) {
      const session = await login(t.app, loginName, input.password);
      expect(session.accessToken.split('.')).toHaveLength(3);
      expect(session.refreshToken).toMatch(/^[A-Za-z0-9_-]{43}$/);
      expect(session.profile.roles).toContain('public');
      expect((session.profile.dataGeneral as { email: string }).email).toBe(
        input.email.toLowerCase(),
      );
    }
  });

  it('refuses an unverified account with ACCOUNT_NOT_VERIFIED, translated', async () => {
    const input = newUser();
    await post('/api/v1/auth/register', input);
    const response = await post('/api/v1/auth/login', {
      login: input.email,
      password: input.password,
    });
    expect(response.statusCode).toBe(403);
    expect(json(response)).toEqual({
      code: 'ACCOUNT_NOT_VERIFIED',
      error: 'Your account is not verified.',
    });
    const pt = await post(
      '/api/v1/auth/login',
      { login: input.email, password: input.password },
      { 'accept-language': 'pt-BR' },
    );
    expect(json(pt)).toEqual({
      code: 'ACCOUNT_NOT_VERIFIED',
      error: 'Sua conta não está verificada.',
    });
  });

  it('gives one generic 401 for an unknown login and for a wrong password', async () => {
    const wrongPassword = await post('/api/v1/auth/login', {
      login: 'doctor',
      password: 'Wrong1234',
    });
    const unknownLogin = await post('/api/v1/auth/login', {
      login: 'ghost',
      password: 'Dentflow123',
    });
    expect(wrongPassword.statusCode).toBe(401);
    expect(unknownLogin.statusCode).toBe(401);
    expect(json(wrongPassword)).toEqual({
      code: 'INVALID_CREDENTIALS',
      error: 'Invalid login or password',
    });
    expect(json(unknownLogin)).toEqual(json(wrongPassword));
  });

  it('sets a 1-day refresh lifetime, or 30 days with remember', async () => {
    const db = t.app.database.db;
    const lifetime = async (session: Session) => {
      const [row] = await db
        .select()
        .from(refreshTokens)
        .where(eq(refreshTokens.tokenHash, hashToken(session.refreshToken)));
      return (row!.expiresAt.getTime() - Date.now()) / (24 * 3600 * 1000);
    };
    expect(await lifetime(await login(t.app, 'planner'))).toBeCloseTo(1, 1);
    expect(await lifetime(await login(t.app, 'planner', 'Dentflow123', true))).toBeCloseTo(30, 1);
  });
});

describe('refresh_token', () => {
  const refresh = (token: string) => post('/api/v1/auth/refresh_token', { refresh_token: token });

  it('rotates: the new token works, the profile has public, the old one is refused', async () => {
    const session = await login(t.app, 'clinic');
    const first = await refresh(session.refreshToken);
    expect(first.statusCode).toBe(200);
    const next = json<{ obj: Session }>(first).obj;
    expect(next.refreshToken).not.toBe(session.refreshToken);
    expect(next.profile.roles).toEqual(['clinic', 'public']);
    const profile = await t.app.inject({
      method: 'GET',
      url: '/api/v1/profile/get',
      headers: bearer(next),
    });
    expect(profile.statusCode).toBe(200);
    expect((await refresh(next.refreshToken)).statusCode).toBe(200);
  });

  it('treats reuse of a rotated token as theft and revokes the whole family', async () => {
    const session = await login(t.app, 'printer');
    const rotated = json<{ obj: Session }>(await refresh(session.refreshToken)).obj;
    const reuse = await refresh(session.refreshToken);
    expect(reuse.statusCode).toBe(401);
    expect(json(reuse)).toEqual({ error: 'not authorized', code: 'NOT_AUTHORIZED' });
    // The token the legitimate rotation produced is revoked too.
    expect((await refresh(rotated.refreshToken)).statusCode).toBe(401);
    // Another session of the same user is not affected.
    const other = await login(t.app, 'printer');
    expect((await refresh(other.refreshToken)).statusCode).toBe(200);
  });

  it('lets exactly one of ten concurrent refreshes of one token succeed', async () => {
    const session = await login(t.app, 'partner');
    const results = await Promise.all(
      Array.from({ length: 10 }, () => refresh(session.refreshToken)),
    );
    const statuses = results.map((r) => r.statusCode).sort();
    expect(statuses.filter((s) => s === 200)).toHaveLength(1);
    expect(statuses.filter((s) => s === 401)).toHaveLength(9);
    // The nine losers presented a rotated token: decision 003 treats that as reuse and closes the
    // session, so the winner's new token is refused too (the web client never races itself).
    const winner = json<{ obj: Session }>(results.find((r) => r.statusCode === 200)!).obj;
    expect((await refresh(winner.refreshToken)).statusCode).toBe(401);
    expect((await get('/api/v1/profile/get', winner)).statusCode).toBe(401);
  });

  it('refuses missing, unknown and expired tokens with 401 not authorized', async () => {
    const missing = await post('/api/v1/auth/refresh_token', {});
    expect(missing.statusCode).toBe(401);
    expect(json(missing)).toEqual({ error: 'not authorized', code: 'NOT_AUTHORIZED' });
    expect((await refresh('unknown-token')).statusCode).toBe(401);

    const session = await login(t.app, 'supervisor');
    await t.app.database.db
      .update(refreshTokens)
      .set({ expiresAt: sql`now() - interval '1 second'` })
      .where(eq(refreshTokens.tokenHash, hashToken(session.refreshToken)));
    expect((await refresh(session.refreshToken)).statusCode).toBe(401);
  });
});

describe('logout', () => {
  it('needs a bearer token and revokes the session server-side', async () => {
    const session = await login(t.app, 'instructor');
    const anonymous = await t.app.inject({
      method: 'DELETE',
      url: '/api/v1/auth/logout',
      payload: { refresh_token: session.refreshToken },
    });
    expect(anonymous.statusCode).toBe(401);
    expect(json(anonymous)).toMatchObject({ code: 'NOT_AUTHORIZED' });

    const response = await t.app.inject({
      method: 'DELETE',
      url: '/api/v1/auth/logout',
      headers: bearer(session),
      payload: { refresh_token: session.refreshToken },
    });
    expect(json(response)).toEqual({ obj: { loggedOut: true } });
    expect(
      (await post('/api/v1/auth/refresh_token', { refresh_token: session.refreshToken }))
        .statusCode,
    ).toBe(401);
    // The access token of the closed session stops working at once, not after its 15 minutes.
    expect((await get('/api/v1/profile/get', session)).statusCode).toBe(401);
  });

  it("cannot revoke someone else's session", async () => {
    const victim = await login(t.app, 'admin');
    const attacker = await login(t.app, 'doctor');
    await t.app.inject({
      method: 'DELETE',
      url: '/api/v1/auth/logout',
      headers: bearer(attacker),
      payload: { refresh_token: victim.refreshToken },
    });
    expect(
      (await post('/api/v1/auth/refresh_token', { refresh_token: victim.refreshToken })).statusCode,
    ).toBe(200);
  });
});

describe('forgotPassword and resetPassword', () => {
  it('answers the same whether or not the account exists; mails a 1-hour link in the user language', async () => {
    const unknown = await post('/api/v1/auth/forgotPassword', { email: 'nobody@nowhere.test' });
    expect(json(unknown)).toEqual({ obj: { sent: true } });

    const input = await registerAndVerify({ language: 'es' });
    const response = await post('/api/v1/auth/forgotPassword', {
      email: input.email.toUpperCase(),
    });
    expect(json(response)).toEqual({ obj: { sent: true } });
    const token = lastLinkTo(await t.outbox(), input.email.toLowerCase(), 'resetPassword');
    const mail = (await t.outbox()).find((m) => m.includes(token))!;
    expect(mail).toContain(`http://dentflow.test/resetPassword/${token}`);
    expect(mail).toContain('Este enlace es válido durante 1 hora');
    const [row] = await t.app.database.db
      .select()
      .from(accountTokens)
      .where(eq(accountTokens.tokenHash, hashToken(token)));
    const minutes = (row!.expiresAt.getTime() - Date.now()) / 60000;
    expect(minutes).toBeGreaterThan(59);
    expect(minutes).toBeLessThanOrEqual(60);
  });

  it('sets the new password once, revokes every session, and refuses mismatches and reused tokens', async () => {
    const input = await registerAndVerify();
    const sessionA = await login(t.app, input.email, input.password, true);
    const sessionB = await login(t.app, input.nickName, input.password);
    await post('/api/v1/auth/forgotPassword', { email: input.email });
    const token = lastLinkTo(await t.outbox(), input.email.toLowerCase(), 'resetPassword');

    const mismatch = await post('/api/v1/auth/resetPassword', {
      token,
      password: 'NewSecret123',
      confirmPassword: 'Other123',
    });
    expect(mismatch.statusCode).toBe(400);
    expect(json(mismatch)).toMatchObject({
      code: 'VALIDATION_ERROR',
      fields: { confirmPassword: 'The confirmation does not match' },
    });

    const reset = await post('/api/v1/auth/resetPassword', {
      token,
      password: 'NewSecret123',
      confirmPassword: 'NewSecret123',
    });
    expect(json(reset)).toEqual({ obj: { reset: true } });
    for (const session of [sessionA, sessionB]) {
      expect(
        (await post('/api/v1/auth/refresh_token', { refresh_token: session.refreshToken }))
          .statusCode,
      ).toBe(401);
      expect((await get('/api/v1/profile/get', session)).statusCode).toBe(401);
    }
    expect(
      (await post('/api/v1/auth/login', { login: input.email, password: input.password }))
        .statusCode,
    ).toBe(401);
    await login(t.app, input.email, 'NewSecret123');

    const again = await post('/api/v1/auth/resetPassword', {
      token,
      password: 'Another123',
      confirmPassword: 'Another123',
    });
    expect(again.statusCode).toBe(400);
    expect(json(again)).toMatchObject({ code: 'INVALID_TOKEN' });
  });

  it('refuses an expired reset link', async () => {
    const input = await registerAndVerify();
    await post('/api/v1/auth/forgotPassword', { email: input.email });
    const token = lastLinkTo(await t.outbox(), input.email.toLowerCase(), 'resetPassword');
    await t.app.database.db
      .update(accountTokens)
      .set({ expiresAt: sql`now() - interval '1 second'` })
      .where(eq(accountTokens.tokenHash, hashToken(token)));
    const response = await post('/api/v1/auth/resetPassword', {
      token,
      password: 'NewSecret123',
      confirmPassword: 'NewSecret123',
    });
    expect(response.statusCode).toBe(400);
    expect(json(response)).toMatchObject({ code: 'INVALID_TOKEN' });
  });
});
