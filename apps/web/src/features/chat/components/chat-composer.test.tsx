import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { applyLanguage } from '../../../lib/i18n';
import { fail, mockFetch, ok, type RecordedCall } from '../../../test/fetch-mock';
import { completeProfile } from '../../../test/profiles';
import { renderWithApp } from '../../../test/render';
import { chatMessage } from '../test-fixtures';
import { ChatComposer } from './chat-composer';

const SEND_PATH = '/case/42/chat/3';
const sends = (calls: RecordedCall[]) =>
  calls.filter((call) => call.method === 'POST' && call.path === SEND_PATH);

function serve(answers: (() => Response)[]) {
  let next = 0;
  return mockFetch((call) => {
    if (call.method === 'POST' && call.path === SEND_PATH) {
      const answer = answers[Math.min(next, answers.length - 1)]!;
      next += 1;
      return answer();
    }
    return ok(completeProfile());
  });
}

const renderComposer = (quote: number | null = null, onQuoteRemoved = vi.fn()) =>
  renderWithApp(
    <ChatComposer caseId={42} channel={3} quote={quote} onQuoteRemoved={onQuoteRemoved} />,
  );

describe('chat composer', () => {
  beforeEach(() => applyLanguage('en'));
  afterEach(() => vi.unstubAllGlobals());

  it('keeps the text after a failed send and offers Retry, which sends it again', async () => {
    const { calls } = serve([
      () => fail(500, 'INTERNAL_ERROR', 'Unexpected error'),
      () => ok(chatMessage({ id: 5, text: 'Is the guide ready?' })),
    ]);
    renderComposer();
    const user = userEvent.setup();
    const input = screen.getByRole('textbox', { name: 'Message' });
    await user.type(input, '  Is the guide ready?  ');
    await user.click(screen.getByRole('button', { name: 'Send' }));

    expect(await screen.findByText('Error sending message')).toBeInTheDocument();
    expect(input).toHaveValue('  Is the guide ready?  ');
    expect(sends(calls)).toHaveLength(1);
    expect(sends(calls)[0]!.body).toEqual({ text: 'Is the guide ready?' });

    await user.click(screen.getByRole('button', { name: 'Retry' }));
    await waitFor(() => expect(input).toHaveValue(''));
    expect(sends(calls)).toHaveLength(2);
    expect(sends(calls)[1]!.body).toEqual({ text: 'Is the guide ready?' });
    expect(screen.queryByText('Error sending message')).not.toBeInTheDocument();
  });

  it("shows the server's reason when it refuses the text", async () => {
    serve([
      () =>
        fail(400, 'VALIDATION_ERROR', 'Some fields are invalid', {
          text: 'At most 2000 characters',
        }),
    ]);
    renderComposer();
    const user = userEvent.setup();
    const input = screen.getByRole('textbox', { name: 'Message' });
    await user.type(input, 'Hello');
    await user.keyboard('{Enter}');
    expect(await screen.findByText('Error sending message')).toBeInTheDocument();
    expect(screen.getByText('Some fields are invalid')).toBeInTheDocument();
    expect(input).toHaveValue('Hello');
  });

  it('Enter sends, Shift+Enter starts a new line; an empty text is never sent', async () => {
    const { calls } = serve([() => ok(chatMessage({ id: 6 }))]);
    renderComposer();
    const user = userEvent.setup();
    const input = screen.getByRole('textbox', { name: 'Message' });
    expect(screen.getByRole('button', { name: 'Send' })).toBeDisabled();
    await user.type(input, '   {Enter}');
    expect(sends(calls)).toHaveLength(0);

    await user.clear(input);
    await user.type(input, 'first line{Shift>}{Enter}{/Shift}second line');
    expect(input).toHaveValue('first line\nsecond line');
    expect(sends(calls)).toHaveLength(0);
    await user.keyboard('{Enter}');
    await waitFor(() => expect(input).toHaveValue(''));
    expect(sends(calls).map((call) => call.body)).toEqual([{ text: 'first line\nsecond line' }]);
  });

  it('shows a counter near the 2000-character limit', async () => {
    serve([() => ok(chatMessage())]);
    renderComposer();
    const user = userEvent.setup();
    const input = screen.getByRole('textbox', { name: 'Message' });
    await user.click(input);
    await user.paste('x'.repeat(1700));
    expect(screen.queryByText(/characters left/)).not.toBeInTheDocument();
    await user.paste('x'.repeat(150));
    expect(screen.getByText('150 characters left')).toBeInTheDocument();
    expect(input).toHaveAttribute('maxlength', '2000');
  });

  const caseNotification = (id: number, eventType: number, path: string) => ({
    id,
    caseId: 42,
    eventType,
    icon: eventType === 2 ? 'paperclip' : 'message',
    resourceId: 4,
    path,
    actor: { id: 9, displayName: 'Paulo Planner' },
    patient: { fname: 'Maria', lname: 'Silva' },
    createdAt: new Date().toISOString(),
    viewedAt: null,
  });

  it('sends the quoted notification and drops the quote once sent', async () => {
    const onQuoteRemoved = vi.fn();
    const { calls } = mockFetch((call) => {
      if (call.method === 'POST' && call.path === SEND_PATH) return ok(chatMessage({ id: 7 }));
      if (call.path === '/notification/case/42') {
        return ok([caseNotification(77, 2, '/case/42?tab=attachments')]);
      }
      return ok(completeProfile());
    });
    renderComposer(77, onQuoteRemoved);
    const quote = await screen.findByTestId('chat-quote');
    expect(quote).toHaveTextContent('About this notification');
    expect(await screen.findByText('File added')).toBeInTheDocument();
    expect(quote).toHaveTextContent('Paulo Planner');
    const user = userEvent.setup();
    await user.type(screen.getByRole('textbox', { name: 'Message' }), 'On it{Enter}');
    await waitFor(() => expect(onQuoteRemoved).toHaveBeenCalled());
    expect(sends(calls)[0]!.body).toEqual({ text: 'On it', quotedNotification: 77 });
  });

  it('attaches no "New message" quote when opened from a chat notification', async () => {
    const onQuoteRemoved = vi.fn();
    const { calls } = mockFetch((call) => {
      if (call.method === 'POST' && call.path === SEND_PATH) return ok(chatMessage({ id: 8 }));
      if (call.path === '/notification/case/42') {
        return ok([caseNotification(31, 3, '/case/42?tab=chat&channel=3')]);
      }
      return ok(completeProfile());
    });
    renderComposer(31, onQuoteRemoved);
    // The quote is dropped from the URL once the notification turns out to be a chat message.
    await waitFor(() => expect(onQuoteRemoved).toHaveBeenCalled());
    expect(screen.queryByTestId('chat-quote')).not.toBeInTheDocument();
    expect(screen.queryByText('New message')).not.toBeInTheDocument();
    const user = userEvent.setup();
    await user.type(screen.getByRole('textbox', { name: 'Message' }), 'Thanks{Enter}');
    await waitFor(() => expect(sends(calls)).toHaveLength(1));
    expect(sends(calls)[0]!.body).toEqual({ text: 'Thanks' });
  });
});
