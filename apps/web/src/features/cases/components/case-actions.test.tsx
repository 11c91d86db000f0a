import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { applyLanguage } from '../../../lib/i18n';
import { fail, mockFetch, ok } from '../../../test/fetch-mock';
import { renderWithApp } from '../../../test/render';
import { caseDetail, caseService } from '../test-fixtures';
import { CaseActions } from './case-actions';

describe('case actions', () => {
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

  it('a supervisor validates without payment naming a reason; the services stay unpaid', async () => {
    const { calls } = mockFetch((call) => (call.method === 'POST' ? ok({}) : ok(caseDetail())));
    renderWithApp(
      <CaseActions
        detail={caseDetail({
          caseStatus: 'checkingout',
          actions: ['cancel'],
          can: ['validateUnpaid'],
          services: [
            caseService({ id: 11, productName: 'Guide planning', payment: 'awaitingPayment' }),
            caseService({ id: 12, productName: 'Printed guide', payment: 'unpaid' }),
          ],
          checks: {
            services: true,
            patient: true,
            attachments: true,
            transactions: false,
            missingSlots: [],
            unpaidServiceIds: [11, 12],
          },
        })}
      />,
    );
    const user = userEvent.setup();
    await user.click(await screen.findByRole('button', { name: 'Validate without payment' }));
    const dialog = await screen.findByRole('dialog', { name: 'Validate without payment' });
    // It says what stays unpaid and that the lab bills it later.
    expect(
      within(dialog).getByText(/These services are not paid: Guide planning, Printed guide\./),
    ).toBeInTheDocument();
    expect(within(dialog).getByText(/the lab bills the client later/)).toBeInTheDocument();
    // The reason is required, with its counter up to the domain's limit.
    expect(within(dialog).getByText('Characters left: 500')).toBeInTheDocument();
    const submit = within(dialog).getByRole('button', { name: 'Validate without payment' });
    await user.click(submit);
    expect(await within(dialog).findByText('This field is required')).toBeInTheDocument();
    await user.type(within(dialog).getByRole('textbox'), '   ');
    await user.click(submit);
    expect(calls.filter((c) => c.method === 'POST')).toHaveLength(0);

    await user.clear(within(dialog).getByRole('textbox'));
    await user.type(
      within(dialog).getByRole('textbox', { name: /Why validate without payment/ }),
      'Trusted clinic, billed monthly',
    );
    await user.click(submit);
    await waitFor(() =>
      expect(calls.find((c) => c.method === 'POST')).toMatchObject({
        path: '/case/42/move',
        body: { action: 'validate', paymentOverride: { reason: 'Trusted clinic, billed monthly' } },
      }),
    );
    expect(await screen.findByText('Done: Validate')).toBeInTheDocument();
  });

  it('a refused validation without payment is notified with the server’s message', async () => {
    mockFetch((call) =>
      call.method === 'POST'
        ? fail(409, 'CASE_CHECKS_FAILED', 'The case does not pass its checks')
        : ok(caseDetail()),
    );
    renderWithApp(
      <CaseActions detail={caseDetail({ caseStatus: 'checkingout', can: ['validateUnpaid'] })} />,
    );
    const user = userEvent.setup();
    await user.click(await screen.findByRole('button', { name: 'Validate without payment' }));
    const dialog = await screen.findByRole('dialog');
    await user.type(within(dialog).getByRole('textbox'), 'Billed later');
    await user.click(within(dialog).getByRole('button', { name: 'Validate without payment' }));
    expect(await screen.findByText('The case does not pass its checks')).toBeInTheDocument();
  });

  it('offers no validation without payment unless `can` says so', async () => {
    mockFetch(() => ok({}));
    renderWithApp(
      <CaseActions detail={caseDetail({ caseStatus: 'checkingout', actions: ['cancel'] })} />,
    );
    expect(await screen.findByRole('button', { name: 'Cancel case' })).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Validate without payment' })).toBeNull();
  });
});
