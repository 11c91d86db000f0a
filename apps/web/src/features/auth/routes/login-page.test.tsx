import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { applyLanguage } from '../../../lib/i18n';
import { markWelcomeSeen } from '../../../lib/session-storage';
import { fail, mockFetch, ok } from '../../../test/fetch-mock';
import { renderRoutes } from '../../../test/render';
import { LoginPage } from './login-page';

const routes = [
  { path: '/login', element: <LoginPage /> },
  { path: '*', element: <p>somewhere else</p> },
];

async function logIn(login: string, password: string) {
  const user = userEvent.setup();
  renderRoutes(routes, '/login');
  await user.type(screen.getByLabelText(/Email or nickname/), login);
  await user.type(screen.getByLabelText(/^Password/), password);
  await user.click(screen.getByRole('button', { name: 'Log in' }));
  return user;
}

describe('login page', () => {
  beforeEach(async () => {
    await applyLanguage('en');
    markWelcomeSeen();
  });
  afterEach(() => vi.unstubAllGlobals());

  it('an unverified account shows the error with a Resend confirmation action that resends', async () => {
    const { calls } = mockFetch((call) =>
      call.path === '/auth/login'
        ? fail(403, 'ACCOUNT_NOT_VERIFIED', 'Your account is not verified.')
        : ok({ sent: true }),
    );
    const user = await logIn('  drsmile ', 'Secret123');

    const alert = await screen.findByRole('alert');
    expect(alert).toHaveTextContent('Your account is not verified.');
    await user.click(screen.getByRole('button', { name: 'Resend confirmation' }));

    await waitFor(() =>
      expect(calls.find((c) => c.path === '/auth/resendVerification')?.body).toEqual({
        login: 'drsmile',
      }),
    );
    expect(await screen.findByText(/a new verification email has been sent/)).toBeInTheDocument();
    expect(calls[0]).toMatchObject({
      path: '/auth/login',
      body: { login: 'drsmile', password: 'Secret123', remember: false },
    });
  });

  it('a wrong password shows the generic error, without a resend action or a refresh', async () => {
    const { calls } = mockFetch(() =>
      fail(401, 'INVALID_CREDENTIALS', 'Invalid login or password'),
    );
    await logIn('doctor', 'Wrong-password1');

    expect(await screen.findByRole('alert')).toHaveTextContent('Invalid login or password');
    expect(screen.queryByRole('button', { name: 'Resend confirmation' })).not.toBeInTheDocument();
    expect(calls.map((c) => c.path)).toEqual(['/auth/login']);
    expect(screen.getByLabelText(/Email or nickname/)).toHaveValue('doctor');
  });

  it('asks for the login and the password before calling the server', async () => {
    const { calls } = mockFetch(() => ok({}));
    const user = userEvent.setup();
    renderRoutes(routes, '/login');
    await user.click(screen.getByRole('button', { name: 'Log in' }));
    expect(await screen.findAllByText('This field is required')).toHaveLength(2);
    expect(calls).toHaveLength(0);
  });
});
