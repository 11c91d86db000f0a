import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { applyLanguage } from '../../../lib/i18n';
import { fail, mockFetch, ok } from '../../../test/fetch-mock';
import { completeProfile } from '../../../test/profiles';
import { renderRoutes } from '../../../test/render';
import type { PendingInvitation, StudentsOverview } from '../api/students-api';
import { StudentsPage } from './students-page';

const routes = [
  { path: '/students', element: <StudentsPage /> },
  { path: '/error/not-authorized', element: <p>not authorized</p> },
];

const instructorProfile = () => completeProfile({ roles: ['instructor', 'public'] });

const invitation = (overrides: Partial<PendingInvitation> = {}): PendingInvitation => ({
  id: 31,
  email: 'bia@clinic.example',
  language: 'es',
  createdAt: '2026-01-01T00:00:00.000Z',
  expiresAt: '2026-01-15T00:00:00.000Z',
  expired: false,
  ...overrides,
});

function fakeApi(profile = instructorProfile()) {
  let overview: StudentsOverview = {
    students: [{ id: 5, displayName: 'Carla Dias', email: 'carla@clinic.example', casesCount: 3 }],
    invitations: [invitation(), invitation({ id: 32, email: 'old@clinic.example', expired: true })],
  };
  return mockFetch((call) => {
    if (call.path === '/profile/get') return ok(profile);
    if (call.path === '/students') return ok(overview);
    const resend = /^\/students\/invitations\/(\d+)\/resend$/.exec(call.path);
    if (resend && call.method === 'POST') return ok(invitation({ id: Number(resend[1]) }));
    const revoke = /^\/students\/invitations\/(\d+)$/.exec(call.path);
    if (revoke && call.method === 'DELETE') {
      const id = Number(revoke[1]);
      overview = { ...overview, invitations: overview.invitations.filter((i) => i.id !== id) };
      return ok({ id });
    }
    return fail(404, 'NOT_FOUND', 'Not found');
  });
}

describe('students page', { timeout: 30_000 }, () => {
  beforeEach(() => applyLanguage('en'));
  afterEach(() => vi.unstubAllGlobals());

  it('sends a user who is not an instructor to the not-authorized page, asking nothing', async () => {
    const { calls } = fakeApi(completeProfile());
    renderRoutes(routes, '/students');
    expect(await screen.findByText('not authorized')).toBeInTheDocument();
    expect(calls.filter((c) => c.path === '/students')).toEqual([]);
  });

  it('lists the students with their cases and the pending invitations', async () => {
    fakeApi();
    renderRoutes(routes, '/students');
    const students = await screen.findByRole('table', { name: 'Students' });
    const row = within(students).getByText('Carla Dias').closest('tr')!;
    expect(within(row).getByText('carla@clinic.example')).toBeInTheDocument();
    expect(within(row).getByText('3')).toBeInTheDocument();
    const pending = screen.getByRole('table', { name: 'Pending invitations' });
    expect(within(pending).getByText('bia@clinic.example')).toBeInTheDocument();
    const expired = within(pending).getByText('old@clinic.example').closest('tr')!;
    expect(within(expired).getByText('Expired')).toBeInTheDocument();
  });

  it('resends at once and revokes only after the confirm', async () => {
    const { calls } = fakeApi();
    const user = userEvent.setup();
    renderRoutes(routes, '/students');

    await user.click(await screen.findByRole('button', { name: 'Resend bia@clinic.example' }));
    await waitFor(() =>
      expect(
        calls.some((c) => c.method === 'POST' && c.path === '/students/invitations/31/resend'),
      ).toBe(true),
    );
    expect(
      await screen.findByText('Invitation sent again to bia@clinic.example'),
    ).toBeInTheDocument();

    await user.click(screen.getByRole('button', { name: 'Revoke bia@clinic.example' }));
    const dialog = await screen.findByRole('dialog', { name: 'Revoke the invitation?' });
    expect(calls.filter((c) => c.method === 'DELETE')).toEqual([]);
    await user.click(within(dialog).getByRole('button', { name: 'Revoke' }));
    await waitFor(() =>
      expect(calls.filter((c) => c.method === 'DELETE').map((c) => c.path)).toEqual([
        '/students/invitations/31',
      ]),
    );
    await waitFor(() => expect(screen.queryByText('bia@clinic.example')).not.toBeInTheDocument());
  });
});
