import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { PartnerLink, UserPick } from '@dentflow/domain';
import { applyLanguage } from '../../../lib/i18n';
import { fail, mockFetch, ok } from '../../../test/fetch-mock';
import { completeProfile } from '../../../test/profiles';
import { renderRoutes } from '../../../test/render';
import { PartnersPage } from './partners-page';

const routes = [
  { path: '/partners', element: <PartnersPage /> },
  { path: '/error/not-authorized', element: <p>not authorized</p> },
];

const LINKS: PartnerLink[] = [
  {
    id: 7,
    clinic: { id: 10, displayName: 'Clínica Sorriso', email: 'sorriso@clinic.test' },
    partner: { id: 20, displayName: 'RadioLab', email: 'radio@lab.test' },
    createdAt: '2026-01-01T00:00:00.000Z',
  },
];

const PICKS: UserPick[] = [
  {
    id: 11,
    displayName: 'Clínica Nova',
    nickName: 'nova',
    email: 'nova@clinic.test',
    roles: ['clinic'],
  },
  {
    id: 12,
    displayName: 'Novo Doutor',
    nickName: 'novod',
    email: 'novod@x.test',
    roles: ['doctor'],
  },
  {
    id: 21,
    displayName: 'Nova Radiologia',
    nickName: 'novar',
    email: 'r@lab.test',
    roles: ['partner'],
  },
];

function fakeApi(roles: string[]) {
  return mockFetch((call) => {
    if (call.path === '/profile/get') return ok(completeProfile({ roles: [...roles, 'public'] }));
    if (call.path === '/partners') return ok(LINKS);
    if (call.path.startsWith('/users/query_user/name/')) return ok(PICKS);
    if (call.path === '/partners/link') {
      const body = call.body as { clinicId: number; partnerId: number };
      return ok({
        id: 8,
        clinic: { id: body.clinicId, displayName: 'Clínica Nova', email: 'nova@clinic.test' },
        partner: { id: body.partnerId, displayName: 'Nova Radiologia', email: 'r@lab.test' },
        createdAt: '2026-01-02T00:00:00.000Z',
      });
    }
    if (call.path.startsWith('/partners/link/')) return ok({ id: 7 });
    return fail(404, 'NOT_FOUND', 'Not found');
  });
}

describe('partners screen', { timeout: 60_000 }, () => {
  beforeEach(() => applyLanguage('en'));
  afterEach(() => vi.unstubAllGlobals());

  it('sends a doctor to the not-authorized page without asking for links', async () => {
    const { calls } = fakeApi(['doctor']);
    renderRoutes(routes, '/partners');
    expect(await screen.findByText('not authorized')).toBeInTheDocument();
    expect(calls.filter((c) => c.path === '/partners')).toEqual([]);
  });

  it('shows a clinic its linked partners, without link management', async () => {
    fakeApi(['clinic']);
    renderRoutes(routes, '/partners');
    expect(await screen.findByText('RadioLab')).toBeInTheDocument();
    expect(screen.getByText('radio@lab.test')).toBeInTheDocument();
    expect(screen.queryByText('Clínica Sorriso')).not.toBeInTheDocument();
    expect(screen.queryByRole('button', { name: /Unlink/ })).not.toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Link' })).not.toBeInTheDocument();
  });

  it('lets an admin link a clinic and a partner picked by name, and unlink after confirming', async () => {
    const user = userEvent.setup();
    const { calls } = fakeApi(['admin']);
    renderRoutes(routes, '/partners');
    expect(await screen.findByText('Clínica Sorriso')).toBeInTheDocument();

    const clinicPicker = screen.getByRole('combobox', { name: /^Clinic/ });
    await user.type(clinicPicker, 'Nov');
    // Only users with the clinic role are offered.
    await user.click(await screen.findByRole('option', { name: /Clínica Nova/, hidden: true }));
    expect(screen.queryByRole('option', { name: /Novo Doutor/, hidden: true })).toBeNull();
    await user.type(screen.getByRole('combobox', { name: /^Partner/ }), 'Nov');
    await user.click(await screen.findByRole('option', { name: /Nova Radiologia/, hidden: true }));
    await user.click(screen.getByRole('button', { name: 'Link' }));
    await waitFor(() =>
      expect(calls.filter((c) => c.path === '/partners/link').map((c) => c.body)).toEqual([
        { clinicId: 11, partnerId: 21 },
      ]),
    );

    await user.click(screen.getByRole('button', { name: 'Unlink RadioLab from Clínica Sorriso' }));
    const dialog = await screen.findByRole('dialog', { name: 'Remove this link?' });
    await user.click(within(dialog).getByRole('button', { name: 'Unlink' }));
    await waitFor(() =>
      expect(calls.filter((c) => c.method === 'DELETE').map((c) => c.path)).toEqual([
        '/partners/link/7',
      ]),
    );
  });
});
