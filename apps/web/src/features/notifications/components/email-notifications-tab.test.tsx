import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { DEFAULT_EMAIL_NOTIFICATIONS } from '@dentflow/domain';
import { applyLanguage } from '../../../lib/i18n';
import { fail, mockFetch, ok } from '../../../test/fetch-mock';
import { completeProfile } from '../../../test/profiles';
import { renderWithApp } from '../../../test/render';
import { EmailNotificationsTab } from './email-notifications-tab';

const PATH = '/profile/notifications';

describe('email notification preferences', { timeout: 30_000 }, () => {
  beforeEach(() => applyLanguage('en'));
  afterEach(() => vi.unstubAllGlobals());

  it('shows the saved choice and saves the new one with feedback', async () => {
    const { calls } = mockFetch((call) => {
      if (call.path === PATH && call.method === 'GET') {
        return ok({ eventTypes: DEFAULT_EMAIL_NOTIFICATIONS });
      }
      if (call.path === PATH && call.method === 'POST') return ok(call.body);
      return ok(completeProfile());
    });
    renderWithApp(<EmailNotificationsTab />);
    const user = userEvent.setup();
    // Defaults: public chat, status changed, case fulfilled, pending approval, order dispatched.
    expect(await screen.findByRole('checkbox', { name: 'Status changed' })).toBeChecked();
    expect(screen.getByRole('checkbox', { name: 'New message' })).toBeChecked();
    expect(screen.getByRole('checkbox', { name: 'File added' })).not.toBeChecked();
    expect(screen.getByRole('checkbox', { name: 'Order dispatched' })).toBeChecked();
    expect(screen.getAllByRole('checkbox')).toHaveLength(12);

    await user.click(screen.getByRole('checkbox', { name: 'File added' }));
    await user.click(screen.getByRole('checkbox', { name: 'New message' }));
    await user.click(screen.getByRole('button', { name: 'Save' }));
    expect(await screen.findByText('Your email preferences have been saved.')).toBeInTheDocument();
    const saved = calls.find((call) => call.method === 'POST' && call.path === PATH);
    expect((saved?.body as { eventTypes: number[] }).eventTypes.sort((a, b) => a - b)).toEqual([
      2, 9, 21, 23, 24,
    ]);
    expect(screen.getByRole('checkbox', { name: 'File added' })).toBeChecked();
    expect(screen.getByRole('checkbox', { name: 'New message' })).not.toBeChecked();
  });

  it('keeps the choice and shows the error when saving fails', async () => {
    mockFetch((call) => {
      if (call.path === PATH && call.method === 'GET') return ok({ eventTypes: [] });
      if (call.path === PATH && call.method === 'POST') {
        return fail(400, 'VALIDATION_ERROR', 'Some fields are invalid');
      }
      return ok(completeProfile());
    });
    renderWithApp(<EmailNotificationsTab />);
    const user = userEvent.setup();
    await user.click(await screen.findByRole('checkbox', { name: 'Case closed' }));
    await user.click(screen.getByRole('button', { name: 'Save' }));
    expect(await screen.findByText('Some fields are invalid')).toBeInTheDocument();
    await waitFor(() =>
      expect(screen.getByRole('checkbox', { name: 'Case closed' })).toBeChecked(),
    );
  });
});
