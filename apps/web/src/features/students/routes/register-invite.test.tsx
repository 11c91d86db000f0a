import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { applyLanguage } from '../../../lib/i18n';
import { fail, mockFetch, ok, type RecordedCall } from '../../../test/fetch-mock';
import { setStoredUser } from '../../../lib/session-storage';
import { completeProfile } from '../../../test/profiles';
import { renderRoutes } from '../../../test/render';
import { RegisterPage } from '../../auth/routes/register-page';

/** The register page opened from an instructor's invitation mail (`/register?invite=…`). */
const routes = [
  { path: '/register/:coupom?', element: <RegisterPage /> },
  { path: '/verify', element: <p>verify page</p> },
  { path: '/shop', element: <p>shop page</p> },
];

function server(previewOk: boolean) {
  return mockFetch((call) => {
    if (call.path === '/profile/verifyNickname') return ok({ available: true });
    if (call.path.startsWith('/students/invitations/')) {
      return previewOk
        ? ok({ instructorName: 'Dr. Paulo Reis', discount: 15 })
        : fail(404, 'NOT_FOUND', 'Not found');
    }
    if (call.path === '/auth/register') return ok({ id: 9 });
    if (call.path === '/profile/acceptInvitation') {
      return ok({ instructorId: 4, instructorDiscount: 15 });
    }
    return fail(404, 'NOT_FOUND', 'Not found');
  });
}

type User = ReturnType<typeof userEvent.setup>;
async function fill(user: User, label: RegExp, text: string) {
  await user.click(screen.getByLabelText(label));
  await user.paste(text);
}

const registrations = (calls: RecordedCall[]) => calls.filter((c) => c.path === '/auth/register');

describe('register page with an invitation', { timeout: 30_000 }, () => {
  beforeEach(() => applyLanguage('en'));
  afterEach(() => {
    vi.unstubAllGlobals();
    setStoredUser(null);
  });

  it('shows the instructor and discount, and sends the invitation with the registration', async () => {
    const { calls } = server(true);
    const user = userEvent.setup();
    renderRoutes(routes, '/register?invite=tok-123');
    expect(await screen.findByText('Invited by Dr. Paulo Reis — 15% off')).toBeInTheDocument();
    expect(calls.find((c) => c.path.startsWith('/students/invitations/'))?.path).toBe(
      '/students/invitations/tok-123',
    );

    await fill(user, /^Email/, 'ana@clinic.example');
    await fill(user, /^First name/, 'Ana');
    await fill(user, /^Last name/, 'Souza');
    await fill(user, /^Nickname/, 'anasouza');
    await fill(user, /^Password/, 'Secret123');
    await fill(user, /^Confirm password/, 'Secret123');
    await user.click(screen.getByRole('button', { name: 'Read the terms of use' }));
    await user.click(await screen.findByRole('button', { name: 'Close' }));
    await user.click(screen.getByRole('checkbox', { name: /I have read and accept/ }));
    await user.click(screen.getByRole('button', { name: 'Create account' }));

    await waitFor(() => expect(registrations(calls)).toHaveLength(1));
    expect(registrations(calls)[0]!.body).toMatchObject({
      email: 'ana@clinic.example',
      invite: 'tok-123',
    });
  });

  it.each([
    ['ptBR', 'Convidado por Dr. Paulo Reis — 15% de desconto'],
    ['es', 'Invitado por Dr. Paulo Reis — 15% de descuento'],
  ] as const)('states the discount in %s too', async (language, banner) => {
    await applyLanguage(language);
    server(true);
    renderRoutes(routes, '/register?invite=tok-123');
    expect(await screen.findByText(banner)).toBeInTheDocument();
  });

  it('says when the link is no longer valid', async () => {
    server(false);
    renderRoutes(routes, '/register?invite=old');
    expect(
      await screen.findByText(
        'This invitation link is no longer valid. You can still create your account.',
      ),
    ).toBeInTheDocument();
    expect(screen.queryByText(/Invited by/)).not.toBeInTheDocument();
  });

  it('asks nothing about invitations without a link', async () => {
    const { calls } = server(true);
    renderRoutes(routes, '/register');
    await screen.findByRole('button', { name: 'Create account' });
    expect(calls.filter((c) => c.path.startsWith('/students/'))).toEqual([]);
  });

  it('lets someone signed in on this browser accept with their account', async () => {
    setStoredUser(completeProfile());
    const { calls } = server(true);
    const user = userEvent.setup();
    renderRoutes(routes, '/register?invite=tok-9');
    expect(await screen.findByText(/You are signed in as Ana Souza/)).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Accept with my account' }));
    expect(await screen.findByText('shop page')).toBeInTheDocument();
    expect(calls.find((c) => c.path === '/profile/acceptInvitation')?.body).toEqual({
      token: 'tok-9',
    });
    expect(registrations(calls)).toEqual([]);
  });

  it('offers no accept button to a visitor who is not signed in', async () => {
    server(true);
    renderRoutes(routes, '/register?invite=tok-123');
    await screen.findByText('Invited by Dr. Paulo Reis — 15% off');
    expect(
      screen.queryByRole('button', { name: 'Accept with my account' }),
    ).not.toBeInTheDocument();
  });
});
