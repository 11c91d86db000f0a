import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import {
  ApiError,
  api,
  clearSession,
  configureApiClient,
  getAccessToken,
  storeSession,
} from './api-client';
import { applyLanguage } from './i18n';
import { getRefreshToken, setRefreshToken } from './session-storage';
import { fail, mockFetch, ok } from '../test/fetch-mock';
import { completeProfile } from '../test/profiles';

const session = (n: number) => ({
  accessToken: `access-${n}`,
  refreshToken: `refresh-${n}`,
  profile: completeProfile(),
});

/** A server whose valid access token is `validToken`; refresh hands out the next session. */
function serverWithRefresh(options: { refreshFails?: boolean; refreshDelayMs?: number } = {}) {
  let validToken = 'access-1';
  let refreshes = 0;
  const mock = mockFetch(async (call) => {
    if (call.path === '/auth/refresh_token') {
      refreshes += 1;
      if (options.refreshDelayMs) await new Promise((r) => setTimeout(r, options.refreshDelayMs));
      if (options.refreshFails) return fail(401, 'NOT_AUTHORIZED', 'not authorized');
      validToken = `access-${refreshes + 1}`;
      return ok(session(refreshes + 1));
    }
    if (call.headers.authorization !== `Bearer ${validToken}`) {
      return fail(401, 'NOT_AUTHORIZED', 'not authorized');
    }
    return ok({ path: call.path });
  });
  return { ...mock, refreshCount: () => refreshes };
}

describe('api client', () => {
  const onSessionExpired = vi.fn();
  const onSession = vi.fn();

  beforeEach(async () => {
    clearSession();
    onSessionExpired.mockReset();
    onSession.mockReset();
    configureApiClient({ onSession, onSessionExpired });
    await applyLanguage('en');
  });
  afterEach(() => vi.unstubAllGlobals());

  it('returns obj of the envelope and sends JSON, bearer token and the interface language', async () => {
    const { calls } = mockFetch(() => ok({ hello: 'world' }));
    storeSession(session(1));
    await applyLanguage('ptBR');

    await expect(api.post('/profile/set', { a: 1 })).resolves.toEqual({ hello: 'world' });

    expect(calls[0]).toMatchObject({
      method: 'POST',
      path: '/profile/set',
      body: { a: 1 },
      headers: {
        authorization: 'Bearer access-1',
        'accept-language': 'pt-BR',
        'content-type': 'application/json',
      },
    });
  });

  it('rejects a body with an error field as an ApiError with code, fields and status', async () => {
    mockFetch(() =>
      fail(400, 'VALIDATION_ERROR', 'Validation error, check required fields', {
        email: 'Enter a valid email address',
      }),
    );
    const error = await api.post('/auth/register', {}).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ApiError);
    expect(error).toMatchObject({
      message: 'Validation error, check required fields',
      code: 'VALIDATION_ERROR',
      status: 400,
      fields: { email: 'Enter a valid email address' },
    });
  });

  it('refreshes once for concurrent 401s and retries every queued request with the new token', async () => {
    const server = serverWithRefresh({ refreshDelayMs: 20 });
    storeSession({ ...session(0), accessToken: 'expired' });

    const results = await Promise.all([
      api.get('/profile/get'),
      api.get('/profile/getInstructor'),
      api.get('/profile/announcement'),
    ]);

    expect(results).toEqual([
      { path: '/profile/get' },
      { path: '/profile/getInstructor' },
      { path: '/profile/announcement' },
    ]);
    expect(server.refreshCount()).toBe(1);
    expect(server.calls.filter((c) => c.path === '/auth/refresh_token')[0]?.body).toEqual({
      refresh_token: 'refresh-0',
    });
    expect(getAccessToken()).toBe('access-2');
    expect(getRefreshToken()).toBe('refresh-2');
    expect(onSession).toHaveBeenCalledTimes(2); // storeSession above + the one refresh
    expect(onSessionExpired).not.toHaveBeenCalled();
  });

  it('on a failed refresh forgets the session, reports once and rejects the queued requests', async () => {
    const server = serverWithRefresh({ refreshFails: true });
    storeSession({ ...session(0), accessToken: 'expired' });

    const outcomes = await Promise.allSettled([
      api.get('/profile/get'),
      api.get('/profile/announcement'),
    ]);

    expect(outcomes.map((o) => o.status)).toEqual(['rejected', 'rejected']);
    expect(server.refreshCount()).toBe(1);
    expect(onSessionExpired).toHaveBeenCalledTimes(1);
    expect(getRefreshToken()).toBeNull();
    expect(getAccessToken()).toBeNull();
  });

  it('without a stored refresh token (logged out) rejects quietly, without asking the server', async () => {
    const server = serverWithRefresh();
    setRefreshToken(null);
    await expect(api.get('/profile/get')).rejects.toMatchObject({ code: 'NOT_AUTHORIZED' });
    expect(server.refreshCount()).toBe(0);
    expect(onSessionExpired).not.toHaveBeenCalled();
  });

  it('never refreshes for /auth/* calls: a wrong password stays a plain error', async () => {
    const { calls } = mockFetch(() =>
      fail(401, 'INVALID_CREDENTIALS', 'Invalid login or password'),
    );
    await expect(api.post('/auth/login', { login: 'a', password: 'b' })).rejects.toMatchObject({
      code: 'INVALID_CREDENTIALS',
      status: 401,
    });
    expect(calls.map((c) => c.path)).toEqual(['/auth/login']);
    expect(onSessionExpired).not.toHaveBeenCalled();
  });

  it('turns a network failure into a translated ApiError', async () => {
    vi.stubGlobal(
      'fetch',
      vi.fn(() => Promise.reject(new TypeError('Failed to fetch'))),
    );
    await applyLanguage('es');
    await expect(api.get('/profile/get')).rejects.toMatchObject({
      code: 'NETWORK_ERROR',
      message: expect.stringContaining('servidor'),
    });
  });
});
