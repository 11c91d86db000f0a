import { INT32_MAX } from '@dentflow/domain';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { caseApi, codeOf, demoSessions, objOf, speakEnglish } from './support/cases-fixtures';
import { announce, type Announced } from './support/storage-fixtures';
import { bearer, json, startTestApp, type Session, type TestApp } from './support/test-app';

/**
 * Input an attacker sends, one focused test per gap (the OpenAPI fuzz test,
 * fuzz-openapi.int.test.ts, finds such gaps across every route): numbers past PostgreSQL's
 * `integer`, which reached the database and answered 500; bodies nested deep enough to overflow
 * the stack; multipart bodies that break the format; and the refusals Fastify answers before any
 * route runs, which lacked the envelope.
 */
let t: TestApp;
let sessions: Awaited<ReturnType<typeof demoSessions>>;
let api: ReturnType<typeof caseApi>;
let caseId: number;

beforeAll(async () => {
  t = await startTestApp();
  // The demo doctor and clinic are Brazilian; these tests read the English messages.
  await speakEnglish(t.app, 'doctor', 'clinic');
  sessions = await demoSessions(t.app);
  api = caseApi(t.app);
  caseId = objOf(
    await api(sessions.doctor, 'POST', 'new', { patient: { fname: 'A', lname: 'B' } }),
  ).id;
});
afterAll(async () => t?.close());

const PAST_INT32 = INT32_MAX + 1;

describe('ids past the integer range in a body', () => {
  it.each<[string, string, (id: number) => object, 'doctor' | 'supervisor', string]>([
    ['services/add productId', 'services/add', (id) => ({ productId: id }), 'doctor', 'productId'],
    [
      'users userId',
      'users',
      (id) => ({ userId: id, triggerNotification: true }),
      'doctor',
      'userId',
    ],
    ['planner plannerId', 'planner', (id) => ({ plannerId: id }), 'supervisor', 'plannerId'],
    [
      'planner serviceIds',
      'planner',
      (id) => ({ plannerId: 1, serviceIds: [id] }),
      'supervisor',
      'serviceIds.0',
    ],
  ])('case/{id}/%s: a translated 400 on the field', async (_name, path, body, who, field) => {
    const session: Session = sessions[who];
    const response = await api(session, 'POST', `${caseId}/${path}`, body(PAST_INT32));
    expect(response.statusCode).toBe(400);
    expect(json(response)).toEqual({
      error: 'Validation error, check required fields',
      code: 'VALIDATION_ERROR',
      fields: { [field]: 'Too long' },
    });
    // The largest stored id is still well-formed: it names no record, so no 500 either.
    const largest = await api(session, 'POST', `${caseId}/${path}`, body(INT32_MAX));
    expect(largest.statusCode).toBeGreaterThanOrEqual(400);
    expect(largest.statusCode).toBeLessThan(500);
  });

  it('refuses a path id past the range as a 400, not a missing record', async () => {
    const response = await api(sessions.doctor, 'GET', `${PAST_INT32}/get`);
    expect(response.statusCode).toBe(400);
    expect(codeOf(response)).toBe('VALIDATION_ERROR');
  });
});

describe('bodies nested deeper than any request needs', () => {
  it.each([
    ['arrays', '['.repeat(20_000) + ']'.repeat(20_000)],
    ['objects', '{"a":'.repeat(20_000) + '1' + '}'.repeat(20_000)],
  ])('nested %s answer 400, not a stack overflow', async (_kind, payload) => {
    const response = await t.app.inject({
      method: 'POST',
      url: '/api/v1/profile/set',
      headers: { ...bearer(sessions.doctor), 'content-type': 'application/json' },
      payload,
    });
    expect(response.statusCode).toBe(400);
    expect(json(response)).toEqual({
      error: 'The request could not be understood',
      code: 'BAD_REQUEST',
    });
  });

  it('still names a NUL nested inside a body', async () => {
    const response = await t.app.inject({
      method: 'POST',
      url: '/api/v1/profile/set',
      headers: bearer(sessions.doctor),
      payload: { dataInfo: { mobile: { number: 'a\u0000b', whatsapp: false } } },
    });
    expect(response.statusCode).toBe(400);
    expect(json(response)).toMatchObject({
      code: 'VALIDATION_ERROR',
      fields: { 'dataInfo.mobile.number': 'Contains a character that is not allowed' },
    });
  });
});

