import { eq } from 'drizzle-orm';
import { userProfileSchema, type ServiceDataMetadata } from '@dentflow/domain';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { announcements, auditLog, users } from '../src/db/schema';
import { bearer, json, login, startTestApp, type Session, type TestApp } from './support/test-app';
import { createUser } from './support/cases-fixtures';
import { speakEnglish } from './support/cases-fixtures';

let t: TestApp;
let doctor: Session;
beforeAll(async () => {
  t = await startTestApp();
  await speakEnglish(t.app, 'doctor', 'clinic');
  doctor = await login(t.app, 'doctor');
});
afterAll(async () => {
  await t?.close();
});

type Profile = ReturnType<typeof userProfileSchema.parse>;

const call = (
  method: 'GET' | 'POST',
  url: string,
  session: Session | undefined,
  payload?: unknown,
  headers: Record<string, string> = {},
) =>
  t.app.inject({
    method,
    url,
    headers: { ...(session ? bearer(session) : {}), ...headers },
    ...(payload === undefined ? {} : { payload: payload as object }),
  });

describe('profile/get', () => {
  it("returns the caller's complete profile in the domain shape", async () => {
    const response = await call('GET', '/api/v1/profile/get', doctor);
    expect(response.statusCode).toBe(200);
    const profile = userProfileSchema.parse(json<{ obj: Profile }>(response).obj);
    expect(profile.roles).toEqual(['doctor', 'public']);
    expect(profile.dataGeneral.email).toBe('doctor@dentflow.local');
    expect(profile.dataAddress.city).toBe('São Paulo');
    expect(profile.dataInfo.language).toBe('en');
  });

  it('refuses a missing or forged token with 401 in the envelope', async () => {
    const anonymous = await call('GET', '/api/v1/profile/get', undefined);
    expect(anonymous.statusCode).toBe(401);
    expect(json(anonymous)).toEqual({ error: 'not authorized', code: 'NOT_AUTHORIZED' });
    const forged = await t.app.inject({
      method: 'GET',
      url: '/api/v1/profile/get',
      headers: { authorization: 'Bearer eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxIn0.forged' },
    });
    expect(forged.statusCode).toBe(401);
  });
});

