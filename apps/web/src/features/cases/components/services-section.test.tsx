import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { CaseDetail } from '@dentflow/domain';
import { applyLanguage } from '../../../lib/i18n';
import { fail, mockFetch, ok } from '../../../test/fetch-mock';
import { renderWithApp } from '../../../test/render';
import { caseDetail, caseService } from '../test-fixtures';
import { ServicesSection } from './services-section';

function serve(detail: CaseDetail) {
  return mockFetch((call) => {
    if (call.path === '/products/list') return ok([]);
    if (call.method === 'DELETE' && call.path === '/case/42/services/12') {
      return fail(
        409,
        'SERVICE_IN_TRANSACTION',
        'This service is part of a payment that is still open: cancel that transaction to remove it',
      );
    }
    return ok(detail);
  });
}

const FOUR_STATES = [
  caseService({ id: 11, productName: 'Guide planning', payment: 'paid', paid: true }),
  caseService({ id: 12, productName: 'Printed guide', payment: 'awaitingPayment' }),
  caseService({ id: 13, productName: 'Mock-up', payment: 'deferred' }),
  caseService({ id: 14, productName: 'Sleeve kit', payment: 'unpaid' }),
];

describe('services section', () => {
  beforeEach(() => applyLanguage('en'));
  afterEach(() => vi.unstubAllGlobals());

  it('shows how each service stands towards payment', async () => {
    const detail = caseDetail({ caseStatus: 'checkingout', services: FOUR_STATES, can: [] });
    serve(detail);
    renderWithApp(<ServicesSection detail={detail} />);
    expect(await screen.findByTestId('service-payment-11')).toHaveTextContent('Paid');
    expect(screen.getByTestId('service-payment-12')).toHaveTextContent(/^Awaiting payment$/);
    expect(screen.getByTestId('service-payment-13')).toHaveTextContent('Billed later');
    expect(screen.getByTestId('service-payment-14')).toHaveTextContent('Unpaid');
  });

  it('past checkout, a service awaiting payment (an upgrade) waits to be planned', async () => {
    const detail = caseDetail({ caseStatus: 'execute', services: FOUR_STATES, can: [] });
    serve(detail);
    renderWithApp(<ServicesSection detail={detail} />);
    expect(await screen.findByTestId('service-payment-12')).toHaveTextContent(
      'Awaiting payment — will be planned once paid',
    );
    expect(screen.getByTestId('service-payment-11')).toHaveTextContent(/^Paid$/);
  });

  it('adds services while the case has no order, and does not send to the shop then', async () => {
    const detail = caseDetail({ can: ['edit', 'addService', 'order'] });
    serve(detail);
    renderWithApp(<ServicesSection detail={detail} />);
    expect(await screen.findByRole('button', { name: 'Add services' })).toBeInTheDocument();
    expect(screen.queryByRole('link', { name: 'Order more for this case' })).toBeNull();
  });

  it('once the case has an order, more services come from an order for this case in the shop', async () => {
    const detail = caseDetail({ caseStatus: 'checkingout', can: ['edit', 'order'] });
    serve(detail);
    renderWithApp(<ServicesSection detail={detail} />);
    expect(await screen.findByRole('link', { name: 'Order more for this case' })).toHaveAttribute(
      'href',
      '/shop?caseId=42',
    );
    expect(screen.queryByRole('button', { name: 'Add services' })).toBeNull();
    // Before the case is in work, ordering more is not an upgrade.
    expect(screen.queryByText(/is an upgrade/)).toBeNull();
  });

  it('ordering more for a case in work says it is an upgrade, planned once paid', async () => {
    const detail = caseDetail({ caseStatus: 'approve', can: ['order'] });
    serve(detail);
    renderWithApp(<ServicesSection detail={detail} />);
    expect(await screen.findByRole('link', { name: 'Order more for this case' })).toBeVisible();
    expect(
      screen.getByText(/what you order now is an upgrade.*planned once their payment is confirmed/),
    ).toBeInTheDocument();
  });

  it('offers neither adding nor ordering without `can`', async () => {
    const detail = caseDetail({ caseStatus: 'execute', can: [] });
    serve(detail);
    renderWithApp(<ServicesSection detail={detail} />);
    expect(await screen.findByText('Surgical guide planning')).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Add services' })).toBeNull();
    expect(screen.queryByRole('link', { name: 'Order more for this case' })).toBeNull();
  });

  it('removes only services in no payment; a refusal shows the server’s message', async () => {
    const detail = caseDetail({
      caseStatus: 'checkingout',
      can: ['edit', 'order'],
      services: [
        caseService({ id: 12, productName: 'Printed guide', payment: 'unpaid' }),
        caseService({ id: 15, productName: 'Guide planning', payment: 'awaitingPayment' }),
      ],
    });
    const { calls } = serve(detail);
    renderWithApp(<ServicesSection detail={detail} />);
    const user = userEvent.setup();
    expect(screen.queryByRole('button', { name: 'Remove Guide planning' })).toBeNull();
    await user.click(await screen.findByRole('button', { name: 'Remove Printed guide' }));
    await user.click(
      within(await screen.findByRole('dialog')).getByRole('button', { name: 'Remove service' }),
    );
    expect(
      await screen.findByText(
        'This service is part of a payment that is still open: cancel that transaction to remove it',
      ),
    ).toBeInTheDocument();
    await waitFor(() =>
      expect(
        calls.some((call) => call.method === 'DELETE' && call.path === '/case/42/services/12'),
      ).toBe(true),
    );
  });
});
