import { expect, request as playwrightRequest, test, type Page } from '@playwright/test';
import {
  emptyServiceDataV3,
  formatMoney,
  translate,
  type CaseDetail,
  type CheckoutResult,
  type Language,
} from '@dentflow/domain';
import { E2E_BASE_URL } from './support/environment';
import { queryRows, sql, insertClientFiles } from './support/database';
import { signIn } from './support/session';
import { apiAccessToken } from './support/two-factor';
import { DEMO_PASSWORD, fieldName } from './support/texts';

/**
 * From order to delivery (pt-BR): a clinic orders the guide combo with three Neodent sleeves,
 * delivered by Sedex, and sends its Pix receipt; the supervisor authorises it and assigns the
 * planner, who requests approval, and the client approves (those steps through the API, as their
 * own journeys cover their screens). The printer opens the production sheet, finds the sleeve
 * manufacturer, the number of sleeves and the address, sees it print on one A4 page, prints and
 * finishes the guide and records the dispatch with its tracking code. The client sees the case
 * dispatched with that code, and the case card says so.
 */

type Ns = 'shop' | 'payments' | 'cases' | 'domain';
const pt = (ns: Ns, key: string, params?: Record<string, string | number>) =>
  translate('ptBR' as Language, ns, key, params);

const CLIENT = 'clinicaguia';
const PRINTER = 'impressora';
const PATIENT = { fname: 'Iolanda', lname: 'Anilha Tavares' };
const SLEEVES = 3;
const TRACKING = 'BR123456785BR';

test.describe.configure({ timeout: 90_000 });

/** A copy of a demo user working in Portuguese with reais, so no other journey is disturbed. */
async function portugueseCopyOf(demo: string, nick: string, name: string) {
  await sql(
    `insert into users (email, nick_name, fname, lname, display_name, password_hash, roles,
       internal, data_info, data_address, data_capabilities, verified_at)
     select $2 || '@dentflow.local', $2, split_part($3, ' ', 1), split_part($3, ' ', 2), $3,
       password_hash, roles, internal,
       data_info || '{"language":"ptBR","currency":"BRL"}'::jsonb,
       data_address, data_capabilities || '{"instructorId": null}'::jsonb, now()
     from users where nick_name = $1
     on conflict do nothing`,
    [demo, nick, name],
  );
}

/** The API as a user, with a session of their own (for the steps other journeys show on screen). */
async function apiAs(login: string) {
  const api = await playwrightRequest.newContext({ baseURL: E2E_BASE_URL });
  // The supervisor signs in with their second factor.
  const accessToken = await apiAccessToken(api, login, DEMO_PASSWORD);
  const headers = { authorization: `Bearer ${accessToken}` };
  return {
    dispose: () => api.dispose(),
    async post<T>(url: string, data: object): Promise<T> {
      const answer = await api.post(`/api/v1/${url}`, { headers, data });
      expect(answer.status(), await answer.text()).toBe(200);
      return ((await answer.json()) as { obj: T }).obj;
    },
  };
}