describe('text PostgreSQL cannot hold', () => {
  it.each([
    ['profile/set', 'doctor', { dataInfo: { bio: 'a\ud800b' } }, 'dataInfo.bio'],
    [
      'products/category/set/0',
      'admin',
      { name: { ptBR: 'Guias', en: 'Guides', es: 'Guías \udc00' }, active: true },
      'name.es',
    ],
  ] as const)(
    '%s refuses half a surrogate pair with a 400 on the field',
    async (url, who, body, field) => {
      // JSON.stringify writes the lone half as the escape `\ud800`, which jsonb refuses.
      const response = await t.app.inject({
        method: 'POST',
        url: `/api/v1/${url}`,
        headers: { ...bearer(sessions[who]), 'content-type': 'application/json' },
        payload: JSON.stringify(body),
      });
      expect(response.statusCode).toBe(400);
      expect(json(response)).toMatchObject({
        code: 'VALIDATION_ERROR',
        fields: { [field]: 'Contains a character that is not allowed' },
      });
    },
  );
});

describe('a display name made of the longest first and last names', () => {
  it('is cut to its limit, so the account can still be read', async () => {
    const registered = await t.app.inject({
      method: 'POST',
      url: '/api/v1/auth/register',
      payload: {
        email: 'longnames@example.test',
        password: 'Sorriso2026',
        fname: 'F'.repeat(60),
        lname: 'L'.repeat(60),
        nickName: 'longnames',
        terms: true,
      },
    });
    expect(registered.statusCode).toBe(200);
    const { id } = json<{ obj: { id: number } }>(registered).obj;
    const read = await t.app.inject({
      method: 'GET',
      url: `/api/v1/users/get/${id}`,
      headers: bearer(sessions.admin),
    });
    expect(read.statusCode).toBe(200);
    const displayName = json<{ obj: { dataGeneral: { displayName: string } } }>(read).obj
      .dataGeneral.displayName;
    expect(displayName).toBe(`${'F'.repeat(60)} ${'L'.repeat(19)}`);
  });
});

describe('refusals before any route runs', () => {
  it.each([
    ['a path that is not valid URL encoding', '/api/v1/case/%E0%A4%A/get'],
    ['a path segment past the router limit', `/api/v1/case/${'1'.repeat(300)}/get`],
  ])('%s answers the translated 400 envelope', async (_name, url) => {
    const response = await t.app.inject({
      method: 'GET',
      url,
      headers: { 'accept-language': 'pt-BR' },
    });
    expect(response.statusCode).toBe(400);
    expect(json(response)).toEqual({
      error: 'A requisição não pôde ser entendida',
      code: 'BAD_REQUEST',
    });
  });
});

describe('multipart bodies that break the format', () => {
  const boundary = '----fuzz';
  const part = (name: string, value: string, file = false) =>
    [
      `--${boundary}`,
      `Content-Disposition: form-data; name="${name}"${file ? '; filename="a.png"' : ''}`,
      ...(file ? ['Content-Type: image/png'] : []),
      '',
      value,
    ].join('\r\n');
  // The file's part never ends: the body stops before its closing boundary.
  const cutFile = part('file', 'only the start of a file', true);
  const post = (url: string, payload: string) =>
    t.app.inject({
      method: 'POST',
      url,
      headers: {
        ...bearer(sessions.doctor),
        'content-type': `multipart/form-data; boundary=${boundary}`,
      },
      payload,
    });
  const expectBadRequest = (response: Awaited<ReturnType<typeof post>>) => {
    expect(response.statusCode).toBe(400);
    expect(json(response)).toEqual({
      error: 'The request could not be understood',
      code: 'BAD_REQUEST',
    });
  };

  it.each([
    ['/api/v1/storage/upload', 'no boundary in the body', 'a=b&c=d'],
    ['/api/v1/profile/avatar', 'no boundary in the body', 'a=b&c=d'],
    ['/api/v1/profile/avatar', 'a file part cut short', cutFile],
    ['/api/v1/case/transaction/1/submitReceipt', 'no boundary in the body', 'a=b'],
  ])('%s with %s answers 400', async (url, _what, payload) => {
    expectBadRequest(await post(url, payload));
  });

  it('the upload target answers 400 for a file cut short under a valid policy', async () => {
    const announced = await announce(t.app, sessions.doctor, caseId, {
      filename: 'photo.png',
      filesize: 1000,
      attachment_name: 'photoProtocol.generic',
    });
    expect(announced.statusCode).toBe(200);
    const { upload } = json<{ obj: Announced }>(announced).obj;
    const fields = Object.entries(upload.fields).map(([name, value]) => part(name, value));
    expectBadRequest(await post(upload.url, [...fields, cutFile].join('\r\n')));
  });
});
