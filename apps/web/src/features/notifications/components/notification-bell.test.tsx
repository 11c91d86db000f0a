import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { LastNotifications } from '@dentflow/domain';
import { applyLanguage } from '../../../lib/i18n';
import { mockFetch, ok } from '../../../test/fetch-mock';
import { completeProfile } from '../../../test/profiles';
import { renderWithApp } from '../../../test/render';
import { notificationView } from '../test-fixtures';
import { badgeText, NotificationBell } from './notification-bell';

const LAST: LastNotifications = {
  unseen: 2,
  items: [
    notificationView({
      id: 31,
      eventType: 3,
      icon: 'message',
      path: '/case/42?tab=chat&channel=3',
      actor: { id: 9, displayName: 'Paulo Planner' },
    }),
    notificationView({
      id: 30,
      eventType: 2,
      icon: 'paperclip',
      path: '/case/43?tab=attachments',
      caseId: 43,
      patient: { fname: 'João', lname: 'Lima' },
    }),
    notificationView({
      id: 29,
      eventType: 9,
      viewedAt: '2026-11-20T10:00:00.000Z',
      createdAt: new Date(Date.now() - 3 * 3600 * 1000).toISOString(),
    }),
  ],
};

describe('notification bell', () => {
  beforeEach(() => applyLanguage('en'));
  afterEach(() => vi.unstubAllGlobals());

  it('counts the unseen ones and lists the last five with type, patient, actor and time', async () => {
    mockFetch((call) => (call.path === '/notification/last5' ? ok(LAST) : ok(completeProfile())));
    renderWithApp(<NotificationBell />);
    // The first render of the file also loads the providers: a longer wait on a busy machine.
    expect(
      await screen.findByTestId('notification-bell-badge', {}, { timeout: 5_000 }),
    ).toHaveTextContent('2');
    const bell = screen.getByRole('button', { name: 'Notifications: 2 unseen' });

    const user = userEvent.setup();
    await user.click(bell);
    const items = await screen.findAllByTestId('notification-item');
    expect(items).toHaveLength(3);
    expect(items[0]).toHaveTextContent('New message');
    expect(items[0]).toHaveTextContent('Maria Silva · Paulo Planner');
    expect(items[0]).toHaveTextContent('5 minutes ago');
    // A chat notification opens the channel; no quote of "New message" rides along.
    expect(items[0]).toHaveAttribute('href', '/case/42?tab=chat&channel=3');
    expect(items[1]).toHaveTextContent('File added');
    expect(items[1]).toHaveTextContent('João Lima');
    expect(items[1]).toHaveAttribute('href', '/case/43?tab=attachments');
    expect(items[2]).toHaveTextContent('Status changed');
    expect(items[2]).toHaveTextContent('3 hours ago');
    // Unseen ones carry a dot.
    expect(items.map((item) => item.dataset.unseen)).toEqual(['true', 'true', undefined]);
    // (The dropdown is still in its opening transition for jsdom: hence `hidden`.)
    const unseenDot = { name: 'Unseen', hidden: true };
    expect(within(items[0]!).getByRole('img', unseenDot)).toBeInTheDocument();
    expect(within(items[2]!).queryByRole('img', unseenDot)).not.toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'See all', hidden: true })).toHaveAttribute(
      'href',
      '/notifications',
    );
  });

  it('marks all read and the badge goes away', async () => {
    let unseen = 2;
    const { calls } = mockFetch((call) => {
      if (call.path === '/notification/markAllRead') {
        unseen = 0;
        return ok({ updated: 2 });
      }
      if (call.path === '/notification/last5') {
        return ok({
          unseen,
          items: LAST.items.map((item) => ({
            ...item,
            viewedAt: unseen ? item.viewedAt : '2026-11-21T10:00:00.000Z',
          })),
        });
      }
      return ok(completeProfile());
    });
    renderWithApp(<NotificationBell />);
    const user = userEvent.setup();
    await user.click(await screen.findByRole('button', { name: 'Notifications: 2 unseen' }));
    await user.click(await screen.findByTestId('notification-bell-mark-all-read'));
    await waitFor(() =>
      expect(screen.queryByTestId('notification-bell-badge')).not.toBeInTheDocument(),
    );
    expect(screen.getByRole('button', { name: 'Notifications' })).toBeInTheDocument();
    expect(calls.filter((c) => c.path === '/notification/markAllRead')).toHaveLength(1);
    expect(screen.getByTestId('notification-bell-mark-all-read')).toBeDisabled();
  });

  it('says so when there is nothing yet', async () => {
    mockFetch((call) =>
      call.path === '/notification/last5' ? ok({ unseen: 0, items: [] }) : ok(completeProfile()),
    );
    renderWithApp(<NotificationBell />);
    const user = userEvent.setup();
    await user.click(await screen.findByRole('button', { name: 'Notifications' }));
    expect(await screen.findByText('No notifications yet.')).toBeInTheDocument();
    expect(screen.queryByTestId('notification-bell-badge')).not.toBeInTheDocument();
  });

  it('caps the badge at 99+', () => {
    expect(badgeText(7)).toBe('7');
    expect(badgeText(99)).toBe('99');
    expect(badgeText(100)).toBe('99+');
  });
});
