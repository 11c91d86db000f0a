import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { clearSession, getAccessToken, storeSession } from '../../../lib/api-client';
import { applyLanguage } from '../../../lib/i18n';
import { fail, mockFetch, ok } from '../../../test/fetch-mock';
import { completeProfile } from '../../../test/profiles';
import { renderRoutes } from '../../../test/render';
import { PrivacyTab } from './privacy-tab';

const routes = [
  { path: '/profile-settings', element: <PrivacyTab /> },
  { path: '/login', element: <p>login page</p> },
];

const EXPORT = { profile: { id: 7 }, cases: [] };
const { createObjectURL, revokeObjectURL } = URL;

function fakeApi() {
  return mockFetch((call) => {
    if (call.path === '/profile/get') return ok(completeProfile());
    if (call.path === '/profile/export') {
      return new Response(JSON.stringify(EXPORT), {
        status: 200,
        headers: {
          'content-type': 'application/json',
          'content-disposition': 'attachment; filename="dentflow-data-7.json"',
        },
      });
    }
    if (call.path === '/profile/delete') {
      const { password } = call.body as { password: string };
      return password === 'Dentflow123'
        ? ok({ deleted: true })
        : fail(400, 'WRONG_PASSWORD', 'The current password is wrong.');
    }
    return fail(404, 'NOT_FOUND', 'Not found');
  });
}

describe('profile → privacy', { timeout: 30_000 }, () => {
  beforeEach(() => {
    applyLanguage('en');
    storeSession({
      accessToken: 'access-1',
      refreshToken: 'refresh-1',
      profile: completeProfile(),
    });
  });
  afterEach(() => {
    clearSession();
    URL.createObjectURL = createObjectURL;
    URL.revokeObjectURL = revokeObjectURL;
    vi.unstubAllGlobals();
    vi.restoreAllMocks();
  });

  it('downloads the data with the bearer token and saves it under the server’s filename', async () => {
    const { calls } = fakeApi();
    const blobs: Blob[] = [];
    // jsdom has no object URLs: these stand in for the browser's (restored after each test).
    URL.createObjectURL = vi.fn((blob: Blob) => {
      blobs.push(blob);
      return 'blob:export';
    });
    URL.revokeObjectURL = vi.fn();
    const clicked: { href: string; download: string }[] = [];
    vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(function (
      this: HTMLAnchorElement,
    ) {
      clicked.push({ href: this.href, download: this.download });
    });
    renderRoutes(routes, '/profile-settings');
    await userEvent.setup().click(await screen.findByRole('button', { name: 'Download my data' }));

    await waitFor(() =>
      expect(clicked).toEqual([{ href: 'blob:export', download: 'dentflow-data-7.json' }]),
    );
    const exportCall = calls.find((call) => call.path === '/profile/export');
    expect(exportCall?.headers.authorization).toBe('Bearer access-1');
    expect(JSON.parse(await blobs[0]!.text())).toEqual(EXPORT);
    expect(await screen.findByText('Your data was downloaded.')).toBeInTheDocument();
  });

  it('shows a wrong password on the field, and after the right one logs out to /login', async () => {
    const { calls } = fakeApi();
    renderRoutes(routes, '/profile-settings');
    const user = userEvent.setup();
    await user.click(await screen.findByRole('button', { name: 'Delete my account' }));
    const dialog = await screen.findByRole('dialog', { name: 'Delete your account?' });
    expect(within(dialog).getByText(/cannot be undone/)).toBeInTheDocument();

    await user.click(within(dialog).getByRole('button', { name: 'Delete for good' }));
    expect(await within(dialog).findByText('Type your password to confirm.')).toBeInTheDocument();
    expect(calls.filter((call) => call.path === '/profile/delete')).toEqual([]);

    const password = within(dialog).getByLabelText(/Your password/);
    await user.type(password, 'Wrong-one1');
    await user.click(within(dialog).getByRole('button', { name: 'Delete for good' }));
    expect(await within(dialog).findByText('The current password is wrong.')).toBeInTheDocument();
    expect(getAccessToken()).toBe('access-1');

    await user.clear(password);
    await user.type(password, 'Dentflow123');
    await user.click(within(dialog).getByRole('button', { name: 'Delete for good' }));
    expect(await screen.findByText('login page')).toBeInTheDocument();
    expect(getAccessToken()).toBeNull();
    expect(
      calls.filter((call) => call.path === '/profile/delete').map((call) => call.body),
    ).toEqual([{ password: 'Wrong-one1' }, { password: 'Dentflow123' }]);
  });
});
