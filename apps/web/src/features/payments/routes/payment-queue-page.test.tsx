import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { DeferredCasePayment, Language, PendingTransaction } from '@dentflow/domain';
import { applyLanguage } from '../../../lib/i18n';
import { fail, mockFetch, ok } from '../../../test/fetch-mock';
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
  sameServicesAs: [],
  ...overrides,
});

const deferred = (overrides: Partial<DeferredCasePayment> = {}): DeferredCasePayment => ({
  caseId: 61,
  caseStatus: 'execute',
  caseCurrency: 'BRL',
  patient: { fname: 'Rita', lname: 'Prazo' },
  owner: { id: 7, displayName: 'Clínica Confiável' },
  deferredAt: '2026-11-21T14:30:00.000Z',
  reason: 'Trusted clinic, billed monthly',
  services: [
    { id: 91, productName: 'Guide planning', quantity: 1 },
    { id: 92, productName: 'Printed guide', quantity: 2 },
  ],
  ...overrides,
});

describe('payments queue', () => {
  beforeEach(() => applyLanguage('en'));
  afterEach(() => vi.unstubAllGlobals());

  it('lists what waits for staff with the queue actions only, and confirms a card payment', async () => {
    const { calls } = mockFetch((call) => {
      if (call.path === '/profile/get') return ok(completeProfile({ roles: ['supervisor'] }));
      if (call.path === '/transactions/deferred') return ok([]);
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

  it.each<[Language, string, string, string]>([
    [
      'en',
      'Pix reference (txid): DF42501',
      'A second transaction for the same services',
      'Transaction #503 of this case, open or paid, also charges for the same services.',
    ],
    [
      'ptBR',
      'Referência do Pix (txid): DF42501',
      'Uma segunda transação para os mesmos serviços',
      'A transação nº 503 deste caso, em aberto ou paga, também cobra pelos mesmos serviços.',
    ],
    [
      'es',
      'Referencia de Pix (txid): DF42501',
      'Una segunda transacción para los mismos servicios',
      'La transacción n.º 503 de este caso, abierta o pagada, también cobra por los mismos servicios.',
    ],
  ])(
    'in %s shows the Pix reference and warns of a second transaction for the same services',
    async (language, txid, title, body) => {
      await applyLanguage(language);
      mockFetch((call) => {
        if (call.path === '/profile/get') return ok(completeProfile({ roles: ['supervisor'] }));
        if (call.path === '/transactions/deferred') return ok([]);
        return ok([
          pending({
            transaction: transactionView({ id: 501, pixTxid: 'DF42501' }),
            sameServicesAs: [503],
          }),
          pending({
            transaction: transactionView({ id: 502, caseId: 43, paymentMethod: 'physical' }),
            waitingFor: 'physical',
          }),
        ]);
      });
      renderRoutes(routes, '/payments');
      const pix = await screen.findByTestId('pending-501');
      expect(within(pix).getByTestId('pix-txid')).toHaveTextContent(txid);
      const warning = within(pix).getByTestId('same-services');
      expect(warning).toHaveTextContent(title);
      expect(warning).toHaveTextContent(body);
      const card = screen.getByTestId('pending-502');
      expect(within(card).queryByTestId('pix-txid')).toBeNull();
      expect(within(card).queryByTestId('same-services')).toBeNull();
    },
  );

  it('shows an empty state when nothing waits', async () => {
    mockFetch((call) =>
      call.path === '/profile/get' ? ok(completeProfile({ roles: ['admin'] })) : ok([]),
    );
    renderRoutes(routes, '/payments');
    expect(await screen.findByText('Nothing waiting')).toBeInTheDocument();
    expect(await screen.findByText('Nothing billed later')).toBeInTheDocument();
  });

  it('lists the cases billed later: case link, patient, client, services, reason and since when', async () => {
    mockFetch((call) => {
      if (call.path === '/profile/get') return ok(completeProfile({ roles: ['supervisor'] }));
      if (call.path === '/transactions/deferred') return ok([deferred()]);
      return ok([]);
    });
    renderRoutes(routes, '/payments');
    const section = await screen.findByRole('region', { name: 'Billed later' });
    const row = await within(section).findByTestId('deferred-61');
    expect(within(row).getByText('Rita Prazo')).toBeInTheDocument();
    expect(within(row).getByRole('link', { name: 'Case #61' })).toHaveAttribute(
      'href',
      '/case/61?tab=transactions',
    );
    expect(within(row).getByText('Client: Clínica Confiável')).toBeInTheDocument();
    expect(within(row).getByText('Guide planning')).toBeInTheDocument();
    expect(within(row).getByText('Printed guide × 2')).toBeInTheDocument();
    expect(within(row).getByText('Reason: Trusted clinic, billed monthly')).toBeInTheDocument();
    expect(within(row).getByText(/^Validated without payment on /)).toBeInTheDocument();
    expect(within(row).getByText('In planning')).toBeInTheDocument();
    // The pending queue above is empty on its own.
    expect(screen.getByText('Nothing waiting')).toBeInTheDocument();
  });

  it('a failed billed-later list says so and tries again', async () => {
    let attempts = 0;
    mockFetch((call) => {
      if (call.path === '/profile/get') return ok(completeProfile({ roles: ['supervisor'] }));
      if (call.path === '/transactions/deferred') {
        attempts += 1;
        return attempts === 1
          ? fail(403, 'FORBIDDEN', 'The list is not available now')
          : ok([deferred({ caseId: 62 })]);
      }
      return ok([]);
    });
    renderRoutes(routes, '/payments');
    const user = userEvent.setup();
    const section = await screen.findByRole('region', { name: 'Billed later' });
    expect(await within(section).findByText('The list is not available now')).toBeInTheDocument();
    await user.click(within(section).getByRole('button', { name: 'Try again' }));
    expect(await within(section).findByTestId('deferred-62')).toBeInTheDocument();
  });

  it('sends a doctor to the not-authorized page without asking for the queue', async () => {
    const { calls } = mockFetch(() => ok(completeProfile()));
    renderRoutes(routes, '/payments');
    expect(await screen.findByText('not authorized')).toBeInTheDocument();
    expect(calls.some((call) => call.path === '/transactions/pending')).toBe(false);
    expect(calls.some((call) => call.path === '/transactions/deferred')).toBe(false);
  });
});