describe('profile/set', () => {
  it('updates general data, info and address partially and writes an audit row', async () => {
    const session = await login(t.app, 'clinic');
    const response = await call('POST', '/api/v1/profile/set', session, {
      dataGeneral: { displayName: 'Clínica Sorriso', nickName: 'ClinicaSorriso' },
      dataInfo: {
        bio: 'Implantes',
        mobile: { number: '(11) 98765-4321', whatsapp: true },
        typeOfDocument: 'CPF',
        document: '529.982.247-25',
      },
      dataAddress: { city: 'Campinas' },
    });
    expect(response.statusCode).toBe(200);
    const profile = json<{ obj: Profile }>(response).obj;
    expect(profile.dataGeneral).toMatchObject({
      displayName: 'Clínica Sorriso',
      nickName: 'ClinicaSorriso',
      fname: 'Clinic',
    });
    expect(profile.dataInfo).toMatchObject({
      bio: 'Implantes',
      language: 'en',
      document: '529.982.247-25',
    });
    expect(profile.dataInfo.mobile).toEqual({ number: '(11) 98765-4321', whatsapp: true });
    expect(profile.dataAddress).toMatchObject({ city: 'Campinas', state: 'SP' });
    const audits = await t.app.database.db
      .select()
      .from(auditLog)
      .where(eq(auditLog.action, 'profile.set'));
    expect(audits.some((a) => a.actorUserId === profile.id)).toBe(true);
  });

  it.each([
    ['roles', { roles: ['admin'] }],
    ['internal', { internal: true }],
    ['dataCapabilities', { dataCapabilities: { instructorDiscount: 100 } }],
    ['dataGeneral.roles', { dataGeneral: { roles: ['admin'] } }],
    ['dataGeneral.email', { dataGeneral: { email: 'other@dentflow.local' } }],
    ['dataGeneral.avatar', { dataGeneral: { avatar: 'x.png' } }],
    ['dataInfo.roles', { dataInfo: { roles: ['admin'] } }],
  ])('never lets a user change %s of their own account', async (field, payload) => {
    const before = await t.app.database.db.select().from(users).where(eq(users.nickName, 'doctor'));
    const response = await call('POST', '/api/v1/profile/set', doctor, payload);
    expect(response.statusCode).toBe(400);
    const body = json<{ code: string; fields: Record<string, string> }>(response);
    expect(body.code).toBe('VALIDATION_ERROR');
    expect(body.fields[field]).toBe('This field cannot be sent here');
    const after = await t.app.database.db.select().from(users).where(eq(users.nickName, 'doctor'));
    expect(after).toEqual(before);
  });

  it('refuses a nickname taken by someone else (any case) with 409 and accepts its own', async () => {
    const taken = await call('POST', '/api/v1/profile/set', doctor, {
      dataGeneral: { nickName: 'ADMIN' },
    });
    expect(taken.statusCode).toBe(409);
    expect(json(taken)).toMatchObject({
      code: 'NICKNAME_TAKEN',
      error: 'This nickname is already in use',
    });
    const own = await call('POST', '/api/v1/profile/set', doctor, {
      dataGeneral: { nickName: 'doctor' },
    });
    expect(own.statusCode).toBe(200);
  });

  it('validates fields with the domain rules (limits, nickname, phone, CPF check digits)', async () => {
    const response = await call('POST', '/api/v1/profile/set', doctor, {
      dataGeneral: { nickName: 'bad nick!', fname: '' },
      dataAddress: { city: 'X', complement: 'c'.repeat(41) },
      dataInfo: { language: 'fr' },
    });
    expect(response.statusCode).toBe(400);
    expect(json<{ fields: Record<string, string> }>(response).fields).toMatchObject({
      'dataGeneral.nickName': 'Use letters and digits only, without spaces or symbols',
      'dataGeneral.fname': 'This field is required',
      'dataAddress.city': 'Too short',
      'dataAddress.complement': 'Too long',
      'dataInfo.language': 'Invalid value',
    });
    const document = await call('POST', '/api/v1/profile/set', doctor, {
      dataInfo: {
        typeOfDocument: 'CPF',
        document: '111.111.111-11',
        mobile: { number: '123', whatsapp: false },
      },
    });
    expect(document.statusCode).toBe(400);
    expect(json<{ fields: Record<string, string> }>(document).fields).toEqual({
      'dataInfo.document': 'Invalid document number',
      'dataInfo.mobile.number': 'Invalid phone format',
    });
  });

  it('answers in the profile language once the user chose one, whatever Accept-Language says', async () => {
    const session = await login(t.app, 'partner');
    const set = await call('POST', '/api/v1/profile/set', session, {
      dataInfo: { language: 'ptBR' },
    });
    expect(set.statusCode).toBe(200);
    const response = await call(
      'POST',
      '/api/v1/profile/set',
      session,
      { roles: ['admin'] },
      { 'accept-language': 'es-ES' },
    );
    expect(json(response)).toMatchObject({
      error: 'Erro de validação, verifique os campos obrigatórios',
      fields: { roles: 'Este campo não pode ser enviado aqui' },
    });
  });
});

describe('profile/verifyNickname', () => {
  const verify = (nickname: unknown, session?: Session) =>
    call('POST', '/api/v1/profile/verifyNickname', session, { nickname });

  it('works without a token (register form) and compares without regard to case', async () => {
    expect(json(await verify('Planner'))).toEqual({ obj: { available: false } });
    expect(json(await verify('SomeoneNew42'))).toEqual({ obj: { available: true } });
  });

  it("counts the caller's own nickname as available", async () => {
    const planner = await login(t.app, 'planner');
    expect(json(await verify('PLANNER', planner))).toEqual({ obj: { available: true } });
    expect(json(await verify('printer', planner))).toEqual({ obj: { available: false } });
  });

  it('refuses malformed nicknames with INVALID_NICKNAME', async () => {
    for (const nickname of ['has space', 'semi;colon', '', 'a'.repeat(41)]) {
      const response = await verify(nickname);
      expect(response.statusCode, nickname).toBe(400);
      expect(json(response)).toEqual({ code: 'INVALID_NICKNAME', error: 'Invalid nickname' });
    }
    const pt = await call(
      'POST',
      '/api/v1/profile/verifyNickname',
      undefined,
      { nickname: 'a b' },
      { 'accept-language': 'pt-BR' },
    );
    expect(json(pt)).toEqual({ code: 'INVALID_NICKNAME', error: 'Apelido inválido' });
  });
});

