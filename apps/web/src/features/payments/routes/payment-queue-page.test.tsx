import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { PendingTransaction } from '@dentflow/domain';
import { applyLanguage } from '../../../lib/i18n';
import { mockFetch, ok } from '../../../test/fetch-mock';
import { completeProfile } from '../../../test/profiles';
import { renderRoutes } from '../../../test/render';
import { transactionView } from '../test-fixtures';
import { PaymentQueuePage } from './payment-queue-page';

const routes = [
  { path: '/payments', element: <PaymentQueuePage /> },
  { path: '/error/not-authorized', element: <p>not authorized</p> },
];

const pending = (overrides: Partial<PendingTransaction> = {}): PendingTransaction => ({
  transaction: transactionView(),
  patient: { fname: 'Maria', lname: 'Silva' },
  caseStatus: 'checkingout',
  waitingFor: 'receipt',
  ...overrides,
});

describe('payments queue', { timeout: 15_000 }, () => {
  beforeEach(() => applyLanguage('en'));
  afterEach(() => vi.unstubAllGlobals());

  it('lists what waits for staff with the queue actions only, and confirms a card payment', async () => {
    const { calls } = mockFetch((call) => {
      if (call.path === '/profile/get') return ok(completeProfile({ roles: ['supervisor'] }));
      if (call.path === '/case/transaction/502/checkPhysicalPayment') {
        return ok(transactionView({ id: 502, paymentStatus: 'paid' }));
      }
      return ok([
        pending({
          transaction: transactionView({
            id: 501,
            actions: ['authReceipt', 'setInvoiceNumber', 'refresh'],
          }),
        }),
        pending({
          transaction: transactionView({
            id: 502,
            caseId: 43,
            paymentMethod: 'physical',
            actions: ['checkPhysicalPayment'],
          }),
          patient: { fname: 'João', lname: 'Lima' },
          waitingFor: 'physical',
        }),
      ]);
    });
    renderRoutes(routes, '/payments');
    const user = userEvent.setup();
    const first = await screen.findByTestId('pending-501');
    expect(within(first).getByText('Receipt to authorize')).toBeInTheDocument();
    expect(within(first).getByRole('link', { name: 'Case #42' })).toHaveAttribute(
      'href',
      '/case/42?tab=transactions',
    );
    // The queue shows the authorisations, not the other actions the transaction allows.
    expect(
      within(within(first).getByTestId('transaction-actions'))
        .getAllByRole('button')
        .map((button) => button.textContent),
    ).toEqual(['Authorize receipt', 'Deny receipt']);

    const second = screen.getByTestId('pending-502');
    await user.click(within(second).getByRole('button', { name: 'Confirm card payment' }));
    const dialog = await screen.findByRole('dialog', { name: 'Confirm the card machine payment?' });
    await user.click(within(dialog).getByRole('button', { name: 'Confirm card payment' }));
    await waitFor(() =>
      expect(calls.find((call) => call.method === 'POST')).toMatchObject({
        path: '/case/transaction/502/checkPhysicalPayment',
        body: { confirm: true },
      }),
    );
  });

  it('shows an empty state when nothing waits', async () => {
    mockFetch((call) =>
      call.path === '/profile/get' ? ok(completeProfile({ roles: ['admin'] })) : ok([]),
    );
    renderRoutes(routes, '/payments');
    expect(await screen.findByText('Nothing waiting')).toBeInTheDocument();
  });

  it('sends a doctor to the not-authorized page without asking for the queue', async () => {
    const { calls } = mockFetch(() => ok(completeProfile()));
    renderRoutes(routes, '/payments');
    expect(await screen.findByText('not authorized')).toBeInTheDocument();
    expect(calls.some((call) => call.path === '/transactions/pending')).toBe(false);
  });
});
