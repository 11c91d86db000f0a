import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import {
  allTreatmentPurposeTexts,
  type AdminAnnouncement,
  type EmailsSettings,
  type PaymentsSettingsView,
  type ServiceMetadataSettings,
  type ShippingSettings,
  type SleevesSettings,
  type TreatmentPurposesSettings,
} from '@dentflow/domain';
import { applyLanguage } from '../../../lib/i18n';
import { fail, mockFetch, ok, type RecordedCall } from '../../../test/fetch-mock';
import { completeProfile } from '../../../test/profiles';
import { renderRoutes } from '../../../test/render';
import { SettingsPage } from './settings-page';

const routes = [{ path: '/settings/:section?', element: <SettingsPage /> }];
const admin = completeProfile({ roles: ['admin', 'public'] });

const payments = (): PaymentsSettingsView => ({
  pixKey: 'pix@dentflow.test',
  pixMerchantName: 'Dentflow',
  pixMerchantCity: 'Sao Paulo',
  enabled: { pix: true, physical: true, dentalPrev: false, paypal: true, pagseguro: true },
  pixConfigured: true,
  paypalConfigured: true,
  pagbankConfigured: false,
  currenciesWithoutOnlineMethod: [],
});

const announcement = (id: number, title: string, active: boolean): AdminAnnouncement => ({
  id,
  active,
  texts: {
    ptBR: { title: `${title} (pt)`, body: 'Corpo' },
    en: { title, body: 'Body' },
    es: { title: '', body: '' },
  },
  createdAt: '2026-01-01T00:00:00.000Z',
  modifiedAt: '2026-01-01T00:00:00.000Z',
});

const shipping = (): ShippingSettings => ({
  options: [
    { shipmentType: 0, fees: { BRL: 3000, USD: 1500 }, days: 3, active: true },
    { shipmentType: 2, fees: { BRL: 0, USD: 0 }, days: 0, active: true },
    { shipmentType: 3, fees: { BRL: 1500, USD: 700 }, days: 1, active: true },
  ],
  motoboyZipRanges: [{ from: '01000000', to: '05999999' }],
});

type Handler = (call: RecordedCall) => Response | undefined;

/** The settings API as the contract describes it: each POST is kept and answered back. */
function fakeApi(extra?: Handler) {
  const state = {
    payments: payments(),
    emails: { senderName: 'Dentflow', supportEmail: '', defaultEvents: [3, 9] } as EmailsSettings,
    serviceMetadata: {
      kitManufacturers: [
        { id: 1, manufactureName: 'Neodent', systems: ['GM', 'CM'], active: true },
        { id: 2, manufactureName: 'Straumann', systems: [], active: true },
      ],
    } as ServiceMetadataSettings,
    treatmentPurposes: {
      treatmentPurposes: allTreatmentPurposeTexts([]),
    } as TreatmentPurposesSettings,
    sleeves: {
      sleeves: [{ id: 4, sleeveManufacture: 'Sin', prices: { BRL: 2500, USD: 900 } }],
    } as SleevesSettings,
    shipping: shipping(),
    announcements: [announcement(2, 'Holiday hours', false), announcement(1, 'Welcome', true)],
  };
  const mock = mockFetch((call) => {
    const answer = extra?.(call);
    if (answer) return answer;
    if (call.path === '/profile/get') return ok(admin);
    if (call.path === '/profile/list/announcement') return ok(state.announcements);
    if (call.path === '/profile/announcement' && call.method === 'POST') {
      const body = call.body as { id?: number; active: boolean; texts: AdminAnnouncement['texts'] };
      const saved = { ...announcement(body.id ?? 9, '', body.active), texts: body.texts };
      state.announcements = [
        saved,
        ...state.announcements
          .filter((a) => a.id !== saved.id)
          .map((a) => (body.active ? { ...a, active: false } : a)),
      ];
      return ok(saved);
    }
    const section = /^\/settings\/(\w+)$/.exec(call.path)?.[1] as
      | 'payments'
      | 'emails'
      | 'serviceMetadata'
      | 'treatmentPurposes'
      | 'sleeves'
      | 'shipping'
      | undefined;
    if (section && call.method === 'GET') return ok(state[section]);
    if (section === 'payments' && call.method === 'POST') {
      state.payments = { ...state.payments, ...(call.body as object) };
      return ok(state.payments);
    }
    if (section === 'sleeves' && call.method === 'POST') {
      const rows = (call.body as SleevesSettings).sleeves;
      let sleeves = state.sleeves.sleeves;
      for (const row of rows) {
        sleeves = sleeves.filter((s) => s.id !== row.id);
        if (!row.deleted) sleeves.push({ ...row, id: row.id ?? 50 });
      }
      state.sleeves = { sleeves };
      return ok(state.sleeves);
    }
    if (section === 'serviceMetadata' && call.method === 'POST') {
      const rows = (call.body as ServiceMetadataSettings).kitManufacturers;
      state.serviceMetadata = {
        kitManufacturers: rows.map((row, index) => ({ ...row, id: row.id ?? 60 + index })),
      };
      return ok(state.serviceMetadata);
    }
    if (section && call.method === 'POST') {
      (state as Record<string, unknown>)[section] = call.body;
      return ok(call.body);
    }
    return fail(404, 'NOT_FOUND', 'Not found');
  });
  return { ...mock, state };
}

