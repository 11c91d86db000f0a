import { INT32_MAX } from '@dentflow/domain';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { caseApi, codeOf, demoSessions, objOf } from './support/cases-fixtures';
import { json, startTestApp, type Session, type TestApp } from './support/test-app';

/**
 * Well-typed numbers past what PostgreSQL's `integer` holds used to reach the database and answer
 * 500; the shared schemas now refuse them with a 400 on the field. Also the refusals Fastify
 * answers before any route runs, which now carry the envelope.
 */
let t: TestApp;
let sessions: Awaited<ReturnType<typeof demoSessions>>;
let api: ReturnType<typeof caseApi>;
let caseId: number;

beforeAll(async () => {
  t = await startTestApp();
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
