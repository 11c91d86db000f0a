import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { UserProfile } from '@dentflow/domain';
import { applyLanguage } from '../../../lib/i18n';
import { fail, mockFetch, ok } from '../../../test/fetch-mock';
import { renderWithApp } from '../../../test/render';
import { ConnectionsTab } from './connections-tab';

const ME = 7;
const profile = { id: ME } as UserProfile;
const instructor = { id: 4, displayName: 'Dr. Paulo Reis', email: 'paulo@x.test', discount: 15 };
const links = [
  {
    id: 1,
    clinic: { id: ME, displayName: 'Clínica Sorriso', email: 'c@x.test' },
    partner: { id: 9, displayName: 'Radiologia Centro', email: 'r@x.test' },
    createdAt: '2026-01-01T00:00:00.000Z',
  },
];

/** The server: the instructor stays until the user leaves. */
function server() {
  let linked = true;
  return mockFetch((call) => {
    if (call.path === '/profile/instructor') return ok(linked ? instructor : null);
    if (call.path === '/profile/leaveInstructor' && call.method === 'POST') {
      linked = false;
      return ok({ left: true });
    }
    if (call.path === '/profile/invitations') return ok([]);
    if (call.path === '/profile/partnerLinks') return ok(links);
    return fail(404, 'NOT_FOUND', 'Not found');
  });
}

describe('the Connections tab', () => {
  beforeEach(() => applyLanguage('en'));
  afterEach(() => vi.unstubAllGlobals());

  it("shows the instructor's discount and the other side of each partner link", async () => {
    server();
    renderWithApp(<ConnectionsTab profile={profile} />);
    const card = await screen.findByRole('region', { name: 'Your instructor' });
    expect(await within(card).findByText('Dr. Paulo Reis')).toBeInTheDocument();
    expect(card).toHaveTextContent('You get 15% off in the shop through this instructor.');
    const partners = screen.getByRole('region', { name: 'Clinic–partner links' });
    expect(await within(partners).findByText('Radiologia Centro')).toBeInTheDocument();
    expect(partners).toHaveTextContent('Partner of your clinic');
  });

  it('leaves the instructor only after confirming', async () => {
    const { calls } = server();
    const user = userEvent.setup();
    renderWithApp(<ConnectionsTab profile={profile} />);
    const card = await screen.findByRole('region', { name: 'Your instructor' });
    await user.click(await within(card).findByRole('button', { name: 'Leave instructor' }));
    const dialog = await screen.findByRole('dialog', { name: 'Leave instructor' });
    expect(dialog).toHaveTextContent('Stop being a student of Dr. Paulo Reis?');
    expect(calls.some((c) => c.path === '/profile/leaveInstructor')).toBe(false);
    await user.click(within(dialog).getByRole('button', { name: 'Leave instructor' }));
    expect(await screen.findByText('You are no longer linked to an instructor.')).toBeVisible();
    await waitFor(() => expect(card).toHaveTextContent('You are not linked to an instructor.'));
    const leaves = calls.filter((c) => c.path === '/profile/leaveInstructor');
    expect(leaves.map((c) => c.body)).toEqual([{ instructorId: 4 }]);
  });
});
