import { describe, expect, it } from 'vitest';
import { screen } from '@testing-library/react';
import { useLocation } from 'react-router';
import { RequireAuth } from './require-auth';
import { redirectAfterLogin } from '../../lib/login-redirect';
import { setRefreshToken } from '../../lib/session-storage';
import { renderRoutes } from '../../test/render';

function LoginProbe() {
  const location = useLocation();
  return <p>login page, back to {redirectAfterLogin(location.state)}</p>;
}

const routes = [
  { path: '/login', element: <LoginProbe /> },
  {
    path: '*',
    element: (
      <RequireAuth>
        <p>protected content</p>
      </RequireAuth>
    ),
  },
];

describe('route guard', () => {
  it('without a refresh token sends to /login remembering the wanted path', async () => {
    const { router } = renderRoutes(routes, '/profile-settings?tab=address');
    expect(
      await screen.findByText('login page, back to /profile-settings?tab=address'),
    ).toBeInTheDocument();
    expect(router.state.location.pathname).toBe('/login');
    expect(screen.queryByText('protected content')).not.toBeInTheDocument();
  });

  it('with a refresh token in local storage shows the page', async () => {
    setRefreshToken('refresh-token');
    renderRoutes(routes, '/cases/new');
    expect(await screen.findByText('protected content')).toBeInTheDocument();
  });

  it.each([
    [{ from: '/cases/approve' }, '/cases/approve'],
    [{ from: '//evil.example' }, '/'],
    [{ from: 'https://evil.example' }, '/'],
    [{ from: '/login' }, '/'],
    [null, '/'],
  ])('after login goes back to %j → %s', (state, expected) => {
    expect(redirectAfterLogin(state)).toBe(expected);
  });
});
