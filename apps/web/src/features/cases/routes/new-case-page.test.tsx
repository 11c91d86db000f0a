import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { applyLanguage } from '../../../lib/i18n';
import { mockFetch, ok } from '../../../test/fetch-mock';
import { completeProfile } from '../../../test/profiles';
import { renderRoutes } from '../../../test/render';
import { emptyServiceDataV3, type CatalogueProduct } from '@dentflow/domain';
import { caseDetail, caseService } from '../test-fixtures';
import { NewCasePage } from './new-case-page';

const routes = [
  { path: '/cases/create', element: <NewCasePage /> },
  { path: '/case/:id', element: <p>case view</p> },
];

const product = (overrides: Partial<CatalogueProduct>): CatalogueProduct => ({
  id: 1,
  code: 'PLAN-GUIDE',
  productType: 1,
  productCategoryId: 3,
  categoryName: 'Guided implant surgery',
  productKind: 1,
  qtdOption: 2,
  qtdMax: 2,
  manufactureTime: 1,
  innerProducts: [],
  favorite: false,
  name: 'Surgical guide planning',
  description: 'Per arch',
  prices: { BRL: 45000, USD: 9000 },
  modifiedAt: '2026-01-01T00:00:00.000Z',
  ...overrides,
});

/** The data step of case 42: a guide planning (data filled) then a mock-up of 2 teeth. */
function dataStepServer() {
  const previousData = {
    ...emptyServiceDataV3(),
    hasOrtho: true,
    plasticGum: false,
    extra: 'Same as the guide',
    treatmentPurpose: { purpose: 2 },
  };
  return mockFetch((call) => {
    if (call.path === '/profile/get') return ok(completeProfile());
    if (call.path.startsWith('/metadata/')) return ok([]);
    if (call.path === '/case/42/services/78/data') return ok(caseDetail({ id: 42 }));
    return ok(
      caseDetail({
        id: 42,
        caseCurrency: 'BRL',
        services: [
          caseService({ id: 77, productCategoryId: 2, data: previousData }),
          caseService({
            id: 78,
            productId: 2,
            productName: 'Printed mock-up',
            productCategoryId: 2,
            qtdOption: 3,
            quantity: 2,
          }),
        ],
      }),
    );
  });
}

