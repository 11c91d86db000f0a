import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { useLocation } from 'react-router';
import type { UserProfile } from '@dentflow/domain';
import { clearSession, configureApiClient, getAccessToken } from '../../lib/api-client';
import { applyLanguage } from '../../lib/i18n';
import { createQueryClient } from '../../lib/query-client';
import { getRefreshToken, setRefreshToken } from '../../lib/session-storage';
import { fail, mockFetch, ok, type RecordedCall } from '../../test/fetch-mock';
import { completeProfile, profileWithoutAddress } from '../../test/profiles';
import { renderRoutes } from '../../test/render';
import { decideAfterStartup, runStartup } from './run-startup';
import { StartupGate } from './startup-gate';

const noAnnouncement = { active: false, title: '', body: '' };
const announcement = {
  id: 7,
  active: true,
  title: 'Maintenance',
  body: 'On Sunday the platform stops for one hour.',
};
const kits = {
  kitManufacturers: [{ manufactureName: 'Neodent', systems: ['GM', 'CM'] }],
  treatmentPurposes: [],
};

/** The start-up endpoints; /auth/refresh_token answers with a new session. */
function startupServer(
  profile: UserProfile,
  announcementAnswer = noAnnouncement,
  refreshOk = true,
) {
  return mockFetch((call: RecordedCall) => {
    switch (call.path) {
      case '/auth/refresh_token':
        return refreshOk
          ? ok({ accessToken: 'access-new', refreshToken: 'refresh-new', profile })
          : fail(401, 'NOT_AUTHORIZED', 'not authorized');
      case '/profile/get':
        return ok(profile);
      case '/profile/getInstructor':
        return ok({ instructor_id: null, instructor_discount: 0 });
      case '/profile/announcement':
        return ok(announcementAnswer);
      case '/metadata/list/serviceData/subsystem':
        return ok(kits);
      case '/profile/announcement/7/dismiss':
        return ok({ dismissed: true });
      default:
        return fail(404, 'NOT_FOUND', 'Not found');
    }
  });
}

describe('start-up decision (step 3)', () => {
  it.each([
    [
      'an active announcement wins, even over an incomplete profile',
      announcement,
      profileWithoutAddress(),
      'announcement',
    ],
    [
      'an active announcement with a complete profile',
      announcement,
      completeProfile(),
      'announcement',
    ],
    [
      'an announcement without body is not shown',
      { ...announcement, body: ' ' },
      completeProfile(),
      'home',
    ],
    [
      'an inactive announcement leaves the incomplete profile',
      { ...announcement, active: false },
      profileWithoutAddress(),
      'completeProfile',
    ],
    ['no announcement and a complete profile go home', noAnnouncement, completeProfile(), 'home'],
  ] as const)('%s', (_name, answer, profile, expected) => {
    expect(decideAfterStartup(profile, answer)).toBe(expected);
  });
});

