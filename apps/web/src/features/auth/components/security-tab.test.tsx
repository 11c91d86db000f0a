import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { applyLanguage } from '../../../lib/i18n';
import { fail, mockFetch, ok } from '../../../test/fetch-mock';
import { renderWithApp } from '../../../test/render';
import { SecurityTab } from './security-tab';

const status = (overrides: Record<string, unknown>) => ({
  enabled: false,
  required: false,
  recoveryCodesLeft: 0,
  rememberedDevices: 0,
  ...overrides,
});

describe('profile security tab', () => {
  beforeEach(() => applyLanguage('en'));
  afterEach(() => vi.unstubAllGlobals());

  it('turns two-factor on with a first code and shows the recovery codes once', async () => {
    const { calls } = mockFetch((call) => {
      if (call.path === '/profile/twoFactor/get') return ok(status({}));
      if (call.path === '/profile/twoFactor/setup') {
        return ok({
          secret: 'JBSWY3DPEHPK3PXP',
          otpauthUri: 'otpauth://totp/x?secret=JBSWY3DPEHPK3PXP',
        });
      }
      return ok({ recoveryCodes: ['abcde-fghij'] });
    });
    renderWithApp(<SecurityTab />);
    await userEvent.click(
      await screen.findByRole('button', { name: 'Turn on two-factor sign-in' }),
    );
    expect(await screen.findByTestId('authenticator-secret')).toHaveTextContent(
      'JBSW Y3DP EHPK 3PXP',
    );
    await userEvent.type(screen.getByRole('textbox', { name: /^Security code/ }), '123456');
    await userEvent.click(screen.getByRole('button', { name: 'Turn on' }));
    expect(await screen.findByText('abcde-fghij')).toBeInTheDocument();
    expect(calls.find((c) => c.path === '/profile/twoFactor/enable')?.body).toEqual({
      code: '123456',
    });
  });

  it('offers no way to turn it off to a role that requires it', async () => {
    mockFetch(() => ok(status({ enabled: true, required: true, recoveryCodesLeft: 7 })));
    renderWithApp(<SecurityTab />);
    expect(await screen.findByText('Unused recovery codes: 7')).toBeInTheDocument();
    expect(
      screen.getByText('Your role requires two-factor sign-in, so it cannot be turned off.'),
    ).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Turn off' })).not.toBeInTheDocument();
  });

  it('asks for confirmation with the password and a code before turning it off', async () => {
    const { calls } = mockFetch((call) =>
      call.path === '/profile/twoFactor/get'
        ? ok(status({ enabled: true, recoveryCodesLeft: 10 }))
        : fail(400, 'WRONG_PASSWORD', 'The current password is wrong'),
    );
    renderWithApp(<SecurityTab />);
    await userEvent.click(await screen.findByRole('button', { name: 'Turn off' }));
    const dialog = await screen.findByRole('dialog', { name: 'Turn off two-factor sign-in?' });
    expect(calls.map((c) => c.path)).toEqual(['/profile/twoFactor/get']);
    await userEvent.type(within(dialog).getByLabelText(/^Password/), 'Nope12345');
    await userEvent.type(within(dialog).getByRole('textbox', { name: /^Security code/ }), '123456');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Turn off' }));
    await waitFor(
      () =>
        expect(calls.find((c) => c.path === '/profile/twoFactor/disable')?.body).toEqual({
          password: 'Nope12345',
          code: '123456',
        }),
      // The request leaves after the form's checks, which take long on a loaded CI machine.
      { timeout: 5_000 },
    );
    // Refused: the dialog stays open for another try.
    expect(dialog).toBeInTheDocument();
  });
});