describe('guided intake', () => {
  beforeEach(() => applyLanguage('en'));
  afterEach(() => vi.unstubAllGlobals());

  it('checks the patient with the domain rules before creating the case', async () => {
    const { calls } = mockFetch((call) =>
      call.path === '/profile/get' ? ok(completeProfile()) : ok(caseDetail({ services: [] })),
    );
    renderRoutes(routes, '/cases/create');
    const user = userEvent.setup();
    await user.click(await screen.findByRole('button', { name: 'Create case and continue' }));
    expect(await screen.findAllByText('This field is required')).toHaveLength(2);
    expect(calls.some((c) => c.path === '/case/new')).toBe(false);

    await user.type(screen.getByLabelText(/First name/), '  Maria ');
    await user.type(screen.getByLabelText(/Last name/), 'Silva');
    await user.type(screen.getByLabelText(/Observation/), 'Implant 36');
    await user.click(screen.getByRole('button', { name: 'Create case and continue' }));
    await waitFor(() =>
      expect(calls.find((c) => c.path === '/case/new')?.body).toEqual({
        patient: { fname: 'Maria', lname: 'Silva', birthDate: null, gender: null, note: null },
        observation: 'Implant 36',
        // The profile's currency (en: dollars) unless the user picks another.
        caseCurrency: 'USD',
      }),
    );
  });

  it('shows the currency the case opens in and lets the user pick the other', async () => {
    const { calls } = mockFetch((call) =>
      call.path === '/profile/get' ? ok(completeProfile()) : ok(caseDetail({ services: [] })),
    );
    renderRoutes(routes, '/cases/create');
    const user = userEvent.setup();
    const dollars = await screen.findByRole('radio', { name: 'US dollar (U$)' });
    await waitFor(() => expect(dollars).toBeChecked());
    expect(screen.getByText(/can change until the case has a transaction/)).toBeInTheDocument();
    await user.click(screen.getByRole('radio', { name: 'Brazilian real (R$)' }));
    expect(screen.getByRole('radio', { name: 'Brazilian real (R$)' })).toBeChecked();
    await user.type(screen.getByLabelText(/First name/), 'Maria');
    await user.type(screen.getByLabelText(/Last name/), 'Silva');
    await user.click(screen.getByRole('button', { name: 'Create case and continue' }));
    await waitFor(() =>
      expect(calls.find((c) => c.path === '/case/new')?.body).toMatchObject({
        caseCurrency: 'BRL',
      }),
    );
  });

  it('offers the catalogue priced in the case currency, adds the chosen services, then the data step', async () => {
    let services: ReturnType<typeof caseService>[] = [];
    const { calls } = mockFetch((call) => {
      if (call.path === '/profile/get') return ok(completeProfile());
      if (call.path === '/products/list')
        return ok([
          product({}),
          product({
            id: 2,
            code: 'MFG-MOCKUP',
            name: 'Printed mock-up',
            qtdOption: 3,
            qtdMax: 14,
            productCategoryId: 2,
            prices: { BRL: 4000, USD: 800 },
          }),
        ]);
      if (call.path.startsWith('/metadata/')) return ok([]);
      if (call.path === '/case/42/services/add') {
        services = [caseService({ id: 77, productId: 1, productName: 'Surgical guide planning' })];
        return ok({});
      }
      return ok(
        caseDetail({
          caseCurrency: 'BRL',
          services,
          modifiedAt: `2026-11-20T10:00:0${services.length}.000Z`,
        }),
      );
    });
    renderRoutes(routes, '/cases/create?case=42&step=1');
    const user = userEvent.setup();
    expect(await screen.findByText('Surgical guide planning')).toBeInTheDocument();
    expect(screen.getByText('R$ 450,00')).toBeInTheDocument();
    expect(screen.getByText('R$ 40,00')).toBeInTheDocument();
    await user.click(screen.getByRole('checkbox', { name: 'Surgical guide planning' }));
    expect(screen.getByText('Total: R$ 450,00')).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Continue' }));
    await waitFor(() =>
      expect(calls.find((c) => c.path === '/case/42/services/add')?.body).toEqual({
        productId: 1,
        quantity: 1,
      }),
    );
    // Step 3: the service's data form (category 3 asks for the jaw).
    expect(await screen.findByRole('button', { name: 'Save service data' })).toBeInTheDocument();
    expect(screen.getByText('Jaw')).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Go to the case' }));
    expect(await screen.findByText('case view')).toBeInTheDocument();
  });

  it('data step: a tooth chart for a per-tooth service, and copy from the previous service', async () => {
    dataStepServer();
    renderRoutes(routes, '/cases/create?case=42&step=2');
    const user = userEvent.setup();
    const mockup = within(await screen.findByTestId('intake-service-78'));
    // FDI numbering: 16 teeth per jaw, chosen with buttons (keyboard: Tab, then Space).
    expect(mockup.getByRole('group', { name: 'Upper jaw' })).toBeInTheDocument();
    expect(
      within(mockup.getByRole('group', { name: 'Lower jaw' })).getAllByRole('button'),
    ).toHaveLength(16);
    expect(mockup.getByTestId('teeth-count')).toHaveTextContent('0 of 2 chosen');
    await user.click(mockup.getByRole('button', { name: 'Tooth 11' }));
    mockup.getByRole('button', { name: 'Tooth 21' }).focus();
    await user.keyboard(' ');
    expect(mockup.getByRole('button', { name: 'Tooth 21' })).toHaveAttribute(
      'aria-pressed',
      'true',
    );
    expect(mockup.getByTestId('teeth-count')).toHaveTextContent('2 of 2 chosen');

    // The first service offers no copy; the second copies the first's answers, keeping its teeth.
    expect(
      within(screen.getByTestId('intake-service-77')).queryByTestId('copy-previous'),
    ).toBeNull();
    await user.click(mockup.getByRole('button', { name: 'Copy from the previous service' }));
    expect(mockup.getByDisplayValue('Same as the guide')).toBeInTheDocument();
    expect(mockup.getByTestId('teeth-count')).toHaveTextContent('2 of 2 chosen');
  });

  it('data step: leaving with unsaved service data asks first, and saving sends the teeth', async () => {
    const { calls } = dataStepServer();
    renderRoutes(routes, '/cases/create?case=42&step=2');
    const user = userEvent.setup();
    const mockup = within(await screen.findByTestId('intake-service-78'));
    await user.click(mockup.getByRole('button', { name: 'Tooth 11' }));
    await user.click(mockup.getByRole('button', { name: 'Tooth 21' }));
    await user.click(mockup.getByRole('button', { name: 'Copy from the previous service' }));
    // Leaving with unsaved changes asks first; staying keeps the work.
    await user.click(screen.getByRole('button', { name: 'Go to the case' }));
    const dialog = await screen.findByRole('dialog', { name: 'Unsaved service data' });
    await user.click(within(dialog).getByRole('button', { name: 'No' }));
    expect(screen.queryByText('case view')).not.toBeInTheDocument();
    expect(mockup.getByDisplayValue('Same as the guide')).toBeInTheDocument();

    // Saved, the form leaves freely; the teeth went to the server.
    await user.click(mockup.getByRole('button', { name: 'Save service data' }));
    await waitFor(() =>
      expect(calls.find((c) => c.path === '/case/42/services/78/data')?.body).toMatchObject({
        dataVersion: 3,
        data: { teeth: [11, 21], extra: 'Same as the guide' },
      }),
    );
  });
});
