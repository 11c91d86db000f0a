import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { emptyCaseNotificationDetails } from '@dentflow/domain';
import { applyLanguage } from '../../../lib/i18n';
import { mockFetch, ok } from '../../../test/fetch-mock';
import { completeProfile } from '../../../test/profiles';
import { renderRoutes } from '../../../test/render';
import { caseDetail } from '../../cases/test-fixtures';
import { CasePage } from '../../cases/routes/case-page';
import { chatChannels, chatMessage, chatPage } from '../test-fixtures';

function serve() {
  return mockFetch((call) => {
    if (call.path === '/case/42/get') return ok(caseDetail());
    if (call.path === '/case/42/chat')
      return ok(chatChannels([{ channel: 3, qtdMsg: 2, unread: 2 }]));
    if (call.path.startsWith('/case/42/chat/3?')) {
      return ok(
        chatPage({
          items: [chatMessage({ id: 2, text: 'Second' }), chatMessage({ id: 1, text: 'First' })],
          unread: 2,
        }),
      );
    }
    if (call.path === '/case/42/chat/3/seen') return ok({ lastSeenMessageId: 2, unread: 0 });
    if (call.path === '/notification/getStatus/42') {
      return ok({
        caseId: 42,
        unseen: 1,
        trigger: true,
        details: { ...emptyCaseNotificationDetails(), event_2: 1 },
      });
    }
    if (call.path === '/notification/case/42') return ok([]);
    return ok(completeProfile());
  });
}

describe('the case page with its chat', { timeout: 30_000 }, () => {
  beforeEach(() => applyLanguage('en'));
  afterEach(() => vi.unstubAllGlobals());

  it('counts unread messages and new files on the tab labels and opens the chat when asked', async () => {
    const { calls } = serve();
    renderRoutes([{ path: '/case/:id', element: <CasePage /> }], '/case/42');
    expect(
      await screen.findByTestId('case-tab-count-chat', {}, { timeout: 5_000 }),
    ).toHaveTextContent('2');
    expect(await screen.findByTestId('case-tab-count-attachments')).toHaveTextContent('1');
    // Opening the case marks its notifications seen (once).
    await waitFor(() =>
      expect(calls.filter((c) => c.path === '/notification/case/42')).toHaveLength(1),
    );

    const user = userEvent.setup();
    await user.click(screen.getByRole('tab', { name: /Chat/ }));
    expect(await screen.findByText('Second', {}, { timeout: 5_000 })).toBeInTheDocument();
    expect(screen.getByTestId('chat-channel-public')).toBeInTheDocument();
    // The open channel is read up to its newest message.
    await waitFor(() => expect(calls.some((c) => c.path === '/case/42/chat/3/seen')).toBe(true));
  });
});
