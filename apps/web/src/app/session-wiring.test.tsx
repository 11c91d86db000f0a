import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { render, screen, waitFor } from '@testing-library/react';
import { createMemoryRouter } from 'react-router';
import { clearSession, configureApiClient } from '../lib/api-client';
import { applyLanguage, chooseLanguage, currentLanguage } from '../lib/i18n';
import { createQueryClient } from '../lib/query-client';
import {
  getRefreshToken,
  getStoredLanguage,
  setRefreshToken,
  setStoredUser,
} from '../lib/session-storage';
import { emptyStartupAnswer, fail, mockFetch, ok } from '../test/fetch-mock';
import { completeProfile } from '../test/profiles';
import { App } from './app';
import { routes } from './router';
import { wireSession } from './session-wiring';

describe('session expiry wiring (failed refresh)', () => {
  beforeEach(() => {
    clearSession();
    // A Portuguese browser whose user had explicitly switched to Spanish.
    vi.spyOn(window.navigator, 'language', 'get').mockReturnValue('pt-BR');
  });
  afterEach(async () => {
    configureApiClient({ onSession: () => {}, onSessionExpired: () => {} });
    vi.restoreAllMocks();
    vi.unstubAllGlobals();
    await applyLanguage('en');
  });

  it('a refused refresh on a protected page clears the cache, resets the language, reports "User not logged" and goes to /login', async () => {
    await chooseLanguage('es');
    setRefreshToken('refresh-revoked');
    setStoredUser(completeProfile());
    const { calls } = mockFetch((call) =>
      call.path === '/auth/refresh_token'
        ? fail(401, 'NOT_AUTHORIZED', 'not authorized')
        : fail(404, 'NOT_FOUND', 'Not found'),
    );
    const queryClient = createQueryClient();
    queryClient.setQueryData(['profile'], completeProfile()); // left from the lost session
    const router = createMemoryRouter(routes, { initialEntries: ['/cases/approve'] });
    wireSession(queryClient, (path) => router.navigate(path, { replace: true }));

    render(<App router={router} queryClient={queryClient} />);

    // Told in the language the reset went back to (the browser's), not in the chosen Spanish.
    const notification = await screen.findByRole('alert');
    await waitFor(() => expect(notification).toHaveTextContent('Usuário não conectado'));
    expect(notification).toHaveTextContent('Erro');
    await waitFor(() => expect(router.state.location.pathname).toBe('/login'));
    expect(await screen.findByRole('button', { name: 'Entrar' })).toBeInTheDocument();

    expect(calls.map((c) => c.path)).toEqual(['/auth/refresh_token']);
    expect(getRefreshToken()).toBeNull();
    expect(queryClient.getQueryData(['profile'])).toBeUndefined();
    expect(currentLanguage()).toBe('ptBR'); // decision 008: the browser's language, not en
    expect(getStoredLanguage()).toBeNull();
    expect(document.documentElement.lang).toBe('pt-BR');
  });

  it('a refused refresh later in the session (after start-up) also ends on /login with the report', async () => {
    const spanishProfile = completeProfile({
      roles: ['instructor', 'public'],
      dataInfo: { ...completeProfile().dataInfo, language: 'es' },
    });
    let sessionRevoked = false; // e.g. the password was changed on another device
    setRefreshToken('refresh-0');
    mockFetch((call) => {
      if (call.path === '/auth/refresh_token') {
        return sessionRevoked
          ? fail(401, 'NOT_AUTHORIZED', 'not authorized')
          : ok({ accessToken: 'access-1', refreshToken: 'refresh-1', profile: spanishProfile });
      }
      if (sessionRevoked || call.headers.authorization !== 'Bearer access-1') {
        return fail(401, 'NOT_AUTHORIZED', 'not authorized');
      }
      switch (call.path) {
        case '/profile/get':
          return ok(spanishProfile);
        case '/notification/last5':
          return ok({ items: [], unseen: 0 });
        case '/students':
          return ok({ students: [], invitations: [] });
        default:
          return emptyStartupAnswer(call.path) ?? fail(404, 'NOT_FOUND', 'Not found');
      }
    });
    const queryClient = createQueryClient();
    // An instructor's own screen: one request of its own, answered.
    const router = createMemoryRouter(routes, { initialEntries: ['/students'] });
    wireSession(queryClient, (path) => router.navigate(path, { replace: true }));
    render(<App router={router} queryClient={queryClient} />);
    // Started up in the profile's language.
    await waitFor(() => expect(currentLanguage()).toBe('es'));
    expect(await screen.findByRole('heading', { name: 'Alumnos' })).toBeInTheDocument();

    sessionRevoked = true;
    await queryClient.invalidateQueries(); // the next request meets a 401 and a refused refresh

    // Requests in flight when the session ends may each report; one of them says it.
    await waitFor(() =>
      expect(
        screen
          .getAllByRole('alert')
          .some((alert) => /Usuário não conectado/.test(alert.textContent)),
      ).toBe(true),
    );
    await waitFor(() => expect(router.state.location.pathname).toBe('/login'));
    expect(getRefreshToken()).toBeNull();
    expect(currentLanguage()).toBe('ptBR');
  });
});