/** The client's order in the shop: the guide combo, three Neodent sleeves, Sedex, Pix. */
async function orderGuideWithSleeves(page: Page): Promise<CheckoutResult> {
  const shop = (key: string, params?: Record<string, string | number>) => pt('shop', key, params);
  const [combo] = await queryRows<{ name: string }>(
    `select texts -> 'ptBR' ->> 'name' as name from products where code = 'COMBO-GUIDE'`,
  );
  const [neodent] = await queryRows<{ price: number }>(
    `select (prices ->> 'BRL')::int as price from sleeves where sleeve_manufacture = 'Neodent'`,
  );
  const name = combo!.name;
  await page.goto('/shop');
  await page
    .getByTestId('shop-card-COMBO-GUIDE')
    .getByRole('button', { name: shop('card.addNamed', { name }) })
    .click();
  await page.getByRole('button', { name: shop('cart.button', { count: 1 }) }).click();
  await page.getByRole('link', { name: shop('cart.checkout') }).click();
  await expect(page).toHaveURL(/\/shop\/checkout$/);
  await page
    .getByRole('textbox', { name: fieldName(shop('checkout.patientFirstName')) })
    .fill(PATIENT.fname);
  await page
    .getByRole('textbox', { name: fieldName(shop('checkout.patientLastName')) })
    .fill(PATIENT.lname);
  await page
    .getByRole('combobox', { name: fieldName(shop('checkout.sleeveManufacturerNamed', { name })) })
    .click();
  await page
    .getByRole('option', { name: `Neodent · ${formatMoney(neodent!.price, 'BRL')}`, exact: true })
    .click();
  await page
    .getByRole('textbox', { name: fieldName(shop('checkout.sleeveQuantityNamed', { name })) })
    .fill(String(SLEEVES));
  await page.getByRole('button', { name: shop('checkout.next') }).click();

  await page.getByRole('radio', { name: shop('address.profile') }).check();
  const sedex = page.getByRole('radio', {
    name: new RegExp(`^${pt('domain', 'shippingOptions.sedex')}`),
  });
  await sedex.click();
  await expect(sedex).toBeChecked();
  await page.getByRole('button', { name: shop('checkout.next') }).click();

  const pix = page.getByRole('radio', {
    name: new RegExp(`^${pt('shop', 'paymentMethods.pix.label')}`),
  });
  await pix.click();
  await expect(pix).toBeChecked();
  const placed = page.waitForResponse(
    (response) =>
      response.url().endsWith('/api/v1/shop/checkout') && response.request().method() === 'POST',
  );
  await page.getByRole('button', { name: shop('checkout.placeOrder') }).click();
  const response = await placed;
  expect(response.status()).toBe(200);
  const result = ((await response.json()) as { obj: CheckoutResult }).obj;
  await page.getByTestId('order-pay-now').click();
  await expect(page).toHaveURL(new RegExp(`/case/${result.caseId}\\?tab=transactions$`));
  return result;
}

