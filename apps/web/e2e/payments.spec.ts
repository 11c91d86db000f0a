import { expect, test, type Browser, type Page } from '@playwright/test';
import {
  emptyServiceDataV3,
  formatMoney,
  translate,
  type CheckoutResult,
  type Currency,
  type Language,
  type PaymentMethod,
} from '@dentflow/domain';
import { E2E_PAYPAL_PORT } from './support/environment';
import { queryRows, sql, insertClientFiles } from './support/database';
import { signIn } from './support/session';
import { fieldName } from './support/texts';

/**
 * Payments end to end: a doctor in Portuguese checks out by Pix, sees the QR code and the
 * copy-and-paste code, sends a receipt; the supervisor authorises it from the payments queue and
 * the case shows in `/cases/execute`. The doctor then orders more for that case from its page:
 * the order is an upgrade, the case keeps its status and the new service waits for its own
 * payment. A doctor in English pays with PayPal on the local PayPal sandbox's approval page and
 * lands on `/notification/paypal` with the case paid.
 */

type Ns = 'shop' | 'payments' | 'domain' | 'web' | 'errors' | 'cases';
const tr = (language: Language, ns: Ns, key: string, params?: Record<string, string | number>) =>
  translate(language, ns, key, params);

test.describe.configure({ mode: 'serial', timeout: 90_000 });

/** A doctor of their own (a copy of the demo doctor) in a language, so no journey disturbs another. */
async function payingDoctor(nick: string, language: Language, currency: Currency) {
  await sql(
    `insert into users (email, nick_name, fname, lname, display_name, password_hash, roles,
       internal, data_info, data_address, data_capabilities, verified_at)
     select $1 || '@dentflow.local', $1, 'Paula', 'Pagadora', 'Paula Pagadora',
       password_hash, roles, internal,
       data_info || jsonb_build_object('language', $2::text, 'currency', $3::text),
       data_address, data_capabilities || '{"instructorId": null}'::jsonb, now()
     from users where email = 'doctor@dentflow.local'
     on conflict do nothing`,
    [nick, language, currency],
  );
}

/** Orders the guide planning for a new patient and places the order with `method`. */
async function orderPlanning(
  browser: Browser,
  login: string,
  language: Language,
  method: PaymentMethod,
  patient: { fname: string; lname: string },
): Promise<{ page: Page; result: CheckoutResult }> {
  const shop = (key: string, params?: Record<string, string | number>) =>
    tr(language, 'shop', key, params);
  const [product] = await queryRows<{ name: string }>(
    `select texts -> $1::text ->> 'name' as name from products where code = 'PLAN-GUIDE'`,
    [language],
  );
  const page = await signIn(browser, login, language);
  await page.goto('/shop');
  const card = page.getByTestId('shop-card-PLAN-GUIDE');
  await card.getByRole('button', { name: shop('card.addNamed', { name: product!.name }) }).click();
  await page.getByRole('button', { name: shop('cart.button', { count: 1 }) }).click();
  await page.getByRole('link', { name: shop('cart.checkout') }).click();
  await expect(page).toHaveURL(/\/shop\/checkout$/);
  await page
    .getByRole('textbox', { name: fieldName(shop('checkout.patientFirstName')) })
    .fill(patient.fname);
  await page
    .getByRole('textbox', { name: fieldName(shop('checkout.patientLastName')) })
    .fill(patient.lname);
  await page.getByRole('button', { name: shop('checkout.next') }).click();
  const result = await placeOrder(page, language, method);
  await page.getByTestId('order-pay-now').click();
  await expect(page).toHaveURL(new RegExp(`/case/${result.caseId}\\?tab=transactions$`));
  return { page, result };
}

/** From the cart step of an order where nothing ships: pays with `method` and places it. */
async function placeOrder(
  page: Page,
  language: Language,
  method: PaymentMethod,
): Promise<CheckoutResult> {
  const shop = (key: string) => tr(language, 'shop', key);
  // Nothing ships: the address step is skipped.
  await expect(page.getByRole('heading', { name: shop('payment.title') })).toBeVisible();
  const radio = page.getByRole('radio', {
    name: new RegExp(
      `^${tr(language, 'shop', `paymentMethods.${method}.label`).replace(/[()]/g, '\\$&')}`,
    ),
  });
  await radio.click();
  await expect(radio).toBeChecked();
  const placed = page.waitForResponse(
    (response) =>
      response.url().endsWith('/api/v1/shop/checkout') && response.request().method() === 'POST',
  );
  await page.getByRole('button', { name: shop('checkout.placeOrder') }).click();
  const response = await placed;
  expect(response.status()).toBe(200);
  return ((await response.json()) as { obj: CheckoutResult }).obj;
}

