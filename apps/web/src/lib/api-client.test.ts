import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import {
  ApiError,
  api,
  REFRESH_LOCK_NAME,
  clearSession,
  configureApiClient,
  createApiClient,
  getAccessToken,
  storeSession,
} from './api-client';
import { applyLanguage, i18n } from './i18n';
import { getRefreshToken, setRefreshToken } from './session-storage';
import { fail, jsonResponse, mockFetch, ok } from '../test/fetch-mock';
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

  // The web compares codes only against the server's list; a code it does not know (a newer
  // server's) or none reads as 'ERROR' and still shows the server's translated message.
  it.each([
    ['an unknown code', { error: 'Brand new refusal', code: 'BRAND_NEW_CODE' }],
    ['no code', { error: 'Brand new refusal' }],
  ])('an envelope with %s is an ApiError with code ERROR', async (_label, envelope) => {
    mockFetch(() => jsonResponse(409, envelope));
    const error = await api.post('/profile/set', {}).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ApiError);
    expect(error).toMatchObject({ message: 'Brand new refusal', code: 'ERROR', status: 409 });
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

  it.each([
    ['401 not authorized', () => fail(401, 'NOT_AUTHORIZED', 'not authorized'), 'NOT_AUTHORIZED'],
    [
      'another 4xx envelope',
      () => fail(400, 'VALIDATION_ERROR', 'Validation error'),
      'VALIDATION_ERROR',
    ],
  ])(
    'when the server refuses the refresh (%s) forgets the session, reports once and rejects the queued requests',
    async (_name, refusal, code) => {
      let refreshes = 0;
      mockFetch((call) => {
        if (call.path !== '/auth/refresh_token')
          return fail(401, 'NOT_AUTHORIZED', 'not authorized');
        refreshes += 1;
        return refusal();
      });
      storeSession({ ...session(0), accessToken: 'expired' });

      const outcomes = await Promise.allSettled([
        api.get('/profile/get'),
        api.get('/profile/announcement'),
      ]);

      expect(outcomes).toMatchObject([
        { status: 'rejected', reason: { code } },
        { status: 'rejected', reason: { code } },
      ]);
      expect(refreshes).toBe(1);
      expect(onSessionExpired).toHaveBeenCalledTimes(1);
      expect(getRefreshToken()).toBeNull();
      expect(getAccessToken()).toBeNull();
    },
  );

  it.each([
    [
      'the network is down',
      () => Promise.reject(new TypeError('Failed to fetch')),
      'NETWORK_ERROR',
    ],
    [
      'the server answers 503 (a deploy)',
      () => fail(503, 'INTERNAL_ERROR', 'Unavailable'),
      'INTERNAL_ERROR',
    ],
    [
      'a proxy answers 502 without an envelope',
      () => new Response('<html>Bad gateway</html>', { status: 502 }),
      'HTTP_ERROR',
    ],
    [
      'the refresh is rate limited (429)',
      () => fail(429, 'RATE_LIMITED', 'Too many'),
      'RATE_LIMITED',
    ],
  ])(
    'when %s during the refresh, rejects the queued requests with that error and keeps the session for a later try',
    async (_name, failure, code) => {
      let refreshes = 0;
      const { calls } = mockFetch((call) => {
        if (call.path === '/auth/refresh_token') {
          refreshes += 1;
          return refreshes === 1 ? failure() : ok(session(1));
        }
        if (call.headers.authorization !== 'Bearer access-1') {
          return fail(401, 'NOT_AUTHORIZED', 'not authorized');
        }
        return ok({ path: call.path });
      });
      storeSession({ ...session(0), accessToken: 'expired' });

      const outcomes = await Promise.allSettled([
        api.get('/profile/get'),
        api.get('/profile/announcement'),
      ]);

      expect(outcomes).toMatchObject([
        { status: 'rejected', reason: { code } },
        { status: 'rejected', reason: { code } },
      ]);
      expect(refreshes).toBe(1);
      expect(onSessionExpired).not.toHaveBeenCalled();
      expect(getRefreshToken()).toBe('refresh-0');

      // The session is still valid on the server: the next request refreshes with the kept token.
      await expect(api.get('/profile/get')).resolves.toEqual({ path: '/profile/get' });
      expect(calls.filter((c) => c.path === '/auth/refresh_token').map((c) => c.body)).toEqual([
        { refresh_token: 'refresh-0' },
        { refresh_token: 'refresh-0' },
      ]);
      expect(getRefreshToken()).toBe('refresh-1');
      expect(onSessionExpired).not.toHaveBeenCalled();
    },
  );

  it('a network error during the refresh reaches the caller translated', async () => {
    mockFetch((call) =>
      call.path === '/auth/refresh_token'
        ? Promise.reject(new TypeError('Failed to fetch'))
        : fail(401, 'NOT_AUTHORIZED', 'not authorized'),
    );
    storeSession({ ...session(0), accessToken: 'expired' });
    await applyLanguage('ptBR');

    await expect(api.get('/profile/get')).rejects.toMatchObject({
      code: 'NETWORK_ERROR',
      message: i18n.t('feedback.networkError'),
    });
    expect(i18n.t('feedback.networkError')).toContain('servidor');
    expect(getRefreshToken()).toBe('refresh-0');
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

/**
 * The server's rotation (decision 003): each refresh token works once; presenting one that was
 * already rotated revokes the whole family, after which nothing is accepted.
 */
function strictRotatingServer(refreshDelayMs = 20) {
  let current = 'refresh-0';
  let generation = 0;
  let familyRevoked = false;
  const presented: string[] = [];
  const validAccess = new Set<string>();
  const mock = mockFetch(async (call) => {
    if (call.path === '/auth/refresh_token') {
      const token = (call.body as { refresh_token: string }).refresh_token;
      presented.push(token);
      await new Promise((r) => setTimeout(r, refreshDelayMs));
      if (familyRevoked || token !== current) {
        familyRevoked = true;
        return fail(401, 'NOT_AUTHORIZED', 'not authorized');
      }
      generation += 1;
      current = `refresh-${generation}`;
      validAccess.add(`access-${generation}`);
      return ok(session(generation));
    }
    const bearer = call.headers.authorization?.replace('Bearer ', '') ?? '';
    if (familyRevoked || !validAccess.has(bearer)) {
      return fail(401, 'NOT_AUTHORIZED', 'not authorized');
    }
    return ok({ path: call.path });
  });
  return { ...mock, presented, isRevoked: () => familyRevoked };
}

describe('api client across tabs (one local storage, several clients)', () => {
  const tabs = () => {
    const expired = [vi.fn(), vi.fn()];
    const clients = [createApiClient(), createApiClient()];
    clients.forEach((client, i) => client.configure({ onSessionExpired: expired[i] }));
    return { clients, expired };
  };

  beforeEach(async () => {
    await applyLanguage('en');
    setRefreshToken('refresh-0');
  });
  afterEach(() => vi.unstubAllGlobals());

  it('two tabs starting up at once refresh one after the other, each with the newest token', async () => {
    const server = strictRotatingServer();
    const { clients, expired } = tabs();

    const sessions = await Promise.all(clients.map((client) => client.refreshSession()));

    // One refresh call per rotation, and no token presented twice (which would revoke all).
    expect(server.presented).toEqual(['refresh-0', 'refresh-1']);
    expect(server.isRevoked()).toBe(false);
    expect(sessions.map((s) => s.refreshToken)).toEqual(['refresh-1', 'refresh-2']);
    expect(getRefreshToken()).toBe('refresh-2');
    expect(clients.map((client) => client.getAccessToken())).toEqual(['access-1', 'access-2']);
    expect(expired[0]).not.toHaveBeenCalled();
    expect(expired[1]).not.toHaveBeenCalled();
  });

  it('two tabs meeting 401s at once both get their data and stay logged in', async () => {
    const server = strictRotatingServer();
    const { clients, expired } = tabs();

    const results = await Promise.all([
      clients[0]!.api.get('/profile/get'),
      clients[0]!.api.get('/profile/announcement'),
      clients[1]!.api.get('/profile/get'),
      clients[1]!.api.get('/profile/getInstructor'),
    ]);

    expect(results).toEqual([
      { path: '/profile/get' },
      { path: '/profile/announcement' },
      { path: '/profile/get' },
      { path: '/profile/getInstructor' },
    ]);
    expect(server.presented).toEqual(['refresh-0', 'refresh-1']);
    expect(new Set(server.presented).size).toBe(server.presented.length);
    expect(server.isRevoked()).toBe(false);
    expect(getRefreshToken()).toBe('refresh-2');
    expect(expired[0]).not.toHaveBeenCalled();
    expect(expired[1]).not.toHaveBeenCalled();
  });

  it('a tab whose session another tab lost (token removed meanwhile) is logged out too', async () => {
    const server = strictRotatingServer();
    const { clients, expired } = tabs();
    server.fetchMock.mockImplementationOnce(async () => {
      await new Promise((r) => setTimeout(r, 10));
      return fail(401, 'NOT_AUTHORIZED', 'not authorized');
    });

    const outcomes = await Promise.allSettled(clients.map((client) => client.refreshSession()));

    expect(outcomes.map((o) => o.status)).toEqual(['rejected', 'rejected']);
    expect(expired[0]).toHaveBeenCalledTimes(1);
    expect(expired[1]).toHaveBeenCalledTimes(1);
    // The second tab found no stored token and did not present the failed one again.
    expect(server.fetchMock).toHaveBeenCalledTimes(1);
    expect(getRefreshToken()).toBeNull();
  });

  it('a network error in one tab keeps the session: the tab waiting for the lock refreshes with it', async () => {
    const server = strictRotatingServer();
    const { clients, expired } = tabs();
    server.fetchMock.mockImplementationOnce(async () => {
      await new Promise((r) => setTimeout(r, 10));
      throw new TypeError('Failed to fetch');
    });

    const outcomes = await Promise.allSettled(clients.map((client) => client.refreshSession()));

    expect(outcomes).toMatchObject([
      { status: 'rejected', reason: { code: 'NETWORK_ERROR' } },
      { status: 'fulfilled', value: { refreshToken: 'refresh-1' } },
    ]);
    expect(server.presented).toEqual(['refresh-0']); // the failed call never reached the server
    expect(server.isRevoked()).toBe(false);
    expect(getRefreshToken()).toBe('refresh-1');
    expect(expired[0]).not.toHaveBeenCalled();
    expect(expired[1]).not.toHaveBeenCalled();
  });

  it('holds the Web Lock named dentflow-refresh while refreshing and storing the new token', async () => {
    strictRotatingServer();
    const heldDuring: (string | null)[] = [];
    const request = vi.fn(async (name: string, task: () => Promise<unknown>) => {
      const result = await task();
      heldDuring.push(getRefreshToken()); // still inside the lock
      return result;
    });
    vi.stubGlobal('navigator', { ...navigator, locks: { request } });

    await createApiClient().refreshSession();

    expect(request).toHaveBeenCalledWith(REFRESH_LOCK_NAME, expect.any(Function));
    expect(REFRESH_LOCK_NAME).toBe('dentflow-refresh');
    expect(heldDuring).toEqual(['refresh-1']);
  });
});
