import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { applyLanguage } from '../../../lib/i18n';
import { mockFetch, ok, type RecordedCall } from '../../../test/fetch-mock';
import { completeProfile } from '../../../test/profiles';
import { renderRoutes } from '../../../test/render';
import { notificationView } from '../test-fixtures';
import { NotificationsPage } from './notifications-page';

const routes = [
  { path: '/notifications', element: <NotificationsPage /> },
  { path: '/case/:id', element: <p>case view</p> },
];
const listCalls = (calls: RecordedCall[]) =>
  calls.filter((call) => call.path.startsWith('/notification/list/'));

describe('notifications page', { timeout: 30_000 }, () => {
  beforeEach(() => applyLanguage('en'));
  afterEach(() => vi.unstubAllGlobals());

  it('pages through the list (20 a page, pages from 0 on the API)', async () => {
    const { calls } = mockFetch((call) => {
      const page = /^\/notification\/list\/(\d+)$/.exec(call.path)?.[1];
      if (page === undefined) return ok(completeProfile());
      const n = Number(page);
      return ok({
        items: [
          notificationView({
            id: 100 - n,
            caseId: 10 + n,
            patient: { fname: `Page${n}`, lname: 'Patient' },
            path: `/case/${10 + n}?tab=general`,
            viewedAt: n === 0 ? null : '2026-11-20T10:00:00.000Z',
          }),
        ],
        total: 45,
        page: n,
        pageSize: 20,
        unseen: 1,
      });
    });
    const { router } = renderRoutes(routes, '/notifications');
    const user = userEvent.setup();
    const first = await screen.findByTestId('notification-item');
    expect(first).toHaveTextContent('Status changed');
    expect(first).toHaveTextContent('Case #10 · Page0 Patient · Paulo Planner');
    expect(first).toHaveAttribute('href', '/case/10?tab=general');
    expect(first.dataset.unseen).toBe('true');
    expect(screen.getByText('Unseen: 1')).toBeInTheDocument();

    await user.click(screen.getByRole('button', { name: 'Page 3' }));
    expect(await screen.findByText(/Page2 Patient/)).toBeInTheDocument();
    expect(listCalls(calls).at(-1)?.path).toBe('/notification/list/2');
    expect(router.state.location.search).toBe('?page=2');
    expect(screen.getByTestId('notification-item').dataset.unseen).toBeUndefined();

    await user.click(screen.getByRole('button', { name: 'Previous page' }));
    expect(await screen.findByText(/Page1 Patient/)).toBeInTheDocument();
    expect(listCalls(calls).at(-1)?.path).toBe('/notification/list/1');
  });

  it('opens at the page of the URL and opens a notification where it points', async () => {
    mockFetch((call) =>
      call.path === '/notification/list/1'
        ? ok({
            items: [notificationView({ id: 5, path: '/case/42?tab=attachments', eventType: 2 })],
            total: 21,
            page: 1,
            pageSize: 20,
            unseen: 1,
          })
        : ok(completeProfile()),
    );
    const { router } = renderRoutes(routes, '/notifications?page=1');
    const user = userEvent.setup();
    await user.click(await screen.findByText('File added'));
    await waitFor(() => expect(router.state.location.pathname).toBe('/case/42'));
    expect(router.state.location.search).toBe('?tab=attachments');
  });

  it('marks all read; the list is read again', async () => {
    let read = false;
    const { calls } = mockFetch((call) => {
      if (call.path === '/notification/markAllRead') {
        read = true;
        return ok({ updated: 1 });
      }
      if (call.path === '/notification/list/0') {
        return ok({
          items: [notificationView({ viewedAt: read ? '2026-11-21T10:00:00.000Z' : null })],
          total: 1,
          page: 0,
          pageSize: 20,
          unseen: read ? 0 : 1,
        });
      }
      return ok(completeProfile());
    });
    renderRoutes(routes, '/notifications');
    const user = userEvent.setup();
    const item = await screen.findByTestId('notification-item');
    expect(within(item).getByRole('img', { name: 'Unseen' })).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Mark all read' }));
    await waitFor(() =>
      expect(screen.getByTestId('notification-item').dataset.unseen).toBeUndefined(),
    );
    expect(screen.getByRole('button', { name: 'Mark all read' })).toBeDisabled();
    expect(calls.filter((c) => c.path === '/notification/markAllRead')).toHaveLength(1);
  });

  it('shows an empty state when there is nothing', async () => {
    mockFetch((call) =>
      call.path === '/notification/list/0'
        ? ok({ items: [], total: 0, page: 0, pageSize: 20, unseen: 0 })
        : ok(completeProfile()),
    );
    renderRoutes(routes, '/notifications');
    expect(await screen.findByText('No notifications')).toBeInTheDocument();
    expect(screen.queryByRole('navigation')).not.toBeInTheDocument();
  });
});
