import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Fastify, { type FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../src/app';
import { loadConfig } from '../src/config';
import { registerErrorHandling } from '../src/http/error-handler';
import { PERMISSIONS, registerPermissions } from '../src/http/permissions';
import { bearer, createTestDatabase, json, login, type Session } from './support/test-app';
import { speakEnglish } from './support/cases-fixtures';

let database: Awaited<ReturnType<typeof createTestDatabase>>;
let workDir: string;
let webDist: string;
let app: FastifyInstance;
let doctor: Session;
const apps: FastifyInstance[] = [];

/** Several apps share this file's database: migrations are idempotent and the seed runs once. */
async function boot(env: Record<string, string> = {}) {
  const booted = await buildApp(
    loadConfig({
      DATA_DIR: workDir,
      DATABASE_URL: database.url,
      JWT_SECRET: 'platform-test-secret-long-enough-0123456789',
      LOG_LEVEL: 'silent',
      WEB_DIST_DIR: webDist,
      RATE_LIMIT_LOGIN_MAX: '10000',
      RATE_LIMIT_REGISTER_MAX: '10000',
      RATE_LIMIT_FORGOT_PASSWORD_MAX: '10000',
      RATE_LIMIT_NICKNAME_MAX: '10000',
      ...env,
    }),
  );
  apps.push(booted);
  await booted.ready();
  return booted;
}

beforeAll(async () => {
  database = await createTestDatabase();
  workDir = mkdtempSync(join(tmpdir(), 'dentflow-platform-'));
  webDist = join(workDir, 'web-dist');
  mkdirSync(join(webDist, 'assets'), { recursive: true });
  writeFileSync(
    join(webDist, 'index.html'),
    '<!doctype html><title>Dentflow SPA</title><div id="root"></div>',
  );
  writeFileSync(join(webDist, 'assets', 'app-123.js'), 'console.log("app")');
  mkdirSync(join(webDist, '.vite'));
  writeFileSync(join(webDist, '.vite', 'manifest.json'), '{"src/main.tsx":{}}');
  app = await boot();
  await speakEnglish(app, 'doctor');
  doctor = await login(app, 'doctor');
});

afterAll(async () => {
  for (const booted of apps) await booted.close();
  await database?.drop();
  rmSync(workDir, { recursive: true, force: true });
});

describe('health and documentation', () => {
  it('reports the database state', async () => {
    const response = await app.inject({ method: 'GET', url: '/api/health' });
    expect(response.statusCode).toBe(200);
    expect(json(response)).toEqual({ obj: { status: 'ok', database: 'up' } });
  });

  it('documents every API route in the OpenAPI document at /api/docs', async () => {
    const docs = await app.inject({ method: 'GET', url: '/api/docs/json' });
    expect(docs.statusCode).toBe(200);
    const paths = json<{ paths: Record<string, Record<string, unknown>> }>(docs).paths;
    const apiRoutes = app.routeRules.filter(
      (r) => r.url.startsWith('/api/') && !r.url.startsWith('/api/docs') && r.method !== 'HEAD',
    );
    expect(apiRoutes.length).toBeGreaterThanOrEqual(16);
    for (const route of apiRoutes) {
      const openApiPath = route.url.replace(/:(\w+)/g, '{$1}');
      expect(
        paths[openApiPath]?.[route.method.toLowerCase()],
        `${route.method} ${route.url}`,
      ).toBeDefined();
    }
    const ui = await app.inject({ method: 'GET', url: '/api/docs' });
    expect(ui.statusCode).toBeLessThan(400);
  });
});

describe('permissions', () => {
  it('every registered route declares a permission rule', () => {
    const withoutRule = app.routeRules.filter((r) => r.permission === undefined);
    expect(withoutRule).toEqual([]);
    // The list is the real one: it holds the API routes with their declared rules.
    expect(app.routeRules).toEqual(
      expect.arrayContaining([
        { method: 'POST', url: '/api/v1/auth/login', permission: 'public' },
        { method: 'GET', url: '/api/v1/profile/get', permission: 'authenticated' },
        { method: 'DELETE', url: '/api/v1/auth/logout', permission: 'authenticated' },
      ]),
    );
    for (const rule of app.routeRules) expect(Object.keys(PERMISSIONS)).toContain(rule.permission);
  });

  it('refuses (fails closed) a route registered without a rule, and the walk reports it', async () => {
    const bare = Fastify();
    registerPermissions(bare, {
      verifyAccessToken: async () => null,
      loadSession: async () => null,
    });
    registerErrorHandling(bare);
    bare.get('/api/v1/forgotten', async () => ({ obj: 'secret' }));
    bare.get('/api/v1/admin-only', { config: { permission: 'admin' } }, async () => ({ obj: 'x' }));
    await bare.ready();
    expect(bare.routeRules.filter((r) => r.permission === undefined).map((r) => r.url)).toContain(
      '/api/v1/forgotten',
    );
    const forgotten = await bare.inject({ method: 'GET', url: '/api/v1/forgotten' });
    expect(forgotten.statusCode).toBe(403);
    expect(json(forgotten)).toMatchObject({ code: 'FORBIDDEN' });
    const adminOnly = await bare.inject({ method: 'GET', url: '/api/v1/admin-only' });
    expect(adminOnly.statusCode).toBe(401);
    await bare.close();
  });

  it('gives 401 NOT_AUTHORIZED to anonymous calls on every non-public API route', async () => {
    const protectedRoutes = app.routeRules.filter(
      (r) => r.url.startsWith('/api/v1') && r.permission !== 'public' && r.method !== 'HEAD',
    );
    expect(protectedRoutes.length).toBeGreaterThanOrEqual(7);
    for (const route of protectedRoutes) {
      const response = await app.inject({
        method: route.method as 'GET',
        url: route.url.replace(/:(\w+)/g, '01310100'),
      });
      expect(response.statusCode, `${route.method} ${route.url}`).toBe(401);
      expect(json(response)).toEqual({ error: 'not authorized', code: 'NOT_AUTHORIZED' });
    }
  });
});

describe('bad input', () => {
  const garbageBodies: { payload?: string; contentType?: string }[] = [
    {},
    { payload: '{not json', contentType: 'application/json' },
    { payload: '[1,2,3]', contentType: 'application/json' },
    { payload: '"text"', contentType: 'application/json' },
    { payload: 'null', contentType: 'application/json' },
    {
      payload: JSON.stringify({
        email: 12,
        password: { a: 1 },
        login: [],
        token: 5,
        refresh_token: 7,
        nickname: null,
        nickName: 'x'.repeat(5000),
        terms: 'yes',
        dataGeneral: 'x',
        dataInfo: [],
        dataAddress: 3,
        currentPassword: 1,
        newPassword: 2,
        confirmPassword: 3,
        remember: 'sure',
        coupom: {},
      }),
      contentType: 'application/json',
    },
    { payload: '<xml/>', contentType: 'application/xml' },
    { payload: 'a=b', contentType: 'application/x-www-form-urlencoded' },
  ];

  it('gives a 4xx envelope, never a 5xx, on every API route, signed in or not', async () => {
    const routes = app.routeRules.filter(
      (r) => r.url.startsWith('/api/v1') && r.method !== 'HEAD' && r.method !== 'GET',
    );
    const getRoutes = app.routeRules.filter(
      (r) => r.url.startsWith('/api/v1') && r.method === 'GET',
    );
    expect(routes.length).toBeGreaterThanOrEqual(11);
    for (const headers of [{}, bearer(doctor)]) {
      for (const route of routes) {
        for (const garbage of garbageBodies) {
          const response = await app.inject({
            method: route.method as 'POST',
            url: route.url,
            headers: {
              ...headers,
              ...(garbage.contentType ? { 'content-type': garbage.contentType } : {}),
            },
            ...(garbage.payload === undefined ? {} : { payload: garbage.payload }),
          });
          const label = `${route.method} ${route.url} ${garbage.payload ?? '(no body)'}`;
          expect(response.statusCode, label).toBeGreaterThanOrEqual(400);
          expect(response.statusCode, label).toBeLessThan(500);
          const body = json<{ error: unknown; code: unknown }>(response);
          expect(typeof body.error, label).toBe('string');
          expect(typeof body.code, label).toBe('string');
        }
      }
      for (const route of getRoutes.filter((r) => r.url.includes(':'))) {
        for (const param of ['%00', '!!!', 'x'.repeat(300), '%E0%A4%A']) {
          const response = await app.inject({
            method: 'GET',
            url: route.url.replace(/:(\w+)/g, param),
            headers,
          });
          expect(response.statusCode, `${route.url} ${param}`).toBeGreaterThanOrEqual(400);
          expect(response.statusCode, `${route.url} ${param}`).toBeLessThan(500);
        }
      }
    }
  });
});

describe('text the database cannot store', () => {
  const nul = '\u0000';
  // Well-shaped bodies: without the text guard each of these reached PostgreSQL and failed (500).
  const cases: Array<[string, string, Record<string, unknown>, boolean]> = [
    ['/api/v1/auth/login', 'login', { login: `a${nul}b`, password: 'Whatever123' }, false],
    [
      '/api/v1/auth/register',
      'email',
      {
        email: `ana${nul}@example.com`,
        password: 'Sorriso2026',
        fname: 'Ana',
        lname: 'Souza',
        nickName: 'anasouza',
        terms: true,
      },
      false,
    ],
    ['/api/v1/auth/forgotPassword', 'email', { email: `ana${nul}@example.com` }, false],
    ['/api/v1/profile/set', 'dataInfo.bio', { dataInfo: { bio: `hello${nul}` } }, true],
    ['/api/v1/profile/set', 'dataGeneral.fname', { dataGeneral: { fname: `A${nul}na` } }, true],
  ];

  it.each(cases)(
    '%s refuses a NUL in %s with a translated 400 and writes nothing',
    async (url, field, payload, signedIn) => {
      const before = await app.inject({
        method: 'GET',
        url: '/api/v1/profile/get',
        headers: bearer(doctor),
      });
      const response = await app.inject({
        method: 'POST',
        url,
        payload,
        headers: { 'accept-language': 'pt-BR', ...(signedIn ? bearer(doctor) : {}) },
      });
      expect(response.statusCode).toBe(400);
      expect(json(response)).toMatchObject({
        code: 'VALIDATION_ERROR',
        // The signed-in doctor's profile language (en) wins over Accept-Language.
        fields: {
          [field]: signedIn
            ? 'Contains a character that is not allowed'
            : 'Contém um caractere não permitido',
        },
      });
      const after = await app.inject({
        method: 'GET',
        url: '/api/v1/profile/get',
        headers: bearer(doctor),
      });
      expect(json(after)).toEqual(json(before));
    },
  );
});

describe('envelope, language and web app', () => {
  it('answers unknown /api paths with a translated 404 envelope', async () => {
    for (const [language, message] of [
      ['en-US', 'Not found'],
      ['pt-BR,pt;q=0.9', 'Não encontrado'],
      ['es-ES', 'No encontrado'],
      ['fr-FR', 'Not found'],
    ] as const) {
      const response = await app.inject({
        method: 'GET',
        url: '/api/v1/nothing/here',
        headers: { 'accept-language': language },
      });
      expect(response.statusCode).toBe(404);
      expect(json(response)).toEqual({ error: message, code: 'NOT_FOUND' });
    }
    const post = await app.inject({ method: 'POST', url: '/api/v2/unknown', payload: {} });
    expect(json(post)).toMatchObject({ code: 'NOT_FOUND' });
  });

  it('serves the SPA: files as they are, index.html for any other page', async () => {
    const asset = await app.inject({ method: 'GET', url: '/assets/app-123.js' });
    expect(asset.statusCode).toBe(200);
    expect(asset.body).toBe('console.log("app")');
    for (const url of ['/', '/login', '/cases/new', '/verify/abc', '/resetPassword/xyz?x=1']) {
      const page = await app.inject({ method: 'GET', url });
      expect(page.statusCode, url).toBe(200);
      expect(page.headers['content-type'], url).toContain('text/html');
      expect(page.body, url).toContain('Dentflow SPA');
    }
  });

  it('keeps the build manifest (source paths) private', async () => {
    const manifest = await app.inject({ method: 'GET', url: '/.vite/manifest.json' });
    expect(manifest.body).not.toContain('src/main.tsx');
  });

  it('sends security headers with a CSP that allows the SPA', async () => {
    const page = await app.inject({ method: 'GET', url: '/login' });
    const csp = String(page.headers['content-security-policy']);
    expect(csp).toContain("script-src 'self'");
    expect(csp).toContain("style-src 'self' 'unsafe-inline'");
    expect(csp).toContain("img-src 'self' data:");
    expect(csp).not.toContain('upgrade-insecure-requests');
    expect(page.headers['x-content-type-options']).toBe('nosniff');
  });

  it('keeps API answers out of every cache; pages, files and the API docs keep their own', async () => {
    for (const url of ['/api/health', '/api/v1/profile/get', '/api/v1/case/counts', '/api/nope']) {
      const answer = await app.inject({ method: 'GET', url, headers: bearer(doctor) });
      expect(answer.headers['cache-control'], url).toBe('no-store');
    }
    const page = await app.inject({ method: 'GET', url: '/login' });
    expect(page.headers['cache-control']).toBe('no-cache');
    const docs = await app.inject({ method: 'GET', url: '/api/docs/json' });
    expect(docs.statusCode).toBe(200);
    expect(docs.headers['cache-control']).toBeUndefined();
  });

  it('explains how to build the web app when the dist folder is missing', async () => {
    const noWeb = await boot({ WEB_DIST_DIR: join(workDir, 'missing-dist') });
    const page = await noWeb.inject({ method: 'GET', url: '/login' });
    expect(page.statusCode).toBe(200);
    expect(page.body).toContain('npm run build');
    const api = await noWeb.inject({ method: 'GET', url: '/api/unknown' });
    expect(api.statusCode).toBe(404);
  });
});

describe('rate limits', () => {
  it('answers 429 RATE_LIMITED, translated, past the configured limit, per client address', async () => {
    const limited = await boot({
      RATE_LIMIT_LOGIN_MAX: '3',
      RATE_LIMIT_REGISTER_MAX: '2',
      RATE_LIMIT_FORGOT_PASSWORD_MAX: '2',
      RATE_LIMIT_NICKNAME_MAX: '2',
    });
    const cases = [
      { url: '/api/v1/auth/login', max: 3, payload: { login: 'doctor', password: 'Wrong1234' } },
      { url: '/api/v1/auth/register', max: 2, payload: { email: 'bad' } },
      { url: '/api/v1/auth/forgotPassword', max: 2, payload: { email: 'nobody@nowhere.test' } },
      { url: '/api/v1/profile/verifyNickname', max: 2, payload: { nickname: 'someone' } },
    ];
    for (const { url, max, payload } of cases) {
      for (let i = 0; i < max; i++) {
        const allowed = await limited.inject({
          method: 'POST',
          url,
          payload,
          remoteAddress: '10.0.0.1',
        });
        expect(allowed.statusCode, url).not.toBe(429);
      }
      const blocked = await limited.inject({
        method: 'POST',
        url,
        payload,
        remoteAddress: '10.0.0.1',
        headers: { 'accept-language': 'pt-BR' },
      });
      expect(blocked.statusCode, url).toBe(429);
      expect(json(blocked)).toEqual({
        code: 'RATE_LIMITED',
        error: 'Muitas tentativas. Aguarde um momento e tente novamente.',
      });
      const otherClient = await limited.inject({
        method: 'POST',
        url,
        payload,
        remoteAddress: '10.0.0.2',
      });
      expect(otherClient.statusCode, url).not.toBe(429);
    }
  });

  it('shares the counters between instances through Redis when REDIS_URL is set', async () => {
    const redisUrl = process.env.TEST_REDIS_URL ?? 'redis://127.0.0.1:6379';
    const instanceA = await boot({ REDIS_URL: redisUrl, RATE_LIMIT_LOGIN_MAX: '3' });
    const instanceB = await boot({ REDIS_URL: redisUrl, RATE_LIMIT_LOGIN_MAX: '3' });
    // A client address of its own, so earlier runs against the same Redis do not count.
    const client = `10.${Math.floor(Math.random() * 250)}.${Math.floor(Math.random() * 250)}.${Math.floor(Math.random() * 250) + 1}`;
    // An unknown login of its own too: its wrong passwords count in Redis beyond this run.
    const loginName = `nobody-${Date.now()}-${Math.random()}`;
    const attempt = (instance: FastifyInstance) =>
      instance.inject({
        method: 'POST',
        url: '/api/v1/auth/login',
        payload: { login: loginName, password: 'Wrong1234' },
        remoteAddress: client,
      });
    expect((await attempt(instanceA)).statusCode).toBe(401);
    expect((await attempt(instanceB)).statusCode).toBe(401);
    expect((await attempt(instanceA)).statusCode).toBe(401);
    const blocked = await attempt(instanceB);
    expect(blocked.statusCode).toBe(429);
    expect(json(blocked)).toMatchObject({ code: 'RATE_LIMITED' });
  });
});

describe('client address behind a proxy (TRUST_PROXY)', () => {
  const loginThroughProxy = (instance: FastifyInstance, forwardedFor: string) =>
    instance.inject({
      method: 'POST',
      url: '/api/v1/auth/login',
      payload: { login: 'doctor', password: 'Wrong1234' },
      remoteAddress: '127.0.0.1',
      headers: { 'x-forwarded-for': forwardedFor },
    });

  it('with one proxy, keys rate limits on the address it appended, not on what the client wrote', async () => {
    const behindOneProxy = await boot({ TRUST_PROXY: '1', RATE_LIMIT_LOGIN_MAX: '2' });
    const statuses: number[] = [];
    for (let i = 1; i <= 5; i++) {
      // The client varies the leftmost entries; the proxy always appends the real 203.0.113.9.
      const response = await loginThroughProxy(behindOneProxy, `10.0.0.${i}, 203.0.113.9`);
      statuses.push(response.statusCode);
    }
    expect(statuses).toEqual([401, 401, 429, 429, 429]);
    // Another client behind the same proxy has its own counter: the header is what counts.
    const otherClient = await loginThroughProxy(behindOneProxy, '10.0.0.1, 198.51.100.7');
    expect(otherClient.statusCode).toBe(401);
  });

  it('by default ignores X-Forwarded-For and keys on the socket address', async () => {
    const direct = await boot({ RATE_LIMIT_LOGIN_MAX: '2' });
    const statuses: number[] = [];
    for (const client of ['203.0.113.9', '198.51.100.7', '192.0.2.1']) {
      statuses.push((await loginThroughProxy(direct, client)).statusCode);
    }
    expect(statuses).toEqual([401, 401, 429]);
  });
});
