import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { emptyServiceDataV3, type CaseDetail } from '@dentflow/domain';
import { useCase } from '../api/get-case';
import { applyLanguage } from '../../../lib/i18n';
import { mockFetch, ok } from '../../../test/fetch-mock';
import { completeProfile } from '../../../test/profiles';
import { renderWithApp } from '../../../test/render';
import { caseDetail, caseService } from '../test-fixtures';
import { CaseProductionTab } from './production-tab';

/** The tab as the case page renders it: fed by the case query. */
function Harness() {
  const query = useCase(42);
  return query.data ? <CaseProductionTab detail={query.data} /> : null;
}

const SAO_PAULO = {
  zipCode: '01310-100',
  country: 'Brasil',
  state: 'SP',
  city: 'São Paulo',
  address: 'Avenida Paulista, 1000',
  complement: 'Sala 1',
};

/** A finished guide case as a printer reads it: the planning and the printed guide. */
function finishedGuide(overrides: Partial<CaseDetail> = {}): CaseDetail {
  return caseDetail({
    caseStatus: 'finished',
    caseCurrency: 'BRL',
    readOnly: true,
    can: [],
    address: SAO_PAULO,
    observation: 'Paciente com abertura de boca limitada',
    services: [
      caseService({
        id: 11,
        productName: 'Surgical guide planning',
        data: {
          ...emptyServiceDataV3(),
          jaw: 'upper',
          extractTeeth: true,
          treatmentPurpose: { purpose: 4 },
          extra: 'Implants at 14 and 24',
        },
      }),
      caseService({
        id: 12,
        productName: 'Printed surgical guide',
        productKind: 2,
        quantity: 2,
        printableProduct: true,
        manufacture: {
          sleeveManufacturer: 'Neodent',
          sleeveQuantity: 3,
          kit: true,
          jaw: 'upper',
          teeth: [],
          implantSystem: 'Neodent / GM',
        },
      }),
    ],
    delivery: { shipmentType: 0, address: SAO_PAULO, days: 3 },
    productionActions: ['productionSheet', 'dispatch'],
    ...overrides,
  });
}

describe('production tab', () => {
  beforeEach(() => applyLanguage('en'));
  afterEach(() => vi.unstubAllGlobals());

  it('shows what to make, the data and where it goes, and prints', async () => {
    // A supervisor's answer: the delivery carries its money.
    const forStaff = finishedGuide({
      delivery: {
        shipmentType: 0,
        address: SAO_PAULO,
        days: 3,
        money: { currency: 'BRL', fee: 4500, orderTotal: 82950, paymentMethod: 'pix' },
      },
      productionActions: ['productionSheet', 'dispatch', 'editAddress'],
    });
    mockFetch((call) => (call.path === '/profile/get' ? ok(completeProfile()) : ok(forStaff)));
    const print = vi.fn();
    vi.stubGlobal('print', print);
    renderWithApp(<Harness />);
    const sheet = await screen.findByRole('region', { name: 'Production sheet' });
    const guide = within(sheet).getByTestId('sheet-service-12');
    expect(guide).toHaveTextContent('Printed surgical guide');
    expect(within(sheet).getByTestId('sheet-sleeves-12')).toHaveTextContent('3 × Neodent');
    expect(guide).toHaveTextContent('Neodent / GM');
    expect(guide).toHaveTextContent('Upper');
    // The planning makes nothing; its data lines name what matters to the maker.
    expect(within(sheet).getByTestId('sheet-sleeves-11')).toHaveTextContent('—');
    expect(sheet).toHaveTextContent('Treatment purpose: Crown on implant');
    expect(sheet).toHaveTextContent('Extra information: Implants at 14 and 24');
    expect(sheet).toHaveTextContent('Sedex · delivery in up to 3 days');
    expect(sheet).toHaveTextContent('Avenida Paulista, 1000, Sala 1, São Paulo, SP, 01310-100');
    expect(sheet).toHaveTextContent('Awaiting dispatch');
    expect(sheet).toHaveTextContent('Paciente com abertura de boca limitada');
    // Money never reaches the sheet, even when the server sends it to staff.
    expect(sheet).not.toHaveTextContent('R$');
    expect(sheet).not.toHaveTextContent('829');

    await userEvent.setup().click(within(sheet).getByRole('button', { name: 'Print' }));
    expect(print).toHaveBeenCalledTimes(1);
  });

  it('records a shipment with its carrier and tracking code', async () => {
    let stored = finishedGuide();
    const { calls } = mockFetch((call) => {
      if (call.path === '/profile/get') return ok(completeProfile());
      if (call.path === '/case/42/dispatch') {
        stored = finishedGuide({
          modifiedAt: '2026-11-21T10:00:00.000Z',
          productionActions: ['productionSheet'],
          dispatch: {
            kind: 'shipped',
            date: '2026-11-21',
            carrier: 'Correios',
            trackingCode: 'BR123456789BR',
            recordedAt: '2026-11-21T10:00:00.000Z',
            recordedBy: { id: 3, displayName: 'Printer' },
          },
        });
      }
      return ok(stored);
    });
    renderWithApp(<Harness />);
    const user = userEvent.setup();
    const form = await screen.findByRole('form', { name: 'Record the dispatch' });
    // Sedex goes by the post: the carrier is filled in.
    expect(within(form).getByLabelText(/Carrier/)).toHaveValue('Correios');
    await user.clear(within(form).getByLabelText(/Carrier/));
    await user.click(within(form).getByRole('button', { name: 'Record the dispatch' }));
    expect(await within(form).findByText('This field is required')).toBeInTheDocument();
    expect(calls.some((c) => c.path === '/case/42/dispatch')).toBe(false);

    await user.type(within(form).getByLabelText(/Carrier/), 'Correios');
    await user.type(within(form).getByLabelText(/Tracking code/), 'BR123456789BR');
    await user.click(within(form).getByRole('button', { name: 'Record the dispatch' }));
    await waitFor(() =>
      expect(calls.find((c) => c.path === '/case/42/dispatch')?.body).toMatchObject({
        carrier: 'Correios',
        trackingCode: 'BR123456789BR',
        date: expect.stringMatching(/^\d{4}-\d{2}-\d{2}$/),
      }),
    );
    // Once recorded the form goes and the sheet says where the parcel is.
    await waitFor(() => expect(screen.queryByRole('form')).not.toBeInTheDocument());
    expect(screen.getByTestId('tracking-code')).toHaveTextContent('BR123456789BR');
  });

  it('a local withdraw is marked ready for pickup, without a carrier', async () => {
    const pickup = finishedGuide({
      delivery: { shipmentType: 2, address: null, days: 1 },
    });
    const { calls } = mockFetch((call) =>
      call.path === '/profile/get' ? ok(completeProfile()) : ok(pickup),
    );
    renderWithApp(<Harness />);
    const user = userEvent.setup();
    const form = await screen.findByRole('form', { name: 'Ready for pickup' });
    expect(within(form).queryByLabelText(/Carrier/)).not.toBeInTheDocument();
    expect(screen.getByRole('region', { name: 'Production sheet' })).toHaveTextContent(
      'Collected at the lab',
    );
    await user.click(within(form).getByRole('button', { name: 'Mark as ready for pickup' }));
    await waitFor(() =>
      expect(calls.find((c) => c.path === '/case/42/dispatch')?.body).toEqual({
        date: expect.stringMatching(/^\d{4}-\d{2}-\d{2}$/),
      }),
    );
  });
});
