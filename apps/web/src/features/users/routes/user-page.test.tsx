import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { configure, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { AdminUser } from '@dentflow/domain';
import { applyLanguage } from '../../../lib/i18n';
import { fail, mockFetch, ok, type RecordedCall } from '../../../test/fetch-mock';
import { completeProfile } from '../../../test/profiles';
import { renderRoutes } from '../../../test/render';
import { UserPage } from './user-page';

const routes = [
  { path: '/users/:id', element: <UserPage /> },
  { path: '/users', element: <p>users list</p> },
  { path: '/error/not-authorized', element: <p>not authorized</p> },
];

const admin = () => completeProfile({ id: 1, roles: ['admin'] });
const supervisor = () => completeProfile({ id: 2, roles: ['supervisor'] });

function adminUser(overrides: Partial<AdminUser> = {}): AdminUser {
  const profile = completeProfile({
    id: 42,
    verified_at: null,
    dataGeneral: {
      displayName: 'Bruno Lima',
      fname: 'Bruno',
      lname: 'Lima',
      nickName: 'brunolima',
      email: 'bruno@example.com',
      avatar: 'https://example.com/a.webp',
    },
  });
  return { ...profile, canEdit: true, canDelete: true, ...overrides };
}

interface FakeApi {
  profile?: ReturnType<typeof completeProfile>;
  user?: AdminUser;
  onSet?: (call: RecordedCall) => Response;
}

/** The users admin API as the detail page calls it; a save answers the user with the body applied. */
function fakeApi({ profile = admin(), user = adminUser(), onSet }: FakeApi = {}) {
  let current = user;
  return mockFetch((call) => {
    if (call.path === '/profile/get') return ok(profile);
    if (call.path === `/users/get/${user.id}`) return ok(current);
    if (call.path === '/users/instructor/list') {
      return ok([{ id: 9, displayName: 'Prof. Carla', instructorDiscount: 10 }]);
    }
    if (call.path === `/users/${user.id}/set`) {
      if (onSet) return onSet(call);
      const body = call.body as { roles?: string[] };
      current = {
        ...current,
        ...(body.roles ? { roles: body.roles } : {}),
        modifiedAt: '2026-02-01T00:00:00.000Z',
      };
      return ok(current);
    }
    if (call.path === `/users/delete/${user.id}`) return ok({ deleted: true });
    if (call.path === `/users/setPassword/${user.id}`) return ok({ updated: true });
    if (call.path === `/users/resendEmail/${user.id}`) return ok({ sent: true });
    if (call.path === `/users/${user.id}/avatar`) return ok({ avatar: null });
    return fail(404, 'NOT_FOUND', 'Not found');
  });
}

const callsTo = (calls: RecordedCall[], path: string) => calls.filter((c) => c.path === path);

// Finds wait longer than the default second: the page waits for the profile, then its data.
configure({ asyncUtilTimeout: 5000 });

describe('user detail', { timeout: 60_000 }, () => {
  beforeEach(() => applyLanguage('en'));
  afterEach(() => vi.unstubAllGlobals());

  it('sends a doctor to the not-authorized page, asking nothing', async () => {
    const { calls } = fakeApi({ profile: completeProfile() });
    renderRoutes(routes, '/users/42');
    expect(await screen.findByText('not authorized')).toBeInTheDocument();
    expect(callsTo(calls, '/users/get/42')).toEqual([]);
  });

  it('roles editor sends only the roles when only a role changed', async () => {
    const { calls } = fakeApi();
    renderRoutes(routes, '/users/42');
    const user = userEvent.setup({ delay: null });
    const editor = await screen.findByTestId('user-access-editor');
    const save = within(editor).getByRole('button', { name: 'Save roles and capabilities' });
    expect(save).toBeDisabled();
    await user.click(within(editor).getByRole('checkbox', { name: 'Planner' }));
    await user.click(save);
    await waitFor(() => expect(callsTo(calls, '/users/42/set')).toHaveLength(1));
    expect(callsTo(calls, '/users/42/set')[0]!.body).toEqual({ roles: ['planner', 'doctor'] });
    expect(await screen.findByText('User saved.')).toBeInTheDocument();
    // The saved roles are the new starting point: nothing left to save.
    await waitFor(() =>
      expect(
        within(screen.getByTestId('user-access-editor')).getByRole('button', {
          name: 'Save roles and capabilities',
        }),
      ).toBeDisabled(),
    );
  });

  it('sends only the changed capability with the internal flag', async () => {
    const { calls } = fakeApi();
    renderRoutes(routes, '/users/42');
    const user = userEvent.setup({ delay: null });
    const editor = await screen.findByTestId('user-access-editor');
    await user.click(within(editor).getByRole('switch', { name: /Internal user/ }));
    await user.click(within(editor).getByRole('switch', { name: 'Clinic partner' }));
    await user.click(within(editor).getByRole('button', { name: 'Save roles and capabilities' }));
    await waitFor(() => expect(callsTo(calls, '/users/42/set')).toHaveLength(1));
    expect(callsTo(calls, '/users/42/set')[0]!.body).toEqual({
      internal: true,
      dataCapabilities: { clinicPartner: true },
    });
  });

  it('shows the self-lockout refusal when an admin removes their own admin role', async () => {
    const me = adminUser({ id: 1, roles: ['admin'], canDelete: false });
    fakeApi({
      user: me,
      onSet: () => fail(409, 'SELF_LOCKOUT', 'You cannot remove your own administrator role.'),
    });
    renderRoutes(routes, '/users/1');
    const user = userEvent.setup({ delay: null });
    const editor = await screen.findByTestId('user-access-editor');
    await user.click(within(editor).getByRole('checkbox', { name: 'Administrator' }));
    await user.click(within(editor).getByRole('checkbox', { name: 'Supervisor' }));
    await user.click(within(editor).getByRole('button', { name: 'Save roles and capabilities' }));
    const refusal = await screen.findByTestId('user-access-error');
    expect(refusal).toHaveTextContent('You cannot remove your own administrator role.');
    // The admin keeps the edit to correct it; nothing pretends to have been saved.
    expect(within(editor).getByRole('checkbox', { name: 'Administrator' })).not.toBeChecked();
    expect(screen.queryByText('User saved.')).not.toBeInTheDocument();
    // No delete for oneself.
    expect(screen.queryByTestId('user-delete')).not.toBeInTheDocument();
  });

  it('refuses to save an access edit without any role', async () => {
    const { calls } = fakeApi();
    renderRoutes(routes, '/users/42');
    const user = userEvent.setup({ delay: null });
    const editor = await screen.findByTestId('user-access-editor');
    await user.click(within(editor).getByRole('checkbox', { name: 'Doctor' }));
    await user.click(within(editor).getByRole('button', { name: 'Save roles and capabilities' }));
    expect(await within(editor).findByText('Choose at least one role')).toBeInTheDocument();
    expect(callsTo(calls, '/users/42/set')).toEqual([]);
  });

  it('shows a supervisor every section read only, with no edit controls', async () => {
    const { calls } = fakeApi({
      profile: supervisor(),
      user: adminUser({
        canEdit: false,
        canDelete: false,
        roles: ['doctor', 'planner'],
        dataCapabilities: { ...completeProfile().dataCapabilities, instructorId: 9 },
      }),
    });
    renderRoutes(routes, '/users/42');
    expect(await screen.findByTestId('user-read-only')).toBeInTheDocument();
    expect(screen.getByRole('heading', { name: 'Bruno Lima' })).toBeInTheDocument();
    const access = screen.getByTestId('user-section-access');
    expect(within(access).getByText('Planner')).toBeInTheDocument();
    expect(await within(access).findByText('Prof. Carla')).toBeInTheDocument();
    expect(within(screen.getByTestId('user-section-address')).getByText('São Paulo')).toBeVisible();
    expect(within(screen.getByTestId('user-section-general')).getByText('brunolima')).toBeVisible();
    expect(screen.queryByRole('checkbox')).not.toBeInTheDocument();
    expect(screen.queryByRole('switch')).not.toBeInTheDocument();
    expect(screen.queryByRole('textbox')).not.toBeInTheDocument();
    expect(screen.queryByRole('button')).not.toBeInTheDocument();
    expect(screen.queryByTestId('user-account-actions')).not.toBeInTheDocument();
    expect(calls.filter((c) => c.method !== 'GET')).toEqual([]);
  });

  it('deletes only after the admin types the email, then goes back to the list', async () => {
    const { calls } = fakeApi();
    renderRoutes(routes, '/users/42');
    const user = userEvent.setup({ delay: null });
    await user.click(await screen.findByTestId('user-delete'));
    const dialog = await screen.findByRole('dialog', { name: 'Delete user' });
    const confirm = within(dialog).getByRole('button', { name: 'Delete user' });
    expect(confirm).toBeDisabled();
    await user.type(within(dialog).getByRole('textbox'), 'bruno@example');
    expect(confirm).toBeDisabled();
    await user.click(confirm);
    expect(callsTo(calls, '/users/delete/42')).toEqual([]);
    await user.type(within(dialog).getByRole('textbox'), '.com');
    expect(confirm).toBeEnabled();
    await user.click(confirm);
    expect(await screen.findByText('users list')).toBeInTheDocument();
    expect(callsTo(calls, '/users/delete/42')).toHaveLength(1);
    expect(callsTo(calls, '/users/delete/42')[0]!.method).toBe('DELETE');
    expect(await screen.findByText('User bruno@example.com deleted.')).toBeInTheDocument();
  });

  it('sets a password only when both fields agree and have 8 characters', async () => {
    const { calls } = fakeApi();
    renderRoutes(routes, '/users/42');
    const user = userEvent.setup({ delay: null });
    await user.click(await screen.findByTestId('user-set-password'));
    const dialog = await screen.findByRole('dialog', { name: 'Set a new password' });
    await user.type(within(dialog).getByLabelText(/^New password/), 'short');
    await user.click(within(dialog).getByRole('button', { name: 'Set password' }));
    expect(await within(dialog).findByText('At least 8 characters')).toBeInTheDocument();
    await user.clear(within(dialog).getByLabelText(/^New password/));
    await user.type(within(dialog).getByLabelText(/^New password/), 'long enough');
    await user.type(within(dialog).getByLabelText(/^Confirm the new password/), 'long enougH');
    await user.click(within(dialog).getByRole('button', { name: 'Set password' }));
    expect(await within(dialog).findByText('The passwords do not match')).toBeInTheDocument();
    expect(callsTo(calls, '/users/setPassword/42')).toEqual([]);
    await user.clear(within(dialog).getByLabelText(/^Confirm the new password/));
    await user.type(within(dialog).getByLabelText(/^Confirm the new password/), 'long enough');
    await user.click(within(dialog).getByRole('button', { name: 'Set password' }));
    await waitFor(() => expect(callsTo(calls, '/users/setPassword/42')).toHaveLength(1));
    expect(callsTo(calls, '/users/setPassword/42')[0]!.body).toEqual({ password: 'long enough' });
  });

  it('resends the verification mail and removes the avatar after a confirm', async () => {
    const { calls } = fakeApi();
    renderRoutes(routes, '/users/42');
    const user = userEvent.setup({ delay: null });
    await user.click(await screen.findByTestId('user-resend-verification'));
    expect(
      await screen.findByText('Verification email sent to bruno@example.com.'),
    ).toBeInTheDocument();
    expect(callsTo(calls, '/users/resendEmail/42')).toHaveLength(1);

    await user.click(screen.getByTestId('user-remove-avatar'));
    const dialog = await screen.findByRole('dialog', { name: 'Remove avatar' });
    expect(callsTo(calls, '/users/42/avatar')).toEqual([]);
    await user.click(within(dialog).getByRole('button', { name: 'Remove avatar' }));
    await waitFor(() => expect(screen.queryByTestId('user-remove-avatar')).not.toBeInTheDocument());
    expect(callsTo(calls, '/users/42/avatar')[0]!.method).toBe('DELETE');
  });

  it('offers no verification mail for a verified user', async () => {
    fakeApi({ user: adminUser({ verified_at: '2026-01-02T00:00:00.000Z' }) });
    renderRoutes(routes, '/users/42');
    expect(await screen.findByTestId('user-set-password')).toBeInTheDocument();
    expect(screen.queryByTestId('user-resend-verification')).not.toBeInTheDocument();
  });
});