describe('profile/set under concurrency', () => {
  it('keeps every field of simultaneous partial saves', async () => {
    const session = await login(t.app, 'planner');
    const changes = [
      { bio: 'Implantodontista' },
      { location: 'Recife' },
      { platform: 'web' },
      { specialization: 'Implantes' },
      { gender: 'female' },
      { language: 'es' as const },
      { currency: 'BRL' as const },
      { mobile: { number: '(81) 99999-0000', whatsapp: true } },
    ];
    const responses = await Promise.all(
      changes.map((dataInfo) => call('POST', '/api/v1/profile/set', session, { dataInfo })),
    );
    expect(responses.map((r) => r.statusCode)).toEqual(changes.map(() => 200));
    const profile = json<{ obj: { dataInfo: Record<string, unknown> } }>(
      await call('GET', '/api/v1/profile/get', session),
    ).obj;
    expect(profile.dataInfo).toMatchObject(Object.assign({}, ...changes));
  });
});

describe('profile/updatePassword', () => {
  it('needs the current password, checks the policy and the confirmation, then changes it', async () => {
    const session = await login(t.app, 'printer');
    const wrong = await call('POST', '/api/v1/profile/updatePassword', session, {
      currentPassword: 'Nope12345',
      newPassword: 'Changed123',
      confirmPassword: 'Changed123',
    });
    expect(wrong.statusCode).toBe(400);
    expect(json(wrong)).toEqual({ code: 'WRONG_PASSWORD', error: 'The current password is wrong' });

    const weak = await call('POST', '/api/v1/profile/updatePassword', session, {
      currentPassword: 'Dentflow123',
      newPassword: 'alllowercase',
      confirmPassword: 'different',
    });
    expect(json<{ fields: Record<string, string> }>(weak).fields).toMatchObject({
      newPassword: expect.stringContaining('8 characters'),
      confirmPassword: 'The confirmation does not match',
    });

    const ok = await call('POST', '/api/v1/profile/updatePassword', session, {
      currentPassword: 'Dentflow123',
      newPassword: 'Changed123',
      confirmPassword: 'Changed123',
    });
    expect(json(ok)).toEqual({ obj: { updated: true } });
    await login(t.app, 'printer', 'Changed123');
    const old = await t.app.inject({
      method: 'POST',
      url: '/api/v1/auth/login',
      payload: { login: 'printer', password: 'Dentflow123' },
    });
    expect(old.statusCode).toBe(401);
  });

  it("ends the user's other sessions and keeps the caller's", async () => {
    const here = await login(t.app, 'supervisor');
    const elsewhere = await login(t.app, 'supervisor');
    const changed = await call('POST', '/api/v1/profile/updatePassword', here, {
      currentPassword: 'Dentflow123',
      newPassword: 'Supervisor2026',
      confirmPassword: 'Supervisor2026',
    });
    expect(changed.statusCode).toBe(200);

    const refresh = (session: Session) =>
      t.app.inject({
        method: 'POST',
        url: '/api/v1/auth/refresh_token',
        payload: { refresh_token: session.refreshToken },
      });
    expect((await refresh(elsewhere)).statusCode).toBe(401);
    expect((await call('GET', '/api/v1/profile/get', elsewhere)).statusCode).toBe(401);
    expect((await call('GET', '/api/v1/profile/get', here)).statusCode).toBe(200);
    const kept = await refresh(here);
    expect(kept.statusCode).toBe(200);
    expect(json<{ obj: { profile: { id: number } } }>(kept).obj.profile.id).toBe(here.profile.id);
  });
});

