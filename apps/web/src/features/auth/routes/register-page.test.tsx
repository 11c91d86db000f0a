import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { applyLanguage } from '../../../lib/i18n';
import { fail, mockFetch, ok, type RecordedCall } from '../../../test/fetch-mock';
import { renderRoutes } from '../../../test/render';
import { RegisterPage } from './register-page';

const routes = [
  { path: '/register/:coupom?', element: <RegisterPage /> },
  { path: '/verify', element: <p>verify page</p> },
];

/** The server: the nickname is free; registration answers with `onRegister`. */
function server(onRegister: (call: RecordedCall) => Response) {
  return mockFetch((call) =>
    call.path === '/profile/verifyNickname' ? ok({ available: true }) : onRegister(call),
  );
}

type User = ReturnType<typeof userEvent.setup>;

/** Pasting instead of typing key by key keeps these long forms fast. */
async function fill(user: User, label: RegExp, text: string) {
  await user.click(screen.getByLabelText(label));
  await user.paste(text);
}

async function fillForm(user: User) {
  await fill(user, /^Email/, 'ana@clinic.example');
  await fill(user, /^First name/, 'Ana');
  await fill(user, /^Last name/, 'Souza');
  await fill(user, /^Nickname/, 'anasouza');
  await fill(user, /^Password/, 'Secret123');
  await fill(user, /^Confirm password/, 'Secret123');
}

async function acceptTerms(user: User) {
  await user.click(screen.getByRole('button', { name: 'Read the terms of use' }));
  const dialog = await screen.findByRole('dialog', { name: 'Terms of use' });
  expect(dialog.querySelector('iframe')?.getAttribute('src')).toBe('/terms.html#en');
  await user.click(screen.getByRole('button', { name: 'Close' }));
  await user.click(screen.getByRole('checkbox', { name: /I have read and accept/ }));
}

describe('register page', () => {
  beforeEach(() => applyLanguage('en'));
  afterEach(() => vi.unstubAllGlobals());

  it('keeps the terms checkbox disabled until the terms have been opened', async () => {
    server(() => ok({ id: 1 }));
    const user = userEvent.setup();
    renderRoutes(routes, '/register');

    const terms = screen.getByRole('checkbox', { name: /I have read and accept/ });
    expect(terms).toBeDisabled();
    expect(screen.getByText('Open the terms of use to be able to accept them.')).toBeVisible();

    await user.click(screen.getByRole('button', { name: 'Read the terms of use' }));
    await screen.findByRole('dialog', { name: 'Terms of use' });
    await user.click(screen.getByRole('button', { name: 'Close' }));

    expect(terms).toBeEnabled();
    await user.click(terms);
    expect(terms).toBeChecked();
  });

  it('sends the contract body with the coupon from the URL and goes to the verify page', async () => {
    const { calls } = server(() => ok({ id: 7 }));
    const user = userEvent.setup();
    const { router } = renderRoutes(routes, '/register/WELCOME10');

    expect(screen.getByLabelText(/^Coupon code/)).toHaveValue('WELCOME10');
    await fillForm(user);
    await acceptTerms(user);
    await user.click(screen.getByRole('button', { name: 'Create account' }));

    await waitFor(() => expect(router.state.location.pathname).toBe('/verify'));
    expect(calls.find((c) => c.path === '/auth/register')).toMatchObject({
      method: 'POST',
      body: {
        email: 'ana@clinic.example',
        password: 'Secret123',
        fname: 'Ana',
        lname: 'Souza',
        nickName: 'anasouza',
        terms: true,
        coupom: 'WELCOME10',
        language: 'en',
      },
    });
    expect(router.state.location.state).toEqual({ registeredEmail: 'ana@clinic.example' });
  });

  it('does not submit without accepting the terms', async () => {
    const { calls } = server(() => ok({ id: 7 }));
    const user = userEvent.setup();
    renderRoutes(routes, '/register');
    await fillForm(user);
    await user.click(screen.getByRole('button', { name: 'Create account' }));
    expect(await screen.findByText('You must accept the terms')).toBeInTheDocument();
    expect(calls.some((c) => c.path === '/auth/register')).toBe(false);
  });

  it('shows the server field errors under the fields', async () => {
    server(() =>
      fail(400, 'VALIDATION_ERROR', 'Validation error, check required fields', {
        email: 'This email cannot be used',
        coupom: 'Invalid or expired coupon',
      }),
    );
    const user = userEvent.setup();
    renderRoutes(routes, '/register/OLD');
    await fillForm(user);
    await acceptTerms(user);
    await user.click(screen.getByRole('button', { name: 'Create account' }));

    const email = screen.getByLabelText(/^Email/);
    await waitFor(() => expect(email).toHaveAccessibleDescription('This email cannot be used'));
    expect(screen.getByLabelText(/^Coupon code/)).toHaveAccessibleDescription(
      'Invalid or expired coupon',
    );
    expect(email).toHaveAttribute('aria-invalid', 'true');
  });

  it('shows a taken email (409) under the email field', async () => {
    server(() => fail(409, 'EMAIL_TAKEN', 'This email is already registered'));
    const user = userEvent.setup();
    renderRoutes(routes, '/register');
    await fillForm(user);
    await acceptTerms(user);
    await user.click(screen.getByRole('button', { name: 'Create account' }));
    await waitFor(() =>
      expect(screen.getByLabelText(/^Email/)).toHaveAccessibleDescription(
        'This email is already registered',
      ),
    );
  });
});