test('the printer reads the production sheet and dispatches; the client sees the tracking code', async ({
  browser,
}) => {
  await portugueseCopyOf('doctor', CLIENT, 'Clínica Guia');
  await portugueseCopyOf('printer', PRINTER, 'Ivo Impressor');
  const [profile] = await queryRows<{ address: string; city: string }>(
    `select data_address ->> 'address' as address, data_address ->> 'city' as city
       from users where nick_name = $1`,
    [CLIENT],
  );

  // The client orders and sends the Pix receipt.
  const client = await signIn(browser, CLIENT, 'ptBR');
  const order = await orderGuideWithSleeves(client);
  const caseUrl = `/case/${order.caseId}`;
  const card = client.getByTestId(`transaction-${order.transactionId}`);
  await card.getByTestId('receipt-open').click();
  const receipt = client.getByRole('dialog', { name: pt('payments', 'receipt.title') });
  await receipt.locator('input[type=file]').setInputFiles({
    name: 'comprovante.pdf',
    mimeType: 'application/pdf',
    buffer: Buffer.concat([Buffer.from('%PDF-1.4\n'), Buffer.alloc(4000, 0x20)]),
  });
  await receipt.getByTestId('receipt-confirm').click();
  await expect(receipt).toBeHidden();

  // What the files and case screens (their own journeys) do: the service data and the client's
  // files, the guided surgery's required upper-jaw scan and CT exam included.
  await sql(`update case_services set data = $2::jsonb, data_version = 3 where case_id = $1`, [
    order.caseId,
    JSON.stringify({
      ...emptyServiceDataV3(),
      jaw: 'upper',
      implantSystem: { manufactureName: 'Neodent', systemName: 'Grand Morse' },
      extractTeeth: false,
      hasOrtho: false,
      plasticGum: false,
      treatmentPurpose: { purpose: 4 },
      provision: true,
      terms: { checked: true },
      extra: 'Implantes no 14 e no 24.',
    }),
  ]);
  await insertClientFiles(order.caseId, CLIENT);

  // The supervisor authorises the receipt and assigns the planner; the planner asks for the
  // client's approval and the client approves with the password.
  const [planner] = await queryRows<{ id: number }>(
    `select id from users where nick_name = 'planner'`,
  );
  const [supervisor, planning, approving] = await Promise.all([
    apiAs('supervisor'),
    apiAs('planner'),
    apiAs(CLIENT),
  ]);
  await supervisor.post(`case/transaction/${order.transactionId}/authReceipt`, { approve: true });
  await supervisor.post(`case/${order.caseId}/planner`, { plannerId: planner!.id });
  const planned = await planning.post<CaseDetail>(`case/${order.caseId}/move`, {
    action: 'requestApproval',
  });
  expect(planned.caseStatus).toBe('approve');
  await approving.post(`case/${order.caseId}/move`, {
    action: 'approve',
    password: DEMO_PASSWORD,
    text: 'Aprovado.',
    serviceIds: planned.services.map((service) => service.id),
  });
  await Promise.all([supervisor, planning, approving].map((session) => session.dispose()));

  // The printer opens the production sheet.
  const printer = await signIn(browser, PRINTER, 'ptBR');
  await printer.goto(caseUrl);
  await printer.getByRole('tab', { name: pt('cases', 'view.tabs.production') }).click();
  const sheet = printer.getByRole('region', { name: pt('cases', 'production.title') });
  await expect(sheet).toContainText(`${PATIENT.fname} ${PATIENT.lname}`);
  await expect(sheet).toContainText(
    pt('cases', 'production.sleevesValue', { n: SLEEVES, manufacturer: 'Neodent' }),
  );
  await expect(sheet).toContainText(pt('domain', 'shippingOptions.sedex'));
  await expect(sheet).toContainText(profile!.address);
  await expect(sheet).toContainText(profile!.city);
  await expect(sheet).toContainText('Neodent / Grand Morse');
  // Money is not the printer's: no amount anywhere on the sheet.
  await expect(sheet).not.toContainText('R$');

  // Printed, the sheet is alone on one A4 page: no app header, tabs or print button.
  await printer.emulateMedia({ media: 'print' });
  await expect(sheet).toBeVisible();
  await expect(
    printer.getByRole('tab', { name: pt('cases', 'view.tabs.production') }),
  ).toBeHidden();
  await expect(sheet.getByRole('button', { name: pt('cases', 'production.print') })).toBeHidden();
  const pdf = await printer.pdf({ format: 'A4', preferCSSPageSize: true });
  expect(pdf.toString('latin1').match(/\/Type\s*\/Page(?!s)/g)).toHaveLength(1);
  await printer.emulateMedia({ media: 'screen' });

  // It prints and finishes the guide, then records the dispatch.
  for (const action of ['startPrint', 'finish']) {
    const label = pt('domain', `caseActions.${action}`);
    await printer
      .getByTestId('case-actions')
      .getByRole('button', { name: label, exact: true })
      .click();
    const confirm = printer.getByRole('dialog');
    await confirm.getByRole('button', { name: label, exact: true }).click();
    await expect(confirm).toBeHidden();
  }
  const dispatch = printer.getByRole('form', { name: pt('cases', 'dispatch.title') });
  await expect(dispatch.getByLabel(fieldName(pt('cases', 'dispatch.carrier')))).toHaveValue(
    'Correios',
  );
  await dispatch.getByLabel(fieldName(pt('cases', 'dispatch.trackingCode'))).fill(TRACKING);
  await dispatch.getByRole('button', { name: pt('cases', 'dispatch.record') }).click();
  await expect(dispatch).toBeHidden();
  await expect(sheet.getByTestId('tracking-code')).toHaveText(TRACKING);
  await printer.context().close();

  // The client sees the case dispatched with the code, and the card says so.
  await client.goto(caseUrl);
  const status = client.getByTestId('delivery-card').getByTestId('dispatch-status');
  await expect(status).toContainText(pt('cases', 'dispatch.shipped'));
  await expect(status.getByTestId('tracking-code')).toHaveText(TRACKING);
  await client.goto('/cases/finished');
  const caseCard = client.getByTestId('case-card').filter({ hasText: PATIENT.fname });
  await expect(caseCard.getByTestId('case-card-dispatch')).toHaveText(
    pt('cases', 'dispatch.shipped'),
  );
  await client.context().close();
});
