import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { RouteObject } from 'react-router';
import { clearSession, configureApiClient, getAccessToken } from '../../lib/api-client';
import { createQueryClient } from '../../lib/query-client';
import { setRefreshToken } from '../../lib/session-storage';
import { emptyStartupAnswer, fail, mockFetch, ok } from '../../test/fetch-mock';
import { completeProfile } from '../../test/profiles';
import { lazyRoute } from '../lazy-route';
import { routes } from '../router';
import { caseListQueryOfUrl, caseListQueryOptions } from '../../features/cases/api/list-cases';
import { SIGNED_IN_ROUTES_ID, startEarly, takeEarlyStartup } from './early-start';

const casePage = { items: [], total: 0, page: 0, pageSize: 20 };

/** The API of a returning user's first page: refresh, start-up calls and the case list. */
function server() {
  return mockFetch((call) => {
    switch (call.path) {
      case '/auth/refresh_token':
        return ok({
          accessToken: 'access-new',
          refreshToken: 'refresh-new',
          profile: completeProfile(),
        });
      case '/profile/get':
        return ok(completeProfile());
      case '/case/list/new/0':
        return ok(casePage);
      default:
        return emptyStartupAnswer(call.path) ?? fail(404, 'NOT_FOUND', 'Not found');
    }
  });
}

/** A layout and a page as lazy routes with spies on their downloads, and a prefetch spy. */
function testRoutes() {
  const loadLayout = vi.fn(() => Promise.resolve({ Layout: () => null }));
  const loadPage = vi.fn(() => Promise.resolve({ Page: () => null }));
  const Layout = lazyRoute(loadLayout, 'Layout');
  const Page = lazyRoute(loadPage, 'Page');
  const prefetch = vi.fn((..._args: unknown[]) => Promise.resolve());
  const table: RouteObject[] = [
    { path: 'login', element: <p>login</p> },
    {
      id: SIGNED_IN_ROUTES_ID,
      element: (
        <section>
          <Layout />
        </section>
      ),
      children: [{ path: 'things/:kind', element: <Page />, handle: { prefetch } }],
    },
  ];
  return { table, loadLayout, loadPage, prefetch };
}

describe('early start of a returning user page', () => {
  beforeEach(() => {
    clearSession();
    configureApiClient({ onSession: () => {}, onSessionExpired: () => {} });
  });
  afterEach(() => vi.unstubAllGlobals());

  it('starts the layout and page chunks, the refresh, the prefetch and the start-up at once', async () => {
    setRefreshToken('refresh-old');
    const { calls } = server();
    const { table, loadLayout, loadPage, prefetch } = testRoutes();
    const queryClient = createQueryClient();

    startEarly(queryClient, table, { pathname: '/things/red', search: '?page=2' });

    expect(loadLayout).toHaveBeenCalledTimes(1);
    expect(loadPage).toHaveBeenCalledTimes(1);
    expect(prefetch).toHaveBeenCalledTimes(1);
    await vi.waitFor(() => expect(calls[0]?.path).toBe('/auth/refresh_token'));
    const [client, params, search] = prefetch.mock.calls[0] as [unknown, unknown, URLSearchParams];
    expect(client).toBe(queryClient);
    expect(params).toEqual({ kind: 'red' });
    expect(search.get('page')).toBe('2');

    const startup = takeEarlyStartup(queryClient);
    expect(startup).not.toBeNull();
    await expect(startup).resolves.toMatchObject({ decision: 'home' });
    expect(getAccessToken()).toBe('access-new');
    // Taken once: the next mount of the gate starts anew.
    expect(takeEarlyStartup(queryClient)).toBeNull();
  });

  it.each([
    ['a public page', '/login', 'refresh-old'],
    ['no session on this browser', '/things/red', null],
  ])('starts nothing for %s', (_name, pathname, token) => {
    setRefreshToken(token);
    const { calls } = server();
    const { table, loadLayout, loadPage, prefetch } = testRoutes();
    const queryClient = createQueryClient();

    startEarly(queryClient, table, { pathname, search: '' });

    expect(calls).toEqual([]);
    expect(loadLayout).not.toHaveBeenCalled();
    expect(loadPage).not.toHaveBeenCalled();
    expect(prefetch).not.toHaveBeenCalled();
    expect(takeEarlyStartup(queryClient)).toBeNull();
  });

  it('the app routes fetch /cases/new list beside the start-up, under the key the page reads', async () => {
    setRefreshToken('refresh-old');
    const { calls } = server();
    const queryClient = createQueryClient();

    startEarly(queryClient, routes, { pathname: '/cases/new', search: '' });

    const key = caseListQueryOptions(caseListQueryOfUrl('new', new URLSearchParams())).queryKey;
    await vi.waitFor(() => expect(queryClient.getQueryData(key)).toEqual(casePage), {
      timeout: 5_000,
    });
    await takeEarlyStartup(queryClient);
    expect(calls.map((call) => call.path).sort()).toEqual([
      '/auth/refresh_token',
      '/case/list/new/0',
      '/metadata/list/serviceData/subsystem',
      '/profile/announcement',
      '/profile/get',
      '/profile/getInstructor',
    ]);
  });
});
