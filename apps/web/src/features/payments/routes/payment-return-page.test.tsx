import { StrictMode } from 'react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { createMemoryRouter, RouterProvider, useLocation } from 'react-router';
import type { PaymentReturn } from '@dentflow/domain';
import { AppProviders } from '../../../app/app';
import { applyLanguage } from '../../../lib/i18n';
import { createQueryClient } from '../../../lib/query-client';
import { setRefreshToken } from '../../../lib/session-storage';
import { fail, mockFetch, ok } from '../../../test/fetch-mock';
import { transactionView } from '../test-fixtures';
import { PaymentReturnPage } from './payment-return-page';

/** Where the login link leads: shows the path it would come back to. */
function LoginProbe() {
  const location = useLocation();
  return <p>login, then {(location.state as { from?: string } | null)?.from}</p>;
}

/** The app's providers under StrictMode, as in development: effects run twice there. */
function renderReturn(path: string) {
  const router = createMemoryRouter(
    [
      { path: '/notification/paypal', element: <PaymentReturnPage provider="paypal" /> },
      { path: '/notification/pagseguro', element: <PaymentReturnPage provider="pagseguro" /> },
      { path: '/login', element: <LoginProbe /> },
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

describe('payment return page, signed in', () => {
  beforeEach(() => {
    applyLanguage('en');
    setRefreshToken('refresh-token');
  });
  afterEach(() => {
    setRefreshToken(null);
    vi.unstubAllGlobals();
  });

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

describe('payment return page, without a session', () => {
  beforeEach(() => applyLanguage('ptBR'));
  afterEach(() => vi.unstubAllGlobals());

  it('shows the status from the reference only, and a login that comes back for the details', async () => {
    const { calls } = mockFetch(() => ok({ paymentStatus: 'paid', problem: null }));
    renderReturn('/notification/paypal?transaction=501&reference=DF-42-ABCDEF012345&token=EC-1');
    expect(
      await screen.findByRole('heading', { name: 'Pagamento confirmado' }),
    ).toBeInTheDocument();
    expect(screen.getByText('Pago')).toBeInTheDocument();
    // The public answer carries no amount; nothing asks for the transaction itself.
    expect(screen.queryByText(/R\$/)).not.toBeInTheDocument();
    expect(calls.map((call) => call.path)).toEqual([
      '/notification/paypal/status?reference=DF-42-ABCDEF012345&token=EC-1',
    ]);
    await userEvent.click(screen.getByRole('link', { name: 'Entrar para ver os detalhes' }));
    expect(
      await screen.findByText(
        'login, then /notification/paypal?transaction=501&reference=DF-42-ABCDEF012345&token=EC-1',
      ),
    ).toBeInTheDocument();
  });

  it('an unknown reference shows the translated not-found error', async () => {
    mockFetch(() => fail(404, 'NOT_FOUND', 'Não encontrado'));
    renderReturn('/notification/pagseguro?transaction=9&reference=DF-9-000000000000');
    expect(await screen.findByRole('alert')).toHaveTextContent('Não encontrado');
    expect(screen.getByRole('link', { name: 'Entrar para ver os detalhes' })).toBeInTheDocument();
  });

  it('an old link without a reference asks to log in, without calling the API', async () => {
    const { calls } = mockFetch(() => ok({ paymentStatus: 'paid', problem: null }));
    renderReturn('/notification/pagseguro?transaction=9');
    expect(await screen.findByTestId('return-login-needed')).toBeInTheDocument();
    expect(calls).toHaveLength(0);
  });
});
