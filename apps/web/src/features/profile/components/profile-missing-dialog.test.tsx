import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { Button } from '@mantine/core';
import type { UserProfile } from '@dentflow/domain';
import { ApiError } from '../../../lib/api-client';
import { applyLanguage } from '../../../lib/i18n';
import { mockFetch, ok } from '../../../test/fetch-mock';
import { renderRoutes } from '../../../test/render';
import { profileQueryKey } from '../api/get-profile';
import { useProfileMissingDialog } from './profile-missing-dialog';

const noAddress = {
  id: 3,
  dataGeneral: {
    email: 'a@x.test',
    nickName: 'ana',
    displayName: 'Ana',
    fname: 'Ana',
    lname: 'Lima',
  },
  dataAddress: { zipCode: '', country: '', state: '', city: '', address: '', complement: '' },
} as unknown as UserProfile;

function Harness({ error, onSave }: { error: unknown; onSave?: boolean }) {
  const { catchRefusal, dialog } = useProfileMissingDialog({ onSave: onSave ?? false });
  return (
    <>
      <Button onClick={() => catchRefusal(error)}>Try</Button>
      {dialog}
    </>
  );
}

const incomplete = new ApiError('Complete your profile first', 'PROFILE_INCOMPLETE', 409);

describe("the 'Profile information missing' dialog", () => {
  beforeEach(() => applyLanguage('en'));
  afterEach(() => vi.unstubAllGlobals());

  it('opens on PROFILE_INCOMPLETE and sends the user to the tab missing data', async () => {
    mockFetch(() => ok(noAddress));
    const user = userEvent.setup();
    const { router, queryClient } = renderRoutes(
      [
        { path: '/', element: <Harness error={incomplete} /> },
        { path: '/profile-settings', element: <p>settings</p> },
      ],
      '/',
    );
    queryClient.setQueryData(profileQueryKey, noAddress);
    await user.click(screen.getByRole('button', { name: 'Try' }));
    const dialog = await screen.findByRole('dialog', { name: 'Profile information missing' });
    expect(dialog).toHaveTextContent('Complete your profile first');
    await user.click(within(dialog).getByRole('button', { name: 'Complete profile' }));
    expect(router.state.location.pathname).toBe('/profile-settings');
    expect(router.state.location.search).toBe('?tab=address');
  });

  it('opens for a refused profile save only when asked, and leaves other errors alone', async () => {
    mockFetch(() => ok(noAddress));
    const user = userEvent.setup();
    const refused = new ApiError(
      'Validation error, check required fields',
      'VALIDATION_ERROR',
      400,
    );
    renderRoutes([{ path: '/', element: <Harness error={refused} onSave /> }], '/');
    await user.click(screen.getByRole('button', { name: 'Try' }));
    const dialog = await screen.findByRole('dialog', { name: 'Profile information missing' });
    expect(dialog).toHaveTextContent('Validation error, check required fields');
    expect(within(dialog).queryByRole('button', { name: 'Complete profile' })).toBeNull();
  });

  it('does not open for another error', async () => {
    mockFetch(() => ok(noAddress));
    const user = userEvent.setup();
    const other = new ApiError('Not found', 'NOT_FOUND', 404);
    renderRoutes([{ path: '/', element: <Harness error={other} onSave /> }], '/');
    await user.click(screen.getByRole('button', { name: 'Try' }));
    expect(screen.queryByRole('dialog')).toBeNull();
  });
});