const posts = (calls: RecordedCall[], path: string) =>
  calls.filter((c) => c.method === 'POST' && c.path === path);

describe('settings sections', { timeout: 30_000 }, () => {
  beforeEach(() => applyLanguage('en'));
  afterEach(() => vi.unstubAllGlobals());

  it('payments: shows whether providers are configured, and saves the right body', async () => {
    const { calls } = fakeApi();
    renderRoutes(routes, '/settings/payments');
    const user = userEvent.setup();
    const key = await screen.findByRole('textbox', { name: /Pix key/ });
    expect(key).toHaveValue('pix@dentflow.test');
    expect(screen.getByText('PayPal configured: yes')).toBeInTheDocument();
    expect(screen.getByText('PagBank configured: no')).toBeInTheDocument();
    expect(screen.getByRole('switch', { name: 'Dental insurance' })).not.toBeChecked();

    await user.clear(key);
    await user.type(key, '+5511999998888');
    const city = screen.getByRole('textbox', { name: /Merchant city/ });
    await user.clear(city);
    await user.type(city, '  Campinas ');
    await user.click(screen.getByRole('switch', { name: 'Dental insurance' }));
    await user.click(screen.getByRole('switch', { name: 'PayPal (card)' }));
    await user.click(screen.getByRole('button', { name: 'Save payments' }));

    await waitFor(() => expect(posts(calls, '/settings/payments')).toHaveLength(1));
    expect(posts(calls, '/settings/payments')[0]!.body).toEqual({
      pixKey: '+5511999998888',
      pixMerchantName: 'Dentflow',
      pixMerchantCity: 'Campinas',
      enabled: { pix: true, physical: true, dentalPrev: true, paypal: false, pagseguro: true },
    });
    expect(await screen.findByText('Payment settings saved.')).toBeInTheDocument();
  });

  it('payments: warns which currencies no client can pay online in, and only then', async () => {
    const { state } = fakeApi();
    state.payments = { ...state.payments, currenciesWithoutOnlineMethod: ['USD'] };
    const { unmount } = renderRoutes(routes, '/settings/payments');
    const warning = await screen.findByTestId('payments-no-online-method');
    expect(warning).toHaveTextContent('No online payment method for US dollar (U$)');
    expect(warning).toHaveTextContent(/card machine or dental insurance/);
    expect(warning).not.toHaveTextContent('Brazilian real');
    unmount();

    state.payments = { ...state.payments, currenciesWithoutOnlineMethod: [] };
    renderRoutes(routes, '/settings/payments');
    await screen.findByRole('textbox', { name: /Pix key/ });
    expect(screen.queryByTestId('payments-no-online-method')).toBeNull();
  });

  it('payments: refuses a name no Pix code can carry, and shows the server field errors', async () => {
    const { calls } = fakeApi((call) =>
      call.method === 'POST' && call.path === '/settings/payments'
        ? fail(400, 'VALIDATION_ERROR', 'Validation error', { pixKey: 'Key refused by the bank' })
        : undefined,
    );
    renderRoutes(routes, '/settings/payments');
    const user = userEvent.setup();
    const name = await screen.findByRole('textbox', { name: /Merchant name/ });
    await user.clear(name);
    await user.type(name, '12345');
    await user.click(screen.getByRole('button', { name: 'Save payments' }));
    expect(name).toHaveAccessibleDescription(/Contains a character that is not allowed/);
    expect(posts(calls, '/settings/payments')).toHaveLength(0);

    await user.clear(name);
    await user.type(name, 'Clinica Ana');
    await user.click(screen.getByRole('button', { name: 'Save payments' }));
    await waitFor(() => expect(posts(calls, '/settings/payments')).toHaveLength(1));
    await waitFor(() =>
      expect(screen.getByRole('textbox', { name: /Pix key/ })).toHaveAccessibleDescription(
        /Key refused by the bank/,
      ),
    );
  });

  it('announcements: activating one asks first, naming the one that gets deactivated', async () => {
    const { calls } = fakeApi();
    renderRoutes(routes, '/settings/announcements');
    const user = userEvent.setup();
    const row = await screen.findByTestId('announcement-row-2');
    expect(within(screen.getByTestId('announcement-row-1')).getByText('Active')).toBeVisible();
    await user.click(
      within(row).getByRole('button', { name: 'Activate announcement Holiday hours' }),
    );
    const dialog = await screen.findByRole('dialog', { name: 'Activate this announcement?' });
    expect(dialog).toHaveTextContent(
      '“Holiday hours” will be shown to users after login. The announcement active now, “Welcome”, will be deactivated.',
    );

    // Cancelling sends nothing.
    await user.click(within(dialog).getByRole('button', { name: 'Cancel' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    expect(posts(calls, '/profile/announcement')).toHaveLength(0);

    await user.click(screen.getByRole('button', { name: 'Activate announcement Holiday hours' }));
    await user.click(
      within(await screen.findByRole('dialog')).getByRole('button', { name: 'Activate' }),
    );
    await waitFor(() => expect(posts(calls, '/profile/announcement')).toHaveLength(1));
    expect(posts(calls, '/profile/announcement')[0]!.body).toEqual({
      id: 2,
      active: true,
      texts: announcement(2, 'Holiday hours', false).texts,
    });
    expect(await screen.findByText('Announcement “Holiday hours” activated.')).toBeInTheDocument();
    await waitFor(() =>
      expect(screen.getByTestId('announcement-status-2')).toHaveTextContent('Active'),
    );
    expect(screen.getByTestId('announcement-status-1')).toHaveTextContent('Inactive');
  });

  it('announcements: creates one with a title and body per language, inactive', async () => {
    const { calls } = fakeApi();
    renderRoutes(routes, '/settings/announcements');
    const user = userEvent.setup();
    await user.click(await screen.findByRole('button', { name: 'New announcement' }));
    const dialog = await screen.findByRole('dialog', { name: 'New announcement' });
    await user.click(within(dialog).getByRole('button', { name: 'Save announcement' }));
    // No title in any language: the English title is asked for.
    expect(await within(dialog).findByText('This field is required')).toBeInTheDocument();
    expect(posts(calls, '/profile/announcement')).toHaveLength(0);

    await user.type(within(dialog).getByTestId('announcement-title-en'), 'Maintenance');
    await user.type(within(dialog).getByTestId('announcement-body-en'), 'Sunday night.');
    await user.click(within(dialog).getByRole('tab', { name: /Spanish/ }));
    await user.type(within(dialog).getByTestId('announcement-title-es'), 'Mantenimiento');
    await user.click(within(dialog).getByRole('button', { name: 'Save announcement' }));
    await waitFor(() => expect(posts(calls, '/profile/announcement')).toHaveLength(1));
    expect(posts(calls, '/profile/announcement')[0]!.body).toEqual({
      active: false,
      texts: {
        ptBR: { title: '', body: '' },
        en: { title: 'Maintenance', body: 'Sunday night.' },
        es: { title: 'Mantenimiento', body: '' },
      },
    });
    expect(await screen.findByText('Announcement saved.')).toBeInTheDocument();
  });

  it('shipment: edits a fee in the currency format and sends minor units', async () => {
    const { calls } = fakeApi();
    renderRoutes(routes, '/settings/shipment');
    const user = userEvent.setup();
    const sedexBrl = await screen.findByRole('textbox', { name: 'Sedex fee (BRL)' });
    expect(sedexBrl).toHaveValue('30,00');
    // Local withdraw is always free: no fee inputs.
    expect(
      within(screen.getByTestId('shipping-option-2')).getAllByText('Always free'),
    ).toHaveLength(2);

    await user.clear(sedexBrl);
    await user.type(sedexBrl, '12,3x');
    await user.click(screen.getByRole('button', { name: 'Save shipment' }));
    expect(sedexBrl).toHaveAccessibleDescription('Enter an amount such as 1.234,56');
    expect(posts(calls, '/settings/shipping')).toHaveLength(0);

    await user.clear(sedexBrl);
    await user.type(sedexBrl, '1234,5');
    await user.tab();
    expect(sedexBrl).toHaveValue('1.234,50');
    const pacDays = screen.getByRole('textbox', { name: 'PAC delivery days' });
    await user.clear(pacDays);
    await user.type(pacDays, '7');
    await user.click(screen.getByRole('switch', { name: 'PAC offered' }));
    await user.click(screen.getByRole('button', { name: 'Save shipment' }));

    await waitFor(() => expect(posts(calls, '/settings/shipping')).toHaveLength(1));
    expect(posts(calls, '/settings/shipping')[0]!.body).toEqual({
      options: [
        { shipmentType: 0, fees: { BRL: 123450, USD: 1500 }, days: 3, active: true },
        { shipmentType: 1, fees: { BRL: 0, USD: 0 }, days: 7, active: true },
        { shipmentType: 2, fees: { BRL: 0, USD: 0 }, days: 0, active: true },
        { shipmentType: 3, fees: { BRL: 1500, USD: 700 }, days: 1, active: true },
      ],
      motoboyZipRanges: [{ from: '01000000', to: '05999999' }],
    });
    expect(await screen.findByText('Shipping table saved.')).toBeInTheDocument();
  });

  it('shipment: checks the motoboy zip ranges before saving', async () => {
    const { calls } = fakeApi();
    renderRoutes(routes, '/settings/shipment');
    const user = userEvent.setup();
    await user.click(await screen.findByRole('button', { name: 'Add zip range' }));
    await user.type(screen.getByRole('textbox', { name: 'Range 2 from' }), '09000-000');
    await user.type(screen.getByRole('textbox', { name: 'Range 2 to' }), '08000000');
    await user.click(screen.getByRole('button', { name: 'Save shipment' }));
    expect(screen.getByRole('textbox', { name: 'Range 2 from' })).toHaveValue('09000000');
    expect(screen.getByRole('textbox', { name: 'Range 2 to' })).toHaveAccessibleDescription(
      'The end must not come before the start',
    );
    expect(posts(calls, '/settings/shipping')).toHaveLength(0);

    await user.click(screen.getByRole('button', { name: 'Remove range 1' }));
    const to = screen.getByRole('textbox', { name: 'Range 1 to' });
    await user.clear(to);
    await user.type(to, '09999999');
    await user.click(screen.getByRole('button', { name: 'Save shipment' }));
    await waitFor(() => expect(posts(calls, '/settings/shipping')).toHaveLength(1));
    expect(
      (posts(calls, '/settings/shipping')[0]!.body as ShippingSettings).motoboyZipRanges,
    ).toEqual([{ from: '09000000', to: '09999999' }]);
  });

  it('manufacturer: edits sleeve prices and deletes a manufacturer after confirming', async () => {
    const { calls } = fakeApi();
    renderRoutes(routes, '/settings/manufacturer');
    const user = userEvent.setup();
    const row = await screen.findByTestId('sleeve-row-4');
    expect(row).toHaveTextContent('R$ 25,00');
    expect(row).toHaveTextContent('U$ 9.00');

    await user.click(within(row).getByRole('button', { name: 'Edit sleeve manufacturer Sin' }));
    const dialog = await screen.findByRole('dialog', { name: 'Edit sleeve manufacturer Sin' });
    const usd = within(dialog).getByRole('textbox', { name: 'Price (USD)' });
    await user.clear(usd);
    await user.type(usd, '10.5');
    await user.click(within(dialog).getByRole('button', { name: 'Save manufacturer' }));
    await waitFor(() => expect(posts(calls, '/settings/sleeves')).toHaveLength(1));
    expect(posts(calls, '/settings/sleeves')[0]!.body).toEqual({
      sleeves: [{ id: 4, sleeveManufacture: 'Sin', prices: { BRL: 2500, USD: 1050 } }],
    });
    await waitFor(() => expect(screen.getByTestId('sleeve-row-4')).toHaveTextContent('U$ 10.50'));

    await user.click(screen.getByRole('button', { name: 'Delete sleeve manufacturer Sin' }));
    const confirm = await screen.findByRole('dialog', {
      name: 'Delete this sleeve manufacturer?',
    });
    await user.click(within(confirm).getByRole('button', { name: 'Delete' }));
    await waitFor(() => expect(posts(calls, '/settings/sleeves')).toHaveLength(2));
    expect(posts(calls, '/settings/sleeves')[1]!.body).toEqual({
      sleeves: [
        { id: 4, sleeveManufacture: 'Sin', prices: { BRL: 2500, USD: 1050 }, deleted: true },
      ],
    });
    expect(await screen.findByText('No sleeve manufacturers yet')).toBeInTheDocument();
  });

  it('service metadata: adds a kit manufacturer with systems and deactivates another, sending the whole list', async () => {
    const { calls } = fakeApi();
    renderRoutes(routes, '/settings/service-metadata');
    const user = userEvent.setup();
    await user.click(await screen.findByRole('switch', { name: 'Manufacturer Straumann active' }));
    await waitFor(() => expect(posts(calls, '/settings/serviceMetadata')).toHaveLength(1));
    expect(posts(calls, '/settings/serviceMetadata')[0]!.body).toEqual({
      kitManufacturers: [
        { id: 1, manufactureName: 'Neodent', systems: ['GM', 'CM'], active: true },
        { id: 2, manufactureName: 'Straumann', systems: [], active: false },
      ],
    });

    await user.click(screen.getByRole('button', { name: 'New manufacturer' }));
    const dialog = await screen.findByRole('dialog', { name: 'New kit manufacturer' });
    await user.type(within(dialog).getByRole('textbox', { name: /^Manufacturer/ }), 'Nobel');
    await user.type(within(dialog).getByLabelText(/^Systems/), 'Active{Enter}Replace{Enter}');
    await user.click(within(dialog).getByRole('button', { name: 'Save manufacturer' }));
    await waitFor(() => expect(posts(calls, '/settings/serviceMetadata')).toHaveLength(2));
    expect(posts(calls, '/settings/serviceMetadata')[1]!.body).toEqual({
      kitManufacturers: [
        { id: 1, manufactureName: 'Neodent', systems: ['GM', 'CM'], active: true },
        { id: 2, manufactureName: 'Straumann', systems: [], active: false },
        { manufactureName: 'Nobel', systems: ['Active', 'Replace'], active: true },
      ],
    });
    expect(await screen.findByText('Manufacturer saved.')).toBeInTheDocument();
    expect(await screen.findByTestId('kit-manufacturer-row-62')).toHaveTextContent('Nobel');
  });

  it('emails: saves the sender name, the support e-mail and the default events', async () => {
    const { calls } = fakeApi();
    renderRoutes(routes, '/settings/emails');
    const user = userEvent.setup();
    const sender = await screen.findByRole('textbox', { name: /Sender name/ });
    const support = screen.getByRole('textbox', { name: /Support e-mail/ });
    expect(screen.getByRole('checkbox', { name: 'New message' })).toBeChecked();
    await user.clear(sender);
    await user.type(support, 'help at lab');
    await user.click(screen.getByRole('button', { name: 'Save emails' }));
    expect(sender).toHaveAccessibleDescription(/This field is required/);
    expect(support).toHaveAccessibleDescription(/Enter a valid email address/);
    expect(posts(calls, '/settings/emails')).toHaveLength(0);
    await user.clear(support);
    await user.type(support, 'help@lab.test');
    await user.type(sender, 'Dentflow Lab');
    await user.click(screen.getByRole('checkbox', { name: 'File added' }));
    await user.click(screen.getByRole('checkbox', { name: 'New message' }));
    await user.click(screen.getByRole('button', { name: 'Save emails' }));
    await waitFor(() => expect(posts(calls, '/settings/emails')).toHaveLength(1));
    expect(posts(calls, '/settings/emails')[0]!.body).toEqual({
      senderName: 'Dentflow Lab',
      supportEmail: 'help@lab.test',
      defaultEvents: [2, 9],
    });
    expect(await screen.findByText('Email settings saved.')).toBeInTheDocument();
  });

  it('shows the server error of a section that cannot be read, with a retry', async () => {
    fakeApi((call) =>
      call.path === '/settings/shipping'
        ? fail(500, 'INTERNAL_ERROR', 'Something went wrong')
        : undefined,
    );
    renderRoutes(routes, '/settings/shipment');
    expect(
      await screen.findByText('Something went wrong', {}, { timeout: 10_000 }),
    ).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Try again' })).toBeInTheDocument();
  });
});
