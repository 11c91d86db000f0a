import { beforeEach, describe, expect, it, vi } from 'vitest';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { TEXT_DIALOG_DEFAULT_LIMIT } from '@dentflow/domain';
import { applyLanguage } from '../../../lib/i18n';
import { mockFetch, ok } from '../../../test/fetch-mock';
import { renderWithApp } from '../../../test/render';
import { AttachmentActions } from './attachment-actions';
import { RequestChangeDialog } from './request-change-dialog';

const buttonNames = () => screen.queryAllByRole('button').map((button) => button.textContent);

describe('attachment action buttons', () => {
  beforeEach(() => applyLanguage('en'));

  it.each([
    [
      ['publish', 'delete'],
      ['Publish', 'Delete'],
    ],
    [
      ['delete', 'approve', 'requestChange'],
      ['Approve', 'Request change', 'Delete'],
    ],
    [['cancelChangeRequest'], ['Cancel change request']],
    [['unpublish'], ['Unpublish']],
    [['somethingNew', 'approve'], ['Approve']],
    [[], []],
  ])('actions %j → buttons %j, in the domain order', (actions, expected) => {
    mockFetch(() => ok({}));
    renderWithApp(<AttachmentActions attachmentId={5} actions={actions} onDone={() => {}} />);
    expect(buttonNames()).toEqual(expected);
  });

  it('a read-only case shows no action even when the list offers some', () => {
    mockFetch(() => ok({}));
    renderWithApp(
      <AttachmentActions
        attachmentId={5}
        actions={['publish', 'delete']}
        readOnly
        onDone={() => {}}
      />,
    );
    expect(buttonNames()).toEqual([]);
  });

  it('publish calls its route and reports', async () => {
    const { calls } = mockFetch(() => ok({ id: 5, status: 'publish' }));
    const onDone = vi.fn();
    renderWithApp(<AttachmentActions attachmentId={5} actions={['publish']} onDone={onDone} />);
    await userEvent.click(screen.getByRole('button', { name: 'Publish' }));
    await waitFor(() => expect(onDone).toHaveBeenCalled());
    expect(calls.map((call) => `${call.method} ${call.path}`)).toEqual([
      'GET /attachment/5/publish',
    ]);
    expect(await screen.findByText('File published.')).toBeInTheDocument();
  });

  it('delete asks first; cancelling sends nothing, confirming deletes', async () => {
    const { calls } = mockFetch(() => ok({}));
    const onDone = vi.fn();
    renderWithApp(<AttachmentActions attachmentId={8} actions={['delete']} onDone={onDone} />);
    await userEvent.click(screen.getByRole('button', { name: 'Delete' }));
    const dialog = await screen.findByRole('dialog', { name: 'Delete the file?' });
    await userEvent.click(within(dialog).getByRole('button', { name: 'Cancel' }));
    expect(calls).toEqual([]);
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());

    await userEvent.click(screen.getByRole('button', { name: 'Delete' }));
    const again = await screen.findByRole('dialog', { name: 'Delete the file?' });
    await userEvent.click(within(again).getByRole('button', { name: 'Delete' }));
    await waitFor(() => expect(onDone).toHaveBeenCalled());
    expect(calls.map((call) => `${call.method} ${call.path}`)).toEqual([
      'DELETE /attachment/8/delete',
    ]);
  });

  it('request change sends the text typed in the dialog', async () => {
    const { calls } = mockFetch(() => ok({ id: 5, status: 'request_change' }));
    const onDone = vi.fn();
    renderWithApp(
      <AttachmentActions attachmentId={5} actions={['requestChange']} onDone={onDone} />,
    );
    await userEvent.click(screen.getByRole('button', { name: 'Request change' }));
    const dialog = await screen.findByRole('dialog', { name: 'Request a change' });
    await userEvent.type(within(dialog).getByRole('textbox'), '  Move implant 36 distally  ');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Request change' }));
    await waitFor(() => expect(onDone).toHaveBeenCalled());
    expect(calls).toMatchObject([
      {
        method: 'POST',
        path: '/attachment/5/request4Change',
        body: { text: 'Move implant 36 distally' },
      },
    ]);
  });
});

describe('request-change dialog', () => {
  beforeEach(() => applyLanguage('en'));

  it('counts the characters up to the limit of 100 and refuses an empty text', async () => {
    expect(TEXT_DIALOG_DEFAULT_LIMIT).toBe(100);
    const onSubmit = vi.fn();
    renderWithApp(<RequestChangeDialog opened onClose={() => {}} onSubmit={onSubmit} />);
    const dialog = await screen.findByRole('dialog');
    const box = within(dialog).getByRole('textbox');
    const submit = within(dialog).getByRole('button', { name: 'Request change' });
    expect(within(dialog).getByText('0/100')).toBeInTheDocument();
    expect(submit).toBeDisabled();

    await userEvent.type(box, '   ');
    expect(within(dialog).getByText('3/100')).toBeInTheDocument();
    expect(submit).toBeDisabled();

    await userEvent.clear(box);
    await userEvent.type(box, 'Shorter guide');
    expect(within(dialog).getByText('13/100')).toBeInTheDocument();

    // Pasting more than the limit keeps the first 100 characters.
    await userEvent.clear(box);
    await userEvent.click(box);
    await userEvent.paste('x'.repeat(130));
    expect(box).toHaveValue('x'.repeat(100));
    expect(within(dialog).getByText('100/100')).toBeInTheDocument();
    await userEvent.click(submit);
    expect(onSubmit).toHaveBeenCalledWith('x'.repeat(100));
  });
});
