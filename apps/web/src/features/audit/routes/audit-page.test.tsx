import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { applyLanguage } from '../../../lib/i18n';
import { fail, mockFetch, ok, type RecordedCall } from '../../../test/fetch-mock';
import { completeProfile } from '../../../test/profiles';
import { findDateField } from '../../../test/date-field';
import { renderRoutes } from '../../../test/render';
import type { AuditItem } from '@dentflow/domain';
import { AuditPage } from './audit-page';

const routes = [
  { path: '/audit', element: <AuditPage /> },
  { path: '/error/not-authorized', element: <p>not authorized</p> },
];

const adminProfile = () => completeProfile({ roles: ['admin', 'public'] });

const row = (id: number, overrides: Partial<AuditItem> = {}): AuditItem => ({
  id,
  at: '2026-03-04T12:00:00.000Z',
  actorUserId: 1,
  actorName: 'Admin Demo',
  action: 'user.set',
  entity: 'user',
  entityId: String(100 + id),
  details: { changed: ['internal'], before: { internal: false }, after: { internal: true } },
  ip: '10.0.0.1',
  ...overrides,
});

function fakeApi(items: AuditItem[], profile = adminProfile()) {
  return mockFetch((call) => {
    if (call.path === '/profile/get') return ok(profile);
    if (call.path.startsWith('/audit?')) {
      const page = Number(new URLSearchParams(call.path.split('?')[1]).get('page'));
      return ok({
        items: items.slice(page * 20, page * 20 + 20),
        total: items.length,
        page,
        pageSize: 20,
      });
    }
    if (call.path === '/users/query_user/name/Mar') {
      return ok([
        {
          id: 42,
          displayName: 'Maria Souza',
          nickName: 'maria',
          email: 'm@x.test',
          roles: ['doctor'],
        },
      ]);
    }
    return fail(404, 'NOT_FOUND', 'Not found');
  });
}

const searches = (calls: RecordedCall[]) =>
  calls
    .filter((call) => call.path.startsWith('/audit?'))
    .map((call) => new URLSearchParams(call.path.split('?')[1]));

describe('audit log screen', { timeout: 60_000 }, () => {
  beforeEach(() => applyLanguage('en'));
  afterEach(() => vi.unstubAllGlobals());

  it('sends a non-admin to the not-authorized page, asking nothing', async () => {
    const { calls } = fakeApi([row(1)], completeProfile({ roles: ['supervisor', 'public'] }));
    renderRoutes(routes, '/audit');
    expect(await screen.findByText('not authorized')).toBeInTheDocument();
    expect(searches(calls)).toEqual([]);
  });

  it('lists rows with actor, action and record, and expands the details as JSON', async () => {
    fakeApi([
      row(2),
      row(1, {
        actorUserId: null,
        actorName: null,
        action: 'payment.change',
        entity: 'transaction',
        entityId: '9',
      }),
    ]);
    renderRoutes(routes, '/audit');
    const table = await screen.findByRole('table');
    const rows = within(table).getAllByRole('row');
    expect(rows).toHaveLength(3);
    expect(within(rows[1]!).getByText('Admin Demo')).toBeInTheDocument();
    expect(within(rows[1]!).getByText('user.set')).toBeInTheDocument();
    expect(within(rows[1]!).getByText('user #102')).toBeInTheDocument();
    expect(within(rows[2]!).getByText('System')).toBeInTheDocument();
    expect(within(rows[2]!).getByText('transaction #9')).toBeInTheDocument();
    expect(screen.getByText('Rows: 2')).toBeInTheDocument();

    const user = userEvent.setup();
    await user.click(within(rows[1]!).getByRole('button', { name: 'Show' }));
    const details = await screen.findByTestId('audit-details-2');
    expect(JSON.parse(details.textContent ?? '')).toEqual(row(2).details);
    expect(screen.getByText('From address 10.0.0.1')).toBeInTheDocument();
    await user.click(within(rows[1]!).getByRole('button', { name: 'Hide' }));
    expect(screen.queryByTestId('audit-details-2')).toBeNull();
  });

  it('searches by picked user, entity, record id and dates, and pages', async () => {
    const { calls } = fakeApi(Array.from({ length: 45 }, (_, n) => row(45 - n)));
    const { router } = renderRoutes(routes, '/audit');
    const user = userEvent.setup();
    await screen.findByRole('table');
    expect(searches(calls).at(-1)?.toString()).toBe('page=0');

    await user.type(screen.getByLabelText('User', { selector: 'input' }), 'Mar');
    await user.click(
      await screen.findByRole('option', { name: 'Maria Souza (#42)', hidden: true }),
    );
    await waitFor(() => expect(searches(calls).at(-1)?.get('actor')).toBe('42'));

    await user.type(screen.getByLabelText('Record id'), '142');
    await user.type(screen.getByLabelText('Entity', { selector: 'input' }), 'user');
    await waitFor(() => {
      const last = searches(calls).at(-1)!;
      expect(last.get('entityId')).toBe('142');
      expect(last.get('entity')).toBe('user');
    });

    await user.type(await findDateField('From'), '03/01/2026');
    await user.type(await findDateField('To'), '03/04/2026');
    await waitFor(() => {
      const last = searches(calls).at(-1)!;
      expect(last.get('from')).toBe(new Date(2026, 2, 1).toISOString());
      // The whole last day: up to the start of the next one.
      expect(last.get('to')).toBe(new Date(2026, 2, 5).toISOString());
      expect(last.get('actor')).toBe('42');
    });

    await user.click(screen.getByRole('button', { name: 'Clear filters' }));
    // The unfiltered first page is still cached: the screen shows it again without asking.
    await waitFor(() => expect(router.state.location.search).toBe(''));
    expect(await screen.findByText('Rows: 45')).toBeInTheDocument();
    expect(screen.getByLabelText('Record id')).toHaveValue('');
    await user.click(await screen.findByRole('button', { name: 'Page 3' }));
    await waitFor(() => expect(searches(calls).at(-1)?.get('page')).toBe('2'));
    expect(await screen.findAllByRole('row')).toHaveLength(6);
  });

  it('types a plain user id as the actor', async () => {
    const { calls } = fakeApi([row(1)]);
    renderRoutes(routes, '/audit');
    const user = userEvent.setup();
    await screen.findByRole('table');
    await user.type(screen.getByLabelText('User', { selector: 'input' }), '77');
    await user.click(await screen.findByRole('option', { name: 'User #77', hidden: true }));
    await waitFor(() => expect(searches(calls).at(-1)?.get('actor')).toBe('77'));
  });
});