/**
 * What the files and case screens (their own journeys) would have done: the service data filled
 * in (upper jaw) and the client's public files, the guided surgery's required upper-jaw scan and
 * CT exam included — the case's other checks.
 */
async function completeCase(caseId: number, ownerNick: string) {
  const data = {
    ...emptyServiceDataV3(),
    jaw: 'upper',
    implantSystem: { manufactureName: 'Neodent', systemName: 'GM' },
    extractTeeth: false,
    hasOrtho: false,
    plasticGum: false,
    increaseDVO: { checked: false, howMuch: null },
    treatmentPurpose: { purpose: 4 },
    provision: true,
    terms: { checked: true },
    extra: 'E2E',
  };
  await sql(`update case_services set data = $2::jsonb, data_version = 3 where case_id = $1`, [
    caseId,
    JSON.stringify(data),
  ]);
  await insertClientFiles(caseId, ownerNick);
}

const PIX_PATIENT = { fname: 'Iracema', lname: 'Pix Albuquerque' };
/** The case the Pix journey paid (the upgrade journey orders more for it). */
let pixCaseId = 0;

test('Pix: QR code, receipt, the supervisor authorises it, the case is in execution', async ({
  browser,
}) => {
  const language: Language = 'ptBR';
  const pay = (key: string, params?: Record<string, string | number>) =>
    tr(language, 'payments', key, params);
  const patient = PIX_PATIENT;
  await payingDoctor('pixdoctor', language, 'BRL');
  const { page, result } = await orderPlanning(browser, 'pixdoctor', language, 'pix', patient);
  pixCaseId = result.caseId;

  const card = page.getByTestId(`transaction-${result.transactionId}`);
  await expect(card.getByTestId('payment-status')).toHaveText(
    tr(language, 'domain', 'paymentStatuses.awaiting_payment'),
  );
  await expect(card.getByTestId('transaction-total')).toContainText(
    formatMoney(result.breakdown.total, 'BRL'),
  );
  await expect(card.getByRole('img', { name: pay('pay.pixQr') })).toBeVisible();
  const code = await card.getByTestId('pix-code').inputValue();
  expect(code).toMatch(/^000201.*br\.gov\.bcb\.pix.*6304[0-9A-F]{4}$/);
  expect(code).toContain(
    `54${String((result.breakdown.total / 100).toFixed(2).length).padStart(2, '0')}${(result.breakdown.total / 100).toFixed(2)}`,
  );

  await completeCase(result.caseId, 'pixdoctor');
  await card.getByTestId('receipt-open').click();
  const dialog = page.getByRole('dialog', { name: pay('receipt.title') });
  await dialog.locator('input[type=file]').setInputFiles({
    name: 'comprovante.pdf',
    mimeType: 'application/pdf',
    buffer: Buffer.concat([Buffer.from('%PDF-1.4\n'), Buffer.alloc(4000, 0x20)]),
  });
  await dialog
    .getByRole('textbox', { name: fieldName(pay('receipt.justification')) })
    .fill('Pago pelo app do banco');
  await dialog.getByTestId('receipt-confirm').click();
  await expect(dialog).toBeHidden();
  await expect(card.getByText('Pago pelo app do banco')).toBeVisible();
  await expect(card.getByTestId('receipt-open')).toHaveCount(0);
  await page.context().close();

  // The supervisor (English) finds it in the payments queue and authorises the receipt.
  const supervisor = await signIn(browser, 'supervisor', 'en');
  await supervisor.goto('/payments');
  const row = supervisor.getByTestId(`pending-${result.transactionId}`);
  await expect(row).toContainText(tr('en', 'payments', 'queue.waitingFor.receipt'));
  await row.getByTestId('receipt-approve').click();
  const confirm = supervisor.getByRole('dialog', {
    name: tr('en', 'payments', 'confirm.approveReceipt.title'),
  });
  await confirm
    .getByRole('button', { name: tr('en', 'payments', 'confirm.approveReceipt.button') })
    .click();
  await expect(row).toHaveCount(0);

  const [stored] = await queryRows<{ payment_status: string; case_status: string }>(
    `select t.payment_status, c.case_status from transactions t join cases c on c.id = t.case_id
     where t.id = $1`,
    [result.transactionId],
  );
  expect(stored).toEqual({ payment_status: 'paid', case_status: 'execute' });
  await supervisor.goto('/cases/execute');
  await expect(supervisor.getByText(`${patient.fname} ${patient.lname}`)).toBeVisible();
  await supervisor.context().close();
});

