import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { applyLanguage } from '../../../lib/i18n';
import { fail, mockFetch, ok, type RecordedCall } from '../../../test/fetch-mock';
import { renderWithApp } from '../../../test/render';
import { InviteForm } from './invite-form';

const invites = (calls: RecordedCall[]) =>
  calls.filter((c) => c.method === 'POST' && c.path === '/users/invite_doctor');

const pending = (email: string, language: string) => ({
  id: 1,
  email,
  language,
  createdAt: '2026-01-01T00:00:00.000Z',
  expiresAt: '2026-01-15T00:00:00.000Z',
  expired: false,
});

describe('invite form', () => {
  beforeEach(() => applyLanguage('en'));
  afterEach(() => vi.unstubAllGlobals());

  it('sends the email and the chosen language, then clears the form', async () => {
    const { calls } = mockFetch((call) => {
      const body = call.body as { email: string; language: string };
      return ok(pending(body.email, body.language));
    });
    const user = userEvent.setup();
    renderWithApp(<InviteForm />);

    await user.click(screen.getByLabelText(/^Email/));
    await user.paste('  Bia@Clinic.example ');
    await user.click(screen.getByRole('combobox', { name: 'Language of the invitation' }));
    await user.click(await screen.findByRole('option', { name: 'Español', hidden: true }));
    await user.click(screen.getByRole('button', { name: 'Send invitation' }));

    await waitFor(() => expect(invites(calls)).toHaveLength(1));
    expect(invites(calls)[0]!.body).toEqual({ email: 'Bia@Clinic.example', language: 'es' });
    expect(await screen.findByText('Invitation sent to Bia@Clinic.example')).toBeInTheDocument();
    await waitFor(() => expect(screen.getByLabelText(/^Email/)).toHaveValue(''));
  });

  it('checks the email before sending anything', async () => {
    const { calls } = mockFetch(() => ok(pending('x@y.z', 'en')));
    const user = userEvent.setup();
    renderWithApp(<InviteForm />);

    await user.click(screen.getByLabelText(/^Email/));
    await user.paste('not-an-email');
    await user.click(screen.getByRole('button', { name: 'Send invitation' }));

    expect(await screen.findByText(/valid email/i)).toBeInTheDocument();
    expect(invites(calls)).toEqual([]);
  });

  it('says so on the field when the doctor is already a student (409)', async () => {
    mockFetch(() => fail(409, 'EMAIL_TAKEN', 'This email is already registered'));
    const user = userEvent.setup();
    renderWithApp(<InviteForm />);

    await user.click(screen.getByLabelText(/^Email/));
    await user.paste('student@clinic.example');
    await user.click(screen.getByRole('button', { name: 'Send invitation' }));

    expect(await screen.findByText('This doctor is already your student')).toBeInTheDocument();
    expect(screen.getByLabelText(/^Email/)).toHaveValue('student@clinic.example');
  });
});