describe('announcement, instructor, kit systems', () => {
  it('shows no announcement while the seeded one is inactive, then the newest active one', async () => {
    const none = await call('GET', '/api/v1/profile/announcement', doctor);
    expect(json(none)).toEqual({ obj: { active: false, title: '', body: '' } });
    await t.app.database.db
      .insert(announcements)
      .values({ active: true, title: 'Holiday', body: 'Closed on Friday' });
    const active = await call('GET', '/api/v1/profile/announcement', doctor);
    expect(json(active)).toEqual({
      obj: { id: expect.any(Number), active: true, title: 'Holiday', body: 'Closed on Friday' },
    });
    await t.app.database.db.update(announcements).set({ active: false });
  });

  it('a dismissed announcement is not shown again to that user only; only the active one can be dismissed', async () => {
    const db = t.app.database.db;
    const [draft] = await db
      .insert(announcements)
      .values({ active: false, title: 'Draft', body: 'Not yet' })
      .returning();
    const [shown] = await db
      .insert(announcements)
      .values({ active: true, title: 'New prices', body: 'From Monday' })
      .returning();
    const other = await createUser(t.app, ['doctor'], { language: 'en' });
    const current = async (session: Session) =>
      json<{ obj: { id?: number; active: boolean } }>(
        await call('GET', '/api/v1/profile/announcement', session),
      ).obj;
    expect(await current(doctor)).toMatchObject({ id: shown!.id, active: true });

    const dismiss = (id: number, session?: Session) =>
      call('POST', `/api/v1/profile/announcement/${id}/dismiss`, session, {});
    // A draft (inactive) or unknown announcement cannot be dismissed; without a session, 401.
    expect((await dismiss(draft!.id, doctor)).statusCode).toBe(404);
    expect((await dismiss(999_999, doctor)).statusCode).toBe(404);
    expect((await dismiss(shown!.id)).statusCode).toBe(401);
    expect((await current(doctor)).active).toBe(true);

    const dismissed = await dismiss(shown!.id, doctor);
    expect(json(dismissed)).toEqual({ obj: { dismissed: true } });
    // Twice is the same as once.
    expect((await dismiss(shown!.id, doctor)).statusCode).toBe(200);
    expect(await current(doctor)).toEqual({ active: false, title: '', body: '' });
    // Another user still sees it.
    expect(await current(other)).toMatchObject({ id: shown!.id, active: true });

    // A new announcement is shown again, also to the user who dismissed the previous one.
    await db.update(announcements).set({ active: false });
    const [next] = await db
      .insert(announcements)
      .values({ active: true, title: 'Holidays', body: 'Closed on the 25th' })
      .returning();
    expect(await current(doctor)).toMatchObject({ id: next!.id, title: 'Holidays' });
    await db.update(announcements).set({ active: false });
  });

  it("gives the caller's instructor and discount", async () => {
    const instructor = await login(t.app, 'instructor');
    const response = await call('GET', '/api/v1/profile/getInstructor', doctor);
    expect(json(response)).toEqual({
      obj: { instructor_id: instructor.profile.id, instructor_discount: 10 },
    });
    const none = await call('GET', '/api/v1/profile/getInstructor', instructor);
    expect(json(none)).toEqual({ obj: { instructor_id: null, instructor_discount: 0 } });
  });

  it('lists kit manufacturers with their systems', async () => {
    const response = await call('GET', '/api/v1/metadata/list/serviceData/subsystem', doctor);
    expect(response.statusCode).toBe(200);
    const list = json<{ obj: ServiceDataMetadata }>(response).obj.kitManufacturers;
    expect(list.length).toBeGreaterThanOrEqual(3);
    expect(list.find((k) => k.manufactureName === 'Neodent')?.systems).toContain('Grand Morse');
    const anonymous = await call('GET', '/api/v1/metadata/list/serviceData/subsystem', undefined);
    expect(anonymous.statusCode).toBe(401);
  });
});
