import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { applyLanguage } from '../../../lib/i18n';
import { mockFetch, ok, type RecordedCall } from '../../../test/fetch-mock';
import { completeProfile } from '../../../test/profiles';
import { renderRoutes } from '../../../test/render';
import { chatChannels, chatMessage, chatPage } from '../test-fixtures';
import { CaseChatTab } from './case-chat-tab';

const ME = completeProfile().id;

const at = (date: Date, hours: number, minutes = 0) =>
  new Date(date.getFullYear(), date.getMonth(), date.getDate(), hours, minutes).toISOString();
const today = new Date();
const yesterday = new Date(today.getFullYear(), today.getMonth(), today.getDate() - 1);
const longAgo = new Date(today.getFullYear() - 2, 2, 10);

function serve(handle: (call: RecordedCall) => Response | null) {
  return mockFetch((call) => handle(call) ?? ok(completeProfile()));
}

const renderTab = (path = '/case/42?tab=chat') =>
  renderRoutes([{ path: '/case/:id', element: <CaseChatTab caseId={42} /> }], path);

const messageTexts = () =>
  within(screen.getByTestId('chat-messages'))
    .getAllByTestId('chat-message')
    .map((item) => item.textContent);

describe('case chat tab', () => {
  beforeEach(() => applyLanguage('en'));
  afterEach(() => vi.unstubAllGlobals());

  it('one tab per channel with unread counts; messages oldest first with day separators', async () => {
    const { calls } = serve((call) => {
      if (call.path === '/case/42/chat') {
        return ok(
          chatChannels([
            { channel: 3, qtdMsg: 4, unread: 2 },
            { channel: 4, qtdMsg: 0, unread: 0 },
          ]),
        );
      }
      if (call.path.startsWith('/case/42/chat/3?')) {
        return ok(
          chatPage({
            // Newest first, as the API answers.
            items: [
              chatMessage({ id: 14, text: 'See you', sendAt: at(today, 0, 5) }),
              chatMessage({
                id: 13,
                author: { id: ME, displayName: 'Ana Souza' },
                text: 'Thanks!',
                sendAt: at(yesterday, 18),
                seenBy: 1,
              }),
              chatMessage({ id: 12, text: '', deleted: true, sendAt: at(yesterday, 9) }),
              chatMessage({ id: 11, text: 'Case received', sendAt: at(longAgo, 12) }),
            ],
            unread: 2,
            lastSeenMessageId: 12,
          }),
        );
      }
      if (call.path === '/case/42/chat/3/seen') return ok({ lastSeenMessageId: 14, unread: 0 });
      return null;
    });
    renderTab();
    expect(await screen.findByTestId('chat-channel-public')).toHaveTextContent('Public');
    expect(screen.getByTestId('chat-channel-internal')).toHaveTextContent('Internal');
    expect(screen.queryByTestId('chat-channel-clinic')).not.toBeInTheDocument();
    expect(screen.getByTestId('chat-channel-unread-public')).toHaveTextContent('2');
    expect(screen.queryByTestId('chat-channel-unread-internal')).not.toBeInTheDocument();

    await screen.findByText('See you');
    expect(messageTexts()).toEqual([
      expect.stringContaining('Case received'),
      expect.stringContaining('Message deleted'),
      expect.stringContaining('Thanks!'),
      expect.stringContaining('See you'),
    ]);
    const separators = screen.getAllByTestId('chat-day-separator').map((s) => s.textContent);
    expect(separators).toHaveLength(3);
    expect(separators[0]).toContain(String(longAgo.getFullYear()));
    expect(separators.slice(1)).toEqual(['Yesterday', 'Today']);

    // Own messages on the right, named "You", with a read mark; others' without.
    const mine = screen.getAllByTestId('chat-message').find((m) => m.dataset.own === 'true')!;
    expect(mine).toHaveTextContent('You');
    expect(within(mine).getByText('Seen')).toBeInTheDocument();
    const deleted = screen.getAllByTestId('chat-message').find((m) => m.dataset.deleted)!;
    expect(within(deleted).getByText('Message deleted')).toHaveStyle({ fontStyle: 'italic' });
    expect(screen.getAllByText('Seen')).toHaveLength(1);

    // The channel on screen is read up to its newest message.
    await waitFor(() =>
      expect(calls.filter((c) => c.path === '/case/42/chat/3/seen').map((c) => c.body)).toEqual([
        { upTo: 14 },
      ]),
    );
  });

  it('opens the channel named in the URL and shows its empty state', async () => {
    serve((call) => {
      if (call.path === '/case/42/chat') {
        return ok(
          chatChannels([
            { channel: 3, qtdMsg: 1, unread: 0 },
            { channel: 4, qtdMsg: 0, unread: 0 },
          ]),
        );
      }
      if (call.path.startsWith('/case/42/chat/4?')) return ok(chatPage());
      if (call.path.startsWith('/case/42/chat/3?')) {
        return ok(chatPage({ items: [chatMessage({ id: 1, text: 'Public hello' })] }));
      }
      return null;
    });
    const { router } = renderTab('/case/42?tab=chat&channel=4');
    expect(await screen.findByText('No messages yet')).toBeInTheDocument();
    expect(
      screen.getByText('Only the staff see this channel: notes about the work on this case.'),
    ).toBeInTheDocument();
    expect(screen.getByTestId('chat-channel-internal')).toHaveAttribute('aria-selected', 'true');

    const user = userEvent.setup();
    await user.click(screen.getByTestId('chat-channel-public'));
    expect(await screen.findByText('Public hello')).toBeInTheDocument();
    expect(router.state.location.search).toBe('?tab=chat&channel=3');
  });

  it('loads earlier messages with `before` the oldest id', async () => {
    const { calls } = serve((call) => {
      if (call.path === '/case/42/chat') return ok(chatChannels());
      if (call.path === '/case/42/chat/3?limit=30') {
        return ok(
          chatPage({
            items: [chatMessage({ id: 40, text: 'Newer' }), chatMessage({ id: 39, text: 'New' })],
            hasMore: true,
            lastSeenMessageId: 40,
          }),
        );
      }
      if (call.path === '/case/42/chat/3?limit=30&before=39') {
        return ok(
          chatPage({
            items: [chatMessage({ id: 38, text: 'Oldest', sendAt: at(today, 0, 1) })],
            lastSeenMessageId: 40,
          }),
        );
      }
      return null;
    });
    renderTab();
    const user = userEvent.setup();
    await user.click(await screen.findByRole('button', { name: 'Load earlier messages' }));
    expect(await screen.findByText('Oldest')).toBeInTheDocument();
    expect(messageTexts()).toEqual([
      expect.stringContaining('Oldest'),
      expect.stringContaining('New'),
      expect.stringContaining('Newer'),
    ]);
    expect(screen.queryByRole('button', { name: 'Load earlier messages' })).not.toBeInTheDocument();
    // Already read up to the newest: no seen call.
    expect(calls.some((c) => c.path.endsWith('/seen'))).toBe(false);
  });

  it('deletes a message after confirmation; it keeps its place as "Message deleted"', async () => {
    const mine = chatMessage({
      id: 21,
      author: { id: ME, displayName: 'Ana Souza' },
      text: 'Wrong file, sorry',
      canDelete: true,
    });
    const { calls } = serve((call) => {
      if (call.path === '/case/42/chat') return ok(chatChannels());
      if (call.method === 'DELETE' && call.path === '/case/42/chat/message/21') {
        return ok({ ...mine, text: '', deleted: true, canDelete: false });
      }
      if (call.path.startsWith('/case/42/chat/3?')) {
        return ok(
          chatPage({
            items: [mine, chatMessage({ id: 20, text: 'Please send the scan' })],
            lastSeenMessageId: 21,
          }),
        );
      }
      return null;
    });
    renderTab();
    const user = userEvent.setup();
    await screen.findByText('Wrong file, sorry');
    // Only messages the caller may delete have the action.
    expect(screen.getAllByRole('button', { name: 'Delete message' })).toHaveLength(1);
    await user.click(screen.getByRole('button', { name: 'Delete message' }));
    const dialog = await screen.findByRole('dialog');
    await user.click(within(dialog).getByRole('button', { name: 'Delete' }));
    expect(await screen.findByText('Message deleted')).toBeInTheDocument();
    expect(screen.queryByText('Wrong file, sorry')).not.toBeInTheDocument();
    expect(calls.filter((c) => c.method === 'DELETE')).toHaveLength(1);
    expect(messageTexts()[1]).toContain('Message deleted');
  });
});