describe('start-up sequence', () => {
  const onSessionExpired = vi.fn();
  beforeEach(async () => {
    clearSession();
    onSessionExpired.mockReset();
    configureApiClient({ onSession: () => {}, onSessionExpired });
    await applyLanguage('en');
  });
  afterEach(() => vi.unstubAllGlobals());

  it('refreshes first when not logged in, then asks for profile, instructor, announcement and kits together', async () => {
    setRefreshToken('refresh-old');
    const answered = startupServer(completeProfile());
    // The four calls after the refresh are held until all four have been sent: one that waited
    // for the answer of another would never be sent.
    let sentTogether = false;
    let answeredAfterRefresh = 0;
    let release = () => {};
    const allSent = new Promise<void>((resolve) => (release = resolve));
    const { calls } = mockFetch(async (call) => {
      if (call.path !== '/auth/refresh_token') {
        if (calls.length === 5) {
          sentTogether = answeredAfterRefresh === 0;
          release();
        }
        await Promise.race([allSent, new Promise((resolve) => setTimeout(resolve, 300))]);
        answeredAfterRefresh += 1;
      }
      return answered.fetchMock(`/api/v1${call.path}`, { method: call.method });
    });
    const queryClient = createQueryClient();

    const result = await runStartup(queryClient);

    expect(calls.map((c) => c.path)).toEqual([
      '/auth/refresh_token',
      '/profile/get',
      '/profile/getInstructor',
      '/profile/announcement',
      '/metadata/list/serviceData/subsystem',
    ]);
    expect(sentTogether).toBe(true);
    for (const call of calls.slice(1)) expect(call.headers.authorization).toBe('Bearer access-new');
    expect(result.decision).toBe('home');
    expect(queryClient.getQueryData(['metadata', 'kits'])).toEqual(kits);
    expect(getAccessToken()).toBe('access-new');
  });

  it('fails (and so goes to login) when the refresh fails', async () => {
    setRefreshToken('refresh-revoked');
    const { calls } = startupServer(completeProfile(), noAnnouncement, false);
    await expect(runStartup(createQueryClient())).rejects.toMatchObject({ code: 'NOT_AUTHORIZED' });
    expect(calls.map((c) => c.path)).toEqual(['/auth/refresh_token']);
    expect(onSessionExpired).toHaveBeenCalledTimes(1);
  });

  function Where() {
    const location = useLocation();
    return <p>at {location.pathname}</p>;
  }
  const gateRoutes = [
    { path: '/login', element: <p>login page</p> },
    {
      path: '*',
      element: (
        <StartupGate>
          <Where />
        </StartupGate>
      ),
    },
  ];

  it('shows the announcement over the wanted page; OK dismisses it on the server and stays there', async () => {
    setRefreshToken('refresh-old');
    const { calls } = startupServer(profileWithoutAddress(), announcement);
    const { router } = renderRoutes(gateRoutes, '/case/12?tab=chat');

    expect(await screen.findByRole('dialog', { name: 'Maintenance' })).toBeInTheDocument();
    expect(screen.getByText(announcement.body)).toBeInTheDocument();
    expect(screen.queryByText('Complete your profile')).not.toBeInTheDocument();

    await userEvent.click(screen.getByRole('button', { name: 'OK' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    // A mailed link lands where it points: closing never navigates.
    expect(router.state.location.pathname).toBe('/case/12');
    expect(router.state.location.search).toBe('?tab=chat');
    await waitFor(() =>
      expect(calls.filter((call) => call.path === '/profile/announcement/7/dismiss')).toHaveLength(
        1,
      ),
    );
    expect(calls.find((call) => call.path === '/profile/announcement/7/dismiss')?.method).toBe(
      'POST',
    );
  });

  it('closing the announcement with Escape also dismisses it and keeps the page', async () => {
    setRefreshToken('refresh-old');
    const { calls } = startupServer(completeProfile(), announcement);
    const { router } = renderRoutes(gateRoutes, '/cases/print');
    expect(await screen.findByRole('dialog', { name: 'Maintenance' })).toBeInTheDocument();
    await userEvent.keyboard('{Escape}');
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    expect(router.state.location.pathname).toBe('/cases/print');
    await waitFor(() =>
      expect(calls.some((call) => call.path === '/profile/announcement/7/dismiss')).toBe(true),
    );
  });

  it('asks an incomplete profile to be completed and sends to /profile-settings', async () => {
    setRefreshToken('refresh-old');
    startupServer(profileWithoutAddress());
    const { router } = renderRoutes(gateRoutes, '/cases/new');

    expect(
      await screen.findByRole('dialog', { name: 'Complete your profile' }),
    ).toBeInTheDocument();
    await userEvent.click(screen.getByRole('button', { name: 'Complete profile' }));
    await waitFor(() => expect(router.state.location.pathname).toBe('/profile-settings'));
  });

  it('with a complete profile and no announcement stays on the wanted page without a dialog', async () => {
    setRefreshToken('refresh-old');
    startupServer(completeProfile());
    renderRoutes(gateRoutes, '/cases/print');
    expect(await screen.findByText('at /cases/print')).toBeInTheDocument();
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
  });

  it('shows a full-page loader meanwhile and goes to /login when the initial load fails', async () => {
    setRefreshToken('refresh-old');
    mockFetch((call) =>
      call.path === '/auth/refresh_token'
        ? ok({ accessToken: 'a', refreshToken: 'r', profile: completeProfile() })
        : fail(500, 'INTERNAL_ERROR', 'Internal error'),
    );
    const { router } = renderRoutes(gateRoutes, '/cases/new');
    expect(screen.getByRole('status')).toHaveTextContent('Loading your workspace');
    await waitFor(() => expect(router.state.location.pathname).toBe('/login'));
  });

  it('a network error during the start-up refresh is shown, goes to /login and keeps the session', async () => {
    setRefreshToken('refresh-still-valid');
    mockFetch(() => Promise.reject(new TypeError('Failed to fetch')));
    const { router } = renderRoutes(gateRoutes, '/cases/new');

    const notification = await screen.findByRole('alert');
    expect(notification).toHaveTextContent('Error');
    expect(notification).toHaveTextContent('The server could not be reached');
    await waitFor(() => expect(router.state.location.pathname).toBe('/login'));
    // The server never refused it: a reload of a protected page can refresh with it again.
    expect(getRefreshToken()).toBe('refresh-still-valid');
    expect(onSessionExpired).not.toHaveBeenCalled();
  });
});
