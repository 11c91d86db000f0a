import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { applyLanguage } from '../../../lib/i18n';
import { getRefreshToken, markWelcomeSeen } from '../../../lib/session-storage';
import { fail, mockFetch, ok } from '../../../test/fetch-mock';
import { completeProfile } from '../../../test/profiles';
import { renderRoutes } from '../../../test/render';
import { getDeviceTokens } from '../api/trusted-devices';
import { LoginPage } from './login-page';

const routes = [
  { path: '/login', element: <LoginPage /> },
  { path: '*', element: <p>somewhere else</p> },
];
const session = {
  accessToken: 'access',
  refreshToken: 'refresh',
  profile: completeProfile({ roles: ['admin', 'public'] }),
};

async function logIn() {
  const user = userEvent.setup();
  renderRoutes(routes, '/login');
  await user.type(screen.getByLabelText(/Email or nickname/), 'admin');
  await user.type(screen.getByLabelText(/^Password/), 'Dentflow123');
  await user.click(screen.getByRole('button', { name: 'Log in' }));
  return user;
}

describe('login with a second factor', () => {
  beforeEach(async () => {
    await applyLanguage('en');
    markWelcomeSeen();
    window.localStorage.removeItem('dentflow.trustedDevices');
    window.localStorage.removeItem('dentflow.refreshToken');
  });
  afterEach(() => vi.unstubAllGlobals());

  it('asks for the security code; a wrong one shows the error, a right one signs in and remembers the device', async () => {
    let attempts = 0;
    const { calls } = mockFetch((call) => {
      if (call.path === '/auth/login') {
        return ok({ twoFactor: { challenge: 'challenge-1', step: 'code' } });
      }
      attempts += 1;
      return attempts === 1
        ? fail(400, 'TWO_FACTOR_CODE_INVALID', 'This security code is wrong.')
        : ok({ ...session, deviceToken: 'device-1' });
    });
    const user = await logIn();

    const dialog = await screen.findByRole('dialog', { name: 'Security code' });
    expect(getRefreshToken()).toBeNull();
    await user.type(screen.getByRole('textbox', { name: /^Security code/ }), '000000');
    await user.click(screen.getByRole('button', { name: 'Verify' }));
    expect(await screen.findByRole('alert')).toHaveTextContent('This security code is wrong.');
    expect(dialog).toBeInTheDocument();

    await user.type(screen.getByRole('textbox', { name: /^Security code/ }), '123456');
    await user.click(screen.getByLabelText('Remember this device for 30 days'));
    await user.click(screen.getByRole('button', { name: 'Verify' }));

    expect(await screen.findByText('somewhere else')).toBeInTheDocument();
    expect(calls.at(-1)).toMatchObject({
      path: '/auth/twoFactor/verify',
      body: { challenge: 'challenge-1', code: '123456', rememberDevice: true },
    });
    expect(getRefreshToken()).toBe('refresh');
    expect(getDeviceTokens()).toEqual(['device-1']);
  });

  it('sends the remembered devices with the next login', async () => {
    window.localStorage.setItem('dentflow.trustedDevices', JSON.stringify(['device-1']));
    const { calls } = mockFetch(() => ok(session));
    await logIn();
    expect(await screen.findByText('somewhere else')).toBeInTheDocument();
    expect(calls[0]?.body).toMatchObject({ devices: ['device-1'] });
  });

  it('refuses a malformed code before calling the server', async () => {
    const { calls } = mockFetch(() => ok({ twoFactor: { challenge: 'c', step: 'code' } }));
    const user = await logIn();
    await screen.findByRole('dialog', { name: 'Security code' });
    await user.type(screen.getByRole('textbox', { name: /^Security code/ }), '12');
    await user.click(screen.getByRole('button', { name: 'Verify' }));
    expect(await screen.findByRole('alert')).toHaveTextContent(
      'Enter the 6-digit code from your authenticator app or a recovery code',
    );
    expect(calls.map((c) => c.path)).toEqual(['/auth/login']);
  });

  it('an expired step goes back to the password with the reason', async () => {
    mockFetch((call) =>
      call.path === '/auth/login'
        ? ok({ twoFactor: { challenge: 'c', step: 'code' } })
        : fail(401, 'TWO_FACTOR_CHALLENGE_EXPIRED', 'The sign-in step expired.'),
    );
    const user = await logIn();
    await screen.findByRole('dialog', { name: 'Security code' });
    await user.type(screen.getByRole('textbox', { name: /^Security code/ }), '123456');
    await user.click(screen.getByRole('button', { name: 'Verify' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    expect(screen.getByRole('alert')).toHaveTextContent('The sign-in step expired.');
    expect(screen.getByLabelText(/^Password/)).toHaveValue('');
  });

  it('makes an admin without a second factor enrol, shows the recovery codes, then signs in', async () => {
    const { calls } = mockFetch((call) => {
      if (call.path === '/auth/login') return ok({ twoFactor: { challenge: 'c', step: 'enrol' } });
      if (call.path === '/auth/twoFactor/setup') {
        return ok({
          secret: 'JBSWY3DPEHPK3PXPJBSWY3DPEHPK3PXP',
          otpauthUri: 'otpauth://totp/Dentflow%3Aadmin?secret=JBSWY3DPEHPK3PXPJBSWY3DPEHPK3PXP',
        });
      }
      return ok({ ...session, recoveryCodes: ['abcde-fghij', 'klmno-pqrst'] });
    });
    const user = await logIn();

    expect(
      await screen.findByRole('heading', { name: 'Set up two-factor sign-in' }),
    ).toBeInTheDocument();
    expect(await screen.findByTestId('authenticator-secret')).toHaveTextContent(
      'JBSW Y3DP EHPK 3PXP JBSW Y3DP EHPK 3PXP',
    );
    expect(screen.getByRole('img', { name: 'QR code with your authenticator key' })).toBeVisible();
    await user.type(screen.getByRole('textbox', { name: /^Security code/ }), '123456');
    await user.click(screen.getByRole('button', { name: 'Turn on' }));

    expect(await screen.findByText('abcde-fghij')).toBeInTheDocument();
    // No session before the codes were seen: leaving now would lose them.
    expect(getRefreshToken()).toBeNull();
    await user.click(screen.getByRole('button', { name: 'I saved them, continue' }));
    expect(await screen.findByText('somewhere else')).toBeInTheDocument();
    expect(getRefreshToken()).toBe('refresh');
    expect(calls.find((c) => c.path === '/auth/twoFactor/enrol')?.body).toEqual({
      challenge: 'c',
      code: '123456',
      rememberDevice: false,
    });
  });
});
