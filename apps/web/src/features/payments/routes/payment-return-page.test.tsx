import { StrictMode } from 'react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { render, screen } from '@testing-library/react';
import { createMemoryRouter, RouterProvider } from 'react-router';
import type { PaymentReturn } from '@dentflow/domain';
import { AppProviders } from '../../../app/app';
import { applyLanguage } from '../../../lib/i18n';
import { createQueryClient } from '../../../lib/query-client';
import { fail, mockFetch, ok } from '../../../test/fetch-mock';
import { transactionView } from '../test-fixtures';
import { PaymentReturnPage } from './payment-return-page';

/** The app's providers under StrictMode, as in development: effects run twice there. */
function renderReturn(path: string) {
  const router = createMemoryRouter(
    [
      { path: '/notification/paypal', element: <PaymentReturnPage provider="paypal" /> },
      { path: '/notification/pagseguro', element: <PaymentReturnPage provider="pagseguro" /> },
    ],
    { initialEntries: [path] },
  );
  return render(
    <StrictMode>
      <AppProviders queryClient={createQueryClient()}>
        <RouterProvider router={router} />
      </AppProviders>
    </StrictMode>,
  );
}

const answer = (overrides: Partial<PaymentReturn> = {}): PaymentReturn => ({
  transaction: transactionView({
    id: 501,
    caseId: 42,
    paymentMethod: 'paypal',
    currency: 'USD',
    paymentStatus: 'paid',
  }),
  problem: null,
  ...overrides,
});

describe('payment return page', { timeout: 15_000 }, () => {
  beforeEach(() => applyLanguage('en'));
  afterEach(() => vi.unstubAllGlobals());

  it('confirms a PayPal payment once, with the token and payer, and links to the transactions', async () => {
    const { calls } = mockFetch(() => ok(answer()));
    renderReturn('/notification/paypal?transaction=501&token=EC-1&PayerID=P9');
    expect(screen.getByText('Confirming your payment…')).toBeInTheDocument();
    expect(await screen.findByRole('heading', { name: 'Payment confirmed' })).toBeInTheDocument();
    expect(screen.getByText('U$ 1,234.56')).toBeInTheDocument();
    expect(screen.getByRole('link', { name: "Open the case's transactions" })).toHaveAttribute(
      'href',
      '/case/42?tab=transactions',
    );
    expect(calls.map((call) => call.path)).toEqual([
      '/notification/paypal/transaction/501?token=EC-1&PayerID=P9',
    ]);
  });

  it('says a PagSeguro payment is being processed while the provider has not confirmed it', async () => {
    const { calls } = mockFetch(() =>
      ok(
        answer({
          transaction: transactionView({
            paymentMethod: 'pagseguro',
            paymentStatus: 'under_analysis',
          }),
        }),
      ),
    );
    renderReturn('/notification/pagseguro?transaction=501');
    expect(
      await screen.findByText(
        'The payment is being processed; the case updates when the provider confirms it.',
      ),
    ).toBeInTheDocument();
    expect(calls.map((call) => call.path)).toEqual(['/notification/pagseguro/transaction/501']);
  });

  it.each([
    ['transactionError', 'Error on transaction, consult support'],
    ['paidMethodError', 'Error on paid method'],
  ] as const)('shows the spec message for %s', async (problem, message) => {
    mockFetch(() =>
      ok(answer({ problem, transaction: transactionView({ paymentStatus: 'awaiting_payment' }) })),
    );
    renderReturn('/notification/paypal?transaction=501&token=EC-1');
    expect(await screen.findByRole('alert')).toHaveTextContent(message);
    expect(screen.getByRole('link', { name: "Open the case's transactions" })).toBeInTheDocument();
  });

  it('refuses a link without a valid transaction, without calling the API', async () => {
    const { calls } = mockFetch(() => ok(answer()));
    renderReturn('/notification/paypal?transaction=abc');
    expect(await screen.findByRole('alert')).toHaveTextContent(
      'This link does not name a transaction',
    );
    expect(calls).toHaveLength(0);
  });

  it("shows the API's translated error", async () => {
    mockFetch(() => fail(404, 'NOT_FOUND', 'Not found'));
    renderReturn('/notification/paypal?transaction=77');
    expect(await screen.findByRole('alert')).toHaveTextContent('Not found');
  });
});
