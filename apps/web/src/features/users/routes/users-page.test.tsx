import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { configure, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { UserRow } from '@dentflow/domain';
import { applyLanguage } from '../../../lib/i18n';
import { fail, mockFetch, ok, type RecordedCall } from '../../../test/fetch-mock';
import { completeProfile } from '../../../test/profiles';
import { renderRoutes } from '../../../test/render';
import { UsersPage } from './users-page';

const routes = [
  { path: '/users', element: <UsersPage /> },
  { path: '/users/:id', element: <p>user detail</p> },
  { path: '/error/not-authorized', element: <p>not authorized</p> },
];

function row(overrides: Partial<UserRow> = {}): UserRow {
  return {
    id: 42,
    displayName: 'Bruno Lima',
    email: 'bruno@example.com',
    nickName: 'brunolima',
    roles: ['doctor', 'planner'],
    internal: false,
    verified: true,
    avatar: null,
    createdAt: '2026-01-01T00:00:00.000Z',
    ...overrides,
  };
}

function fakeApi({
  items = [row()],
  profile = completeProfile({ roles: ['supervisor'] }),
  list,
}: {
  items?: UserRow[];
  profile?: ReturnType<typeof completeProfile>;
  list?: () => Response;
} = {}) {
  return mockFetch((call) => {
    if (call.path === '/profile/get') return ok(profile);
    if (call.path.startsWith('/users/list/')) {
      if (list) return list();
      const page = Number(/\/list\/(\d+)/.exec(call.path)?.[1] ?? 0);
      return ok({
        items: items.slice(page * 20, page * 20 + 20),
        total: items.length,
        page,
        pageSize: 20,
      });
    }
    return fail(404, 'NOT_FOUND', 'Not found');
  });
}

const lists = (calls: RecordedCall[]) => calls.filter((c) => c.path.startsWith('/users/list/'));

// Finds wait longer than the default second: the page waits for the profile, then its data.
configure({ asyncUtilTimeout: 5000 });

describe('users administration list', { timeout: 60_000 }, () => {
  beforeEach(() => applyLanguage('en'));
  afterEach(() => vi.unstubAllGlobals());

  it('sends a doctor to the not-authorized page, asking nothing', async () => {
    const { calls } = fakeApi({ profile: completeProfile() });
    renderRoutes(routes, '/users');
    expect(await screen.findByText('not authorized')).toBeInTheDocument();
    expect(lists(calls)).toEqual([]);
  });

  it('shows a supervisor the users with roles, verified and internal, linked to the detail', async () => {
    // A wide screen: every min-width media query matches.
    vi.stubGlobal('matchMedia', (query: string) => ({
      matches: true,
      media: query,
      onchange: null,
      addListener: vi.fn(),
      removeListener: vi.fn(),
      addEventListener: vi.fn(),
      removeEventListener: vi.fn(),
      dispatchEvent: vi.fn(),
    }));
    fakeApi({
      items: [
        row(),
        row({ id: 43, displayName: 'Carla', verified: false, internal: true, roles: ['admin'] }),
      ],
    });
    renderRoutes(routes, '/users');
    const table = await screen.findByRole('table');
    const rows = within(table).getAllByRole('row');
    expect(rows).toHaveLength(3);
    expect(within(rows[1]!).getByText('bruno@example.com')).toBeInTheDocument();
    expect(within(rows[1]!).getByText('brunolima')).toBeInTheDocument();
    expect(within(rows[1]!).getByText('Planner')).toBeInTheDocument();
    expect(within(rows[1]!).getByText('Doctor')).toBeInTheDocument();
    expect(within(rows[1]!).getByText('Verified')).toBeInTheDocument();
    expect(within(rows[2]!).getByText('Not verified')).toBeInTheDocument();
    expect(within(rows[2]!).getByText('Internal')).toBeInTheDocument();
    expect(within(rows[2]!).getByText('Administrator')).toBeInTheDocument();
    expect(screen.getByText('Users: 2')).toBeInTheDocument();
    await userEvent.click(within(rows[1]!).getByRole('link', { name: 'Bruno Lima' }));
    expect(await screen.findByText('user detail')).toBeInTheDocument();
  });

  it('shows cards on a phone', async () => {
    fakeApi({ items: [row({ internal: true })] });
    renderRoutes(routes, '/users');
    const card = await screen.findByTestId('user-row-42');
    expect(screen.queryByRole('table')).not.toBeInTheDocument();
    expect(within(card).getByRole('link', { name: 'Bruno Lima' })).toHaveAttribute(
      'href',
      '/users/42',
    );
    expect(within(card).getByText('@brunolima')).toBeInTheDocument();
    expect(within(card).getByText('Internal')).toBeInTheDocument();
  });

  it('filters by role and verified, and searches once typing pauses', async () => {
    const { calls } = fakeApi({ items: [] });
    renderRoutes(routes, '/users?page=0');
    const user = userEvent.setup({ delay: null });
    expect(await screen.findByText('No users yet')).toBeInTheDocument();
    expect(lists(calls).at(-1)?.path).toBe('/users/list/0');

    await user.click(screen.getByRole('combobox', { name: 'Role' }));
    await user.click(await screen.findByRole('option', { name: 'Planner', hidden: true }));
    await waitFor(() => expect(lists(calls).at(-1)?.path).toBe('/users/list/0?role=planner'));

    const verified = screen.getByRole('combobox', { name: 'Verified' });
    await user.click(verified);
    await waitFor(() => expect(verified).toHaveAttribute('aria-controls'));
    const verifiedOptions = document.getElementById(verified.getAttribute('aria-controls')!)!;
    await user.click(within(verifiedOptions).getByRole('option', { name: 'No', hidden: true }));
    await waitFor(() =>
      expect(lists(calls).at(-1)?.path).toBe('/users/list/0?role=planner&verified=false'),
    );

    const before = lists(calls).length;
    await user.type(screen.getByRole('searchbox', { name: 'Search users' }), 'joão');
    await waitFor(() =>
      expect(lists(calls).at(-1)?.path).toBe(
        '/users/list/0?role=planner&verified=false&q=jo%C3%A3o',
      ),
    );
    // One request for the whole word, not one per key.
    expect(lists(calls)).toHaveLength(before + 1);
    expect(await screen.findByText('No user matches')).toBeInTheDocument();
  });

  it('pages through the list', async () => {
    const items = Array.from({ length: 25 }, (_, n) =>
      row({ id: n + 1, displayName: `User ${n + 1}`, email: `u${n + 1}@example.com` }),
    );
    const { calls } = fakeApi({ items });
    renderRoutes(routes, '/users');
    const user = userEvent.setup({ delay: null });
    expect(await screen.findByText('User 1')).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Page 2' }));
    expect(await screen.findByText('User 21')).toBeInTheDocument();
    expect(lists(calls).at(-1)?.path).toBe('/users/list/1');
  });

  it('shows the error with a retry', async () => {
    let failing = true;
    fakeApi({
      list: () =>
        failing
          ? fail(500, 'INTERNAL_ERROR', 'Something went wrong')
          : ok({ items: [row()], total: 1, page: 0, pageSize: 20 }),
    });
    renderRoutes(routes, '/users');
    const user = userEvent.setup({ delay: null });
    expect(
      await screen.findByText('Something went wrong', {}, { timeout: 8000 }),
    ).toBeInTheDocument();
    failing = false;
    await user.click(screen.getByRole('button', { name: 'Try again' }));
    expect(await screen.findByText('Bruno Lima')).toBeInTheDocument();
  });
});
