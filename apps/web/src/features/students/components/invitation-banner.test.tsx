import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { useSearchParams } from 'react-router';
import { applyLanguage } from '../../../lib/i18n';
import { markWelcomeSeen, setRefreshToken, setStoredUser } from '../../../lib/session-storage';
import { fail, mockFetch, ok } from '../../../test/fetch-mock';
import { completeProfile } from '../../../test/profiles';
import { renderRoutes } from '../../../test/render';
import { LoginPage } from '../../auth/routes/login-page';
import { InvitationBanner } from './invitation-banner';

/** The banner as the register page shows it, reading the link's token from the address. */
function RegisterWithInvite() {
  const [params] = useSearchParams();
  return <InvitationBanner token={params.get('invite')} />;
}

const routes = [
  { path: '/register', element: <RegisterWithInvite /> },
  { path: '/login', element: <LoginPage /> },
  { path: '/shop', element: <p>shop page</p> },
  { path: '*', element: <p>somewhere else</p> },
];

function server() {
  return mockFetch((call) => {
    if (call.path.startsWith('/students/invitations/')) {
      return ok({ instructorName: 'Dr. Paulo Reis', discount: 15 });
    }
    if (call.path === '/auth/login') {
      return ok({ accessToken: 'access', refreshToken: 'refresh', profile: completeProfile() });
    }
    if (call.path === '/profile/acceptInvitation') {
      return ok({ instructorId: 4, instructorDiscount: 15 });
    }
    return fail(404, 'NOT_FOUND', 'Not found');
  });
}

describe('invitation banner for a visitor with an account', { timeout: 30_000 }, () => {
  beforeEach(async () => {
    await applyLanguage('en');
    markWelcomeSeen();
  });
  afterEach(() => {
    vi.unstubAllGlobals();
    setStoredUser(null);
    setRefreshToken(null);
  });

  it('links to the login page, which brings them back to the invitation to accept it', async () => {
    const { calls } = server();
    const user = userEvent.setup();
    const { router } = renderRoutes(routes, '/register?invite=tok%2B7');

    expect(await screen.findByText(/Already have an account\?/)).toBeInTheDocument();
    const signIn = screen.getByRole('link', { name: 'Sign in to accept' });
    expect(signIn).toHaveAttribute('href', '/login');
    await user.click(signIn);
    // The way back travels as the login redirect state the route guard also uses.
    expect(router.state.location.pathname).toBe('/login');
    expect(router.state.location.state).toEqual({ from: '/register?invite=tok%2B7' });

    await user.type(screen.getByLabelText(/Email or nickname/), 'anasouza');
    await user.type(screen.getByLabelText(/^Password/), 'Secret123');
    await user.click(screen.getByRole('button', { name: 'Log in' }));

    expect(await screen.findByText(/You are signed in as Ana Souza/)).toBeInTheDocument();
    expect(router.state.location.search).toBe('?invite=tok%2B7');
    expect(screen.queryByRole('link', { name: 'Sign in to accept' })).toBeNull();
    await user.click(screen.getByRole('button', { name: 'Accept with my account' }));
    expect(await screen.findByText('shop page')).toBeInTheDocument();
    await waitFor(() =>
      expect(calls.find((c) => c.path === '/profile/acceptInvitation')?.body).toEqual({
        token: 'tok+7',
      }),
    );
  });
});
