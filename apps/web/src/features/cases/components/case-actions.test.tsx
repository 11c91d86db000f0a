import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { applyLanguage } from '../../../lib/i18n';
import { fail, mockFetch, ok } from '../../../test/fetch-mock';
import { renderWithApp } from '../../../test/render';
import { caseDetail, caseService } from '../test-fixtures';
import { CaseActions } from './case-actions';

describe('case actions', { timeout: 15_000 }, () => {
  beforeEach(() => applyLanguage('en'));
  afterEach(() => vi.unstubAllGlobals());

  it('shows exactly the moves the server allows, plus archive from `can`', async () => {
    mockFetch(() => ok({}));
    renderWithApp(
      <CaseActions
        detail={caseDetail({ actions: ['submit', 'cancel'], can: ['edit', 'archive'] })}
      />,
    );
    const group = await screen.findByTestId('case-actions');
    expect(
      within(group)
        .getAllByRole('button')
        .map((b) => b.textContent),
    ).toEqual(['Submit', 'Cancel case', 'Archive']);
  });

  it('renders nothing without allowed moves', () => {
    mockFetch(() => ok({}));
    renderWithApp(<CaseActions detail={caseDetail({ actions: [], can: ['edit'] })} />);
    expect(screen.queryByTestId('case-actions')).not.toBeInTheDocument();
  });

  it('asks for confirmation before a move and sends it only on yes', async () => {
    const { calls } = mockFetch((call) => (call.method === 'POST' ? ok({}) : ok(caseDetail())));
    renderWithApp(<CaseActions detail={caseDetail({ actions: ['submit'] })} />);
    const user = userEvent.setup();
    await user.click(await screen.findByRole('button', { name: 'Submit' }));
    const dialog = await screen.findByRole('dialog');
    await user.click(within(dialog).getByRole('button', { name: 'No' }));
    expect(calls.filter((c) => c.method === 'POST')).toHaveLength(0);

    await user.click(screen.getByRole('button', { name: 'Submit' }));
    await user.click(
      within(await screen.findByRole('dialog')).getByRole('button', { name: 'Submit' }),
    );
    await waitFor(() =>
      expect(calls.find((c) => c.method === 'POST')).toMatchObject({
        path: '/case/42/move',
        body: { action: 'submit' },
      }),
    );
    expect(await screen.findByText('Done: Submit')).toBeInTheDocument();
  });

  it('approves with password, text and the preselected service; a wrong password stays on the field', async () => {
    let attempts = 0;
    const { calls } = mockFetch((call) => {
      if (call.path === '/case/42/move') {
        attempts += 1;
        return attempts === 1 ? fail(400, 'WRONG_PASSWORD', 'Wrong password') : ok({});
      }
      return ok(caseDetail());
    });
    const service = caseService({
      id: 9,
      productName: 'Guide',
      approveRequestAt: '2026-11-21T00:00:00Z',
    });
    renderWithApp(
      <CaseActions
        detail={caseDetail({
          caseStatus: 'approve',
          actions: ['approve', 'requestModification'],
          services: [service],
        })}
      />,
    );
    const user = userEvent.setup();
    await user.click(await screen.findByRole('button', { name: 'Approve' }));
    const dialog = await screen.findByRole('dialog');
    await user.type(within(dialog).getByRole('textbox', { name: /Your comment/ }), 'OK for me');
    await user.type(within(dialog).getByLabelText(/Your password/), 'bad');
    await user.click(within(dialog).getByRole('button', { name: 'Approve' }));
    expect(await within(dialog).findByText('Wrong password')).toBeInTheDocument();
    expect(calls.find((c) => c.path === '/case/42/move')?.body).toEqual({
      action: 'approve',
      password: 'bad',
      text: 'OK for me',
      serviceIds: [9],
    });
    // Still open for another try.
    expect(screen.getByRole('dialog')).toBeInTheDocument();
  });

  it('requests a modification through the text dialog (text required)', async () => {
    const { calls } = mockFetch((call) => (call.method === 'POST' ? ok({}) : ok(caseDetail())));
    renderWithApp(
      <CaseActions
        detail={caseDetail({ caseStatus: 'approve', actions: ['requestModification'] })}
      />,
    );
    const user = userEvent.setup();
    await user.click(await screen.findByRole('button', { name: 'Request modification' }));
    const dialog = await screen.findByRole('dialog');
    await user.click(within(dialog).getByRole('button', { name: 'Request modification' }));
    expect(await within(dialog).findByText('This field is required')).toBeInTheDocument();
    expect(calls.filter((c) => c.method === 'POST')).toHaveLength(0);
    await user.type(within(dialog).getByRole('textbox'), 'Move implant 36');
    await user.click(within(dialog).getByRole('button', { name: 'Request modification' }));
    await waitFor(() =>
      expect(calls.find((c) => c.method === 'POST')?.body).toEqual({
        action: 'requestModification',
        text: 'Move implant 36',
      }),
    );
  });
});
