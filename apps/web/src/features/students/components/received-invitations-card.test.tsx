import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { formatDate } from '../../../lib/format-date';
import { applyLanguage } from '../../../lib/i18n';
import { fail, mockFetch, ok, type RecordedCall } from '../../../test/fetch-mock';
import { renderWithApp } from '../../../test/render';
import { instructorQueryOptions } from '../../profile/api/get-instructor';
import { studentsKeys } from '../api/students-api';
import { ReceivedInvitationsCard } from './received-invitations-card';

const invitation = {
  id: 42,
  instructorName: 'Dr. Paulo Reis',
  discount: 15,
  expiresAt: '2026-03-15T12:00:00.000Z',
};

const accepts = (calls: RecordedCall[]) =>
  calls.filter((c) => c.method === 'POST' && c.path.startsWith('/profile/invitations/'));

/** The server: the invitation is listed until it is accepted. */
function server() {
  let accepted = false;
  return mockFetch((call) => {
    if (call.path === '/profile/invitations') return ok(accepted ? [] : [invitation]);
    if (call.path === '/profile/invitations/42/accept') {
      accepted = true;
      return ok({ instructorId: 4, instructorDiscount: 15 });
    }
    return fail(404, 'NOT_FOUND', 'Not found');
  });
}

describe('invitations from instructors on the profile', () => {
  beforeEach(() => applyLanguage('en'));
  afterEach(() => vi.unstubAllGlobals());

  it('shows nothing when no invitation waits', async () => {
    mockFetch(() => ok([]));
    const { queryClient } = renderWithApp(<ReceivedInvitationsCard />);
    await waitFor(() =>
      expect(queryClient.getQueryState(studentsKeys.received)?.status).toBe('success'),
    );
    expect(screen.queryByRole('region', { name: 'Invitations from instructors' })).toBeNull();
    expect(screen.queryByRole('button', { name: /Accept/ })).toBeNull();
  });

  it('lists the instructor, discount and expiry, and accepts by id with a toast', async () => {
    const { calls } = server();
    const user = userEvent.setup();
    const { queryClient } = renderWithApp(<ReceivedInvitationsCard />);
    queryClient.setQueryData(instructorQueryOptions().queryKey, {
      instructor_id: null,
      instructor_discount: 0,
    });

    const card = await screen.findByRole('region', { name: 'Invitations from instructors' });
    expect(card).toHaveTextContent('Dr. Paulo Reis');
    expect(card).toHaveTextContent(
      `15% off in the shop · Valid until ${formatDate(invitation.expiresAt)}`,
    );

    await user.click(screen.getByRole('button', { name: 'Accept Dr. Paulo Reis' }));
    expect(await screen.findByText('You are now a student of Dr. Paulo Reis')).toBeInTheDocument();
    expect(accepts(calls)).toEqual([
      expect.objectContaining({ method: 'POST', path: '/profile/invitations/42/accept' }),
    ]);
    // The instructor the profile knows is stale now; the list is read again and is empty.
    expect(queryClient.getQueryState(instructorQueryOptions().queryKey)?.isInvalidated).toBe(true);
    await waitFor(() =>
      expect(screen.queryByRole('region', { name: 'Invitations from instructors' })).toBeNull(),
    );
    expect(calls.filter((c) => c.path === '/profile/invitations')).toHaveLength(2);
  });

  it('says when the instructor gives no discount', async () => {
    mockFetch(() => ok([{ ...invitation, discount: 0 }]));
    renderWithApp(<ReceivedInvitationsCard />);
    const card = await screen.findByRole('region', { name: 'Invitations from instructors' });
    expect(card).toHaveTextContent('No shop discount');
  });
});