test('the doctor orders more for the case in planning: an upgrade waiting for its own payment', async ({
  browser,
}) => {
  expect(pixCaseId).toBeGreaterThan(0);
  const language: Language = 'ptBR';
  const shop = (key: string, params?: Record<string, string | number>) =>
    tr(language, 'shop', key, params);
  const cases = (key: string) => tr(language, 'cases', key);
  const [product] = await queryRows<{ name: string }>(
    `select texts -> 'ptBR' ->> 'name' as name from products where code = 'PLAN-SMILE'`,
  );
  const forCase = { id: pixCaseId, patient: `${PIX_PATIENT.fname} ${PIX_PATIENT.lname}` };

  const page = await signIn(browser, 'pixdoctor', language);
  await page.goto(`/case/${pixCaseId}`);
  // The case has an order: more services come from an order for it, not from 'Add services'.
  await expect(page.getByRole('button', { name: cases('services.add') })).toHaveCount(0);
  await page.getByRole('link', { name: cases('services.orderMore') }).click();
  await expect(page).toHaveURL(/\/shop$/);
  await expect(page.getByTestId('order-for-case')).toContainText(shop('forCase.banner', forCase));
  await page
    .getByTestId('shop-card-PLAN-SMILE')
    .getByRole('button', { name: shop('card.addNamed', { name: product!.name }) })
    .click();
  await page.getByRole('button', { name: shop('cart.button', { count: 1 }) }).click();
  await page.getByRole('link', { name: shop('cart.checkout') }).click();
  const target = page.getByTestId('checkout-case');
  await expect(target).toContainText(shop('forCase.title', forCase));
  await expect(target.getByTestId('checkout-upgrade')).toHaveText(shop('forCase.upgrade'));
  await page.getByRole('button', { name: shop('checkout.next') }).click();
  const result = await placeOrder(page, language, 'pix');
  expect(result.caseId).toBe(pixCaseId);

  // The case keeps its status; the new service waits for its payment before it is planned.
  await page.goto(`/case/${pixCaseId}`);
  await expect(
    page.getByText(cases('services.payment.awaitingUpgrade'), { exact: true }),
  ).toBeVisible();
  const [stored] = await queryRows<{ case_status: string }>(
    `select case_status from cases where id = $1`,
    [pixCaseId],
  );
  expect(stored).toEqual({ case_status: 'execute' });
  await page.context().close();
});

test('PayPal: approval on the provider page, back on /notification/paypal with the case paid', async ({
  browser,
}) => {
  const language: Language = 'en';
  const pay = (key: string, params?: Record<string, string | number>) =>
    tr(language, 'payments', key, params);
  await payingDoctor('paypaldoctor', language, 'USD');
  const { page, result } = await orderPlanning(browser, 'paypaldoctor', language, 'paypal', {
    fname: 'Walter',
    lname: 'PayPal Brennan',
  });
  await completeCase(result.caseId, 'paypaldoctor');

  const card = page.getByTestId(`transaction-${result.transactionId}`);
  await card.getByTestId('pay-button').click();
  // The local PayPal sandbox's approval page (PAYPAL_API_URL of the server under test).
  await expect(page).toHaveURL(
    new RegExp(`127\\.0\\.0\\.1:${E2E_PAYPAL_PORT}/checkoutnow\\?token=`),
  );
  await expect(page).toHaveTitle(/PayPal Sandbox/);
  await page.locator('#approve').click();

  await expect(page).toHaveURL(
    new RegExp(
      `/notification/paypal\\?transaction=${result.transactionId}&reference=[\\w-]+&token=`,
    ),
  );
  await expect(page.getByRole('heading', { name: pay('return.paidTitle') })).toBeVisible();
  await expect(page.getByText(formatMoney(result.breakdown.total, 'USD'))).toBeVisible();
  const [stored] = await queryRows<{ payment_status: string; case_status: string }>(
    `select t.payment_status, c.case_status from transactions t join cases c on c.id = t.case_id
     where t.id = $1`,
    [result.transactionId],
  );
  expect(stored).toEqual({ payment_status: 'paid', case_status: 'execute' });

  await page.getByTestId('return-open-case').click();
  await expect(page).toHaveURL(new RegExp(`/case/${result.caseId}\\?tab=transactions$`));
  await expect(
    page.getByTestId(`transaction-${result.transactionId}`).getByTestId('payment-status'),
  ).toHaveText(tr(language, 'domain', 'paymentStatuses.paid'));
  await page.context().close();
});
