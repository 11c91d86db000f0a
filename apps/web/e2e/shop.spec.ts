import { expect, test, type Browser, type Page } from '@playwright/test';
import {
  formatMoney,
  priceLanguageFor,
  translate,
  type CheckoutResult,
  type CouponLookupResponse,
  type Currency,
  type Language,
  type PaymentMethod,
  type QuoteResponse,
} from '@dentflow/domain';
import { queryRows, setUserLanguage } from './support/database';
import { signIn } from './support/session';
import { fieldName } from './support/texts';

/**
 * The shop end to end: a doctor filters the shop, adds the guide combo and a printed
 * guide with sleeves, applies WELCOME10, picks Sedex and sees the server's total in the case
 * currency — in Portuguese with reais (and places the order), and in English with dollars. An
 * admin creates a product with an image and a coupon bound to it, which a doctor then uses.
 * Every interface text comes from the catalogues; product, category and sleeve names come from
 * the database the server reads.
 */

type Ns = 'shop' | 'admin' | 'domain' | 'web' | 'errors';
const tr = (language: Language, ns: Ns, key: string, params?: Record<string, string | number>) =>
  translate(language, ns, key, params);
const escapeRe = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
const startsWith = (text: string) => new RegExp(`^${escapeRe(text)}`);

// A 16×16 PNG, the product image.
const PNG = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAABAAAAAQCAIAAACQkWg2AAAAFklEQVR4nGM4URFAEmIY1TCqYfhqAAAe+5AQTySC1gAAAABJRU5ErkJggg==',
  'base64',
);

/** Product names by code, in a language, as the server stores them. */
async function productNames(codes: string[], language: Language): Promise<Record<string, string>> {
  const rows = await queryRows<{ code: string; name: string }>(
    `select code, texts -> $2::text ->> 'name' as name from products where code = any($1)`,
    [codes, language],
  );
  return Object.fromEntries(rows.map((row) => [row.code, row.name]));
}

const apiObj = async <T>(response: { json: () => Promise<unknown> }) =>
  ((await response.json()) as { obj: T }).obj;

/** Opens the navbar cart, sees its items by name and goes to the checkout. */
async function checkoutFromCart(page: Page, language: Language, names: string[]) {
  const shop = (key: string, params?: Record<string, string | number>) =>
    tr(language, 'shop', key, params);
  await page.getByRole('button', { name: shop('cart.button', { count: names.length }) }).click();
  for (const name of names) {
    await expect(
      page.getByRole('button', { name: shop('cart.removeNamed', { name }) }),
    ).toBeVisible();
  }
  await page.getByRole('link', { name: shop('cart.checkout') }).click();
  await expect(page).toHaveURL(/\/shop\/checkout$/);
  await expect(page.getByRole('heading', { name: shop('checkout.title'), level: 1 })).toBeVisible();
}

async function fillPatient(page: Page, language: Language, fname: string, lname: string) {
  await page
    .getByRole('textbox', { name: fieldName(tr(language, 'shop', 'checkout.patientFirstName')) })
    .fill(fname);
  await page
    .getByRole('textbox', { name: fieldName(tr(language, 'shop', 'checkout.patientLastName')) })
    .fill(lname);
}

/** Types a coupon and waits for the live lookup; the page says what it takes off. */
async function applyCoupon(
  page: Page,
  language: Language,
  currency: Currency,
  code: string,
): Promise<CouponLookupResponse> {
  const lookup = page.waitForResponse((response) =>
    response.url().includes(`/api/v1/products/coupom/lookup/${code}?`),
  );
  await page
    .getByRole('textbox', { name: fieldName(tr(language, 'shop', 'checkout.coupon')) })
    .fill(code);
  const found = await apiObj<CouponLookupResponse>(await lookup);
  expect(found.applicable, `coupon ${code}: ${found.message}`).toBe(true);
  expect(found.discount).toBeGreaterThan(0);
  await expect(page.getByRole('status').filter({ hasText: found.code })).toHaveText(
    tr(language, 'shop', 'checkout.couponApplies', {
      code: found.code,
      discount: formatMoney(found.discount, currency),
    }),
  );
  return found;
}

/**
 * Chooses a payment method and returns the quote the page received for exactly that order:
 * the request naming the method is the last change, so its answer is what the summary shows.
 */
async function choosePayment(
  page: Page,
  language: Language,
  method: PaymentMethod,
): Promise<QuoteResponse> {
  await expect(
    page.getByRole('heading', { name: tr(language, 'shop', 'payment.title') }),
  ).toBeVisible();
  const quoted = page.waitForResponse((response) => {
    if (!response.url().endsWith('/api/v1/shop/quote')) return false;
    const body = response.request().postDataJSON() as { paymentMethod?: string } | null;
    return body?.paymentMethod === method;
  });
  const radio = page.getByRole('radio', {
    name: startsWith(tr(language, 'shop', `paymentMethods.${method}.label`)),
  });
  await radio.click();
  await expect(radio).toBeChecked();
  const response = await quoted;
  expect(response.status()).toBe(200);
  return apiObj<QuoteResponse>(response);
}

/** The summary shows the server's total in the case currency, `R$ 1.234,56` or `U$ 1,234.56`. */
async function expectSummaryTotal(page: Page, quote: QuoteResponse, currency: Currency) {
  const shown = formatMoney(quote.breakdown.total, currency);
  expect(shown).toMatch(
    currency === 'BRL' ? /^R\$ \d{1,3}(\.\d{3})*,\d{2}$/ : /^U\$ \d{1,3}(,\d{3})*\.\d{2}$/,
  );
  await expect(page.getByTestId('checkout-total')).toHaveText(shown);
}

// ─────────────────────────── journeys 1 and 2: the guide order ───────────────────────────

interface GuideOrder {
  language: Language;
  currency: Currency;
  /** What the doctor types in the search box (accents left out on purpose in Portuguese). */
  search: string;
  method: PaymentMethod;
  patient: { fname: string; lname: string };
}

const GUIDE_CODES = ['COMBO-GUIDE', 'MFG-GUIDE', 'PLAN-GUIDE', 'PLAN-IMPLANT', 'PLAN-ORTHO'];
const SLEEVES_PER_GUIDE = 2;

/**
 * The doctor filters the shop, adds the guide combo and the printed guide, fills the patient and
 * the sleeves, applies WELCOME10, delivers to the profile address by Sedex and chooses a payment
 * method. Returns the page on the payment step and the server's quote for that order.
 */
async function orderGuides(browser: Browser, order: GuideOrder) {
  const { language, currency } = order;
  const shop = (key: string, params?: Record<string, string | number>) =>
    tr(language, 'shop', key, params);
  const names = await productNames(GUIDE_CODES, language);
  const [category] = await queryRows<{ name: string }>(
    `select names ->> $1::text as name from product_categories where id = 3`,
    [language],
  );
  const sleeves = await queryRows<{ name: string; price: number }>(
    `select sleeve_manufacture as name, (prices ->> $1::text)::int as price
     from sleeves where deleted_at is null order by id limit 2`,
    [currency],
  );
  expect(sleeves).toHaveLength(2);

  // The demo doctor (Brazilian as seeded) in the journey's language and its currency.
  await setUserLanguage('doctor', language);
  const page = await signIn(browser, 'doctor', language);
  await page.goto('/shop');
  await expect(page.getByRole('heading', { name: shop('list.title'), level: 1 })).toBeVisible();
  await expect(page.getByTestId('shop-card-PLAN-ORTHO')).toBeVisible();

  // Category 'guided implant surgery', then the text: only the three guide products remain.
  // A chip: its checkbox is visually hidden, the label is what one clicks.
  const categories = page.getByRole('group', { name: shop('list.categories') });
  await categories.getByText(category!.name, { exact: true }).click();
  await expect(categories.getByRole('checkbox', { name: category!.name })).toBeChecked();
  await expect(page.getByTestId('shop-card-PLAN-ORTHO')).toHaveCount(0);
  await expect(page.getByTestId('shop-card-PLAN-IMPLANT')).toBeVisible();
  await page.getByRole('searchbox', { name: shop('list.search') }).fill(order.search);
  await expect(page.getByTestId('shop-card-PLAN-IMPLANT')).toHaveCount(0);
  await expect(page.getByText(shop('list.total', { n: 3 }))).toBeVisible();
  for (const code of ['COMBO-GUIDE', 'MFG-GUIDE', 'PLAN-GUIDE']) {
    await expect(page.getByTestId(`shop-card-${code}`)).toBeVisible();
  }

  const combo = names['COMBO-GUIDE']!;
  const guide = names['MFG-GUIDE']!;
  for (const [code, name] of [
    ['COMBO-GUIDE', combo],
    ['MFG-GUIDE', guide],
  ] as const) {
    const card = page.getByTestId(`shop-card-${code}`);
    await card.getByRole('button', { name: shop('card.addNamed', { name }) }).click();
    await expect(
      card.getByRole('button', { name: shop('card.removeNamed', { name }) }),
    ).toBeVisible();
  }

  await checkoutFromCart(page, language, [combo, guide]);
  await fillPatient(page, language, order.patient.fname, order.patient.lname);
  // Both items carry the kit and sleeve options: a manufacturer and a number of sleeves each.
  for (const [index, name] of [combo, guide].entries()) {
    const sleeve = sleeves[index]!;
    await page
      .getByRole('combobox', {
        name: fieldName(shop('checkout.sleeveManufacturerNamed', { name })),
      })
      .click();
    await page
      .getByRole('option', {
        name: `${sleeve.name} · ${formatMoney(sleeve.price, currency)}`,
        exact: true,
      })
      .click();
    await page
      .getByRole('textbox', { name: fieldName(shop('checkout.sleeveQuantityNamed', { name })) })
      .fill(String(SLEEVES_PER_GUIDE));
  }
  const coupon = await applyCoupon(page, language, currency, 'WELCOME10');
  await page.getByRole('button', { name: shop('checkout.next') }).click();

  // Address: the profile address, delivered by Sedex.
  await page.getByRole('radio', { name: shop('address.profile') }).check();
  const sedex = page.getByRole('radio', {
    name: startsWith(tr(language, 'domain', 'shippingOptions.sedex')),
  });
  await sedex.click();
  await expect(sedex).toBeChecked();
  await page.getByRole('button', { name: shop('checkout.next') }).click();

  const quote = await choosePayment(page, language, order.method);
  const b = quote.breakdown;
  expect(quote.problems).toEqual({});
  expect(b.currency).toBe(currency);
  expect(b.coupon).toBe('WELCOME10');
  await expectSummaryTotal(page, quote, currency);

  // The server's prices, checked against the catalogue it reads (prices in the case currency).
  const priceLanguage = priceLanguageFor(currency);
  const [prices] = await queryRows<{ planning: number; manufacture: number; sedex: number }>(
    `select
       (select (texts -> $1::text ->> 'price')::int from products where code = 'PLAN-GUIDE') as planning,
       (select (texts -> $1::text ->> 'price')::int from products where code = 'MFG-GUIDE') as manufacture,
       (select (o -> 'fees' ->> $2::text)::int
          from settings, jsonb_array_elements(value -> 'options') o
          where key = 'shipping' and (o ->> 'shipmentType')::int = 0) as sedex`,
    [priceLanguage, currency],
  );
  expect(b.planningPrice).toBe(prices!.planning);
  expect(b.manufacturePrice).toBe(2 * prices!.manufacture);
  expect(b.sleevesPrice).toBe(SLEEVES_PER_GUIDE * (sleeves[0]!.price + sleeves[1]!.price));
  expect(b.shippingFee).toBe(prices!.sedex);
  expect(b.comboDiscount).toBeGreaterThan(0);
  expect(b.couponDiscount).toBe(coupon.discount);
  // A coupon replaces the instructor's discount (the demo doctor has one).
  expect(b.instructorDiscount).toBe(0);
  expect(
    b.planningPrice +
      b.manufacturePrice +
      b.sleevesPrice -
      b.comboDiscount -
      b.couponDiscount +
      b.shippingFee,
  ).toBe(b.total);

  // Every line of the summary, with its label and the server's amount.
  const rows: [string, string, number][] = [
    ['planning', shop('summary.planning'), b.planningPrice],
    ['manufacture', shop('summary.manufacture'), b.manufacturePrice],
    ['sleeves', shop('summary.sleeves'), b.sleevesPrice],
    ['comboDiscount', shop('summary.comboDiscount'), -b.comboDiscount],
    ['couponDiscount', shop('summary.couponNamed', { code: 'WELCOME10' }), -b.couponDiscount],
    ['shipping', shop('summary.shipping'), b.shippingFee],
  ];
  for (const [kind, label, amount] of rows) {
    const row = page.getByTestId(`breakdown-${kind}`);
    await expect(row).toContainText(label);
    await expect(row).toContainText(formatMoney(amount, currency));
  }
  await expect(page.getByTestId('breakdown-instructorDiscount')).toHaveCount(0);
  return { page, quote };
}

test.describe('a doctor in Portuguese (reais)', () => {
  const PATIENT = { fname: 'Benedita', lname: 'Guimarães Couto' };

  test('filters the shop, orders a guide combo and a guide with sleeves and pays by Pix', async ({
    browser,
  }) => {
    const language: Language = 'ptBR';
    const shop = (key: string, params?: Record<string, string | number>) =>
      tr(language, 'shop', key, params);
    const { page, quote } = await orderGuides(browser, {
      language,
      currency: 'BRL',
      search: 'guia cirurgico',
      method: 'pix',
      patient: PATIENT,
    });
    const total = quote.breakdown.total;

    const placed = page.waitForResponse(
      (response) =>
        response.url().endsWith('/api/v1/shop/checkout') && response.request().method() === 'POST',
    );
    await page.getByRole('button', { name: shop('checkout.placeOrder') }).click();
    const response = await placed;
    expect(response.status()).toBe(200);
    const result = await apiObj<CheckoutResult>(response);
    expect(result.breakdown.total).toBe(total);
    const [transaction] = await queryRows<Record<string, unknown>>(
      `select case_id, price_total, price_shipping, payment_status, payment_method, currency
       from transactions where id = $1`,
      [result.transactionId],
    );
    expect(transaction).toEqual({
      case_id: result.caseId,
      price_total: total,
      price_shipping: quote.breakdown.shippingFee,
      payment_status: 'awaiting_payment',
      payment_method: 'pix',
      currency: 'BRL',
    });

    // The confirmation: awaiting payment, the same total; the cart is empty.
    await expect(page.getByRole('heading', { name: shop('placed.title') })).toBeVisible();
    await expect(page.getByTestId('order-total')).toHaveText(formatMoney(total, 'BRL'));
    await expect(
      page.getByText(tr(language, 'domain', 'paymentStatuses.awaiting_payment'), { exact: true }),
    ).toBeVisible();
    await expect(
      page.getByRole('button', { name: shop('cart.button', { count: 0 }) }),
    ).toBeVisible();

    await page.getByRole('link', { name: shop('placed.openCase', { id: result.caseId }) }).click();
    await expect(page).toHaveURL(new RegExp(`/case/${result.caseId}$`));
    await expect(
      page.getByRole('heading', { name: `${PATIENT.fname} ${PATIENT.lname}` }),
    ).toBeVisible();
    await expect(
      page
        .locator('.mantine-Badge-root', {
          hasText: tr(language, 'domain', 'caseStatuses.checkingout'),
        })
        .first(),
    ).toBeVisible();
    await page.context().close();
  });
});

test('a doctor in English (dollars) orders the same and reaches the payment step', async ({
  browser,
}) => {
  const { page } = await orderGuides(browser, {
    language: 'en',
    currency: 'USD',
    search: 'surgical guide',
    method: 'paypal',
    patient: { fname: 'Harriet', lname: 'Ashworth' },
  });
  await expect(
    page.getByRole('button', { name: tr('en', 'shop', 'checkout.placeOrder') }),
  ).toBeEnabled();
  await page.context().close();
});

// ─────────────────────────── journey 3: admin product and coupon ───────────────────────────

test.describe('an admin creates a product and a coupon that a doctor uses', () => {
  test.describe.configure({ mode: 'serial' });

  const stamp = Date.now().toString(36).toUpperCase();
  const product = {
    code: `E2E-SHOP-${stamp}`,
    names: {
      ptBR: `Planejamento de teste ${stamp}`,
      en: `Test planning ${stamp}`,
      es: `Planificación de prueba ${stamp}`,
    } as Record<Language, string>,
    // Typed as each language's currency writes amounts (ptBR reais, en/es dollars).
    typedPrices: { ptBR: '6.172,80', en: '1,234.60', es: '1,234.60' } as Record<Language, string>,
  };
  const couponCode = `E2E15${stamp}`;
  const COUPON_PERCENT = 15;
  /** Minor units of what the admin typed: the digits of a two-decimal amount. */
  const cents = (typed: string) => Number(typed.replace(/\D/g, ''));
  let productId = 0;
  let couponId = 0;

  test('the admin creates a product with an image', async ({ browser }) => {
    const language: Language = 'en';
    const admin = (key: string, params?: Record<string, string | number>) =>
      tr(language, 'admin', key, params);
    const [category] = await queryRows<{ name: string }>(
      `select names ->> 'en' as name from product_categories where id = 8`,
    );

    const page = await signIn(browser, 'admin', language);
    await page.goto('/products');
    await expect(
      page.getByRole('heading', { name: admin('products.title'), level: 1 }),
    ).toBeVisible();
    await page.getByRole('button', { name: admin('products.new') }).click();
    const form = page.getByRole('form', { name: admin('products.form.createTitle') });
    await expect(form).toBeVisible();

    await form
      .getByRole('textbox', { name: fieldName(admin('products.form.code')) })
      .fill(product.code);
    await form
      .getByRole('combobox', { name: fieldName(admin('products.form.category')) })
      .selectOption({ label: category!.name });
    await form.getByRole('radio', { name: tr(language, 'domain', 'productTypes.single') }).check();
    await form
      .getByRole('combobox', { name: fieldName(admin('products.form.productKind')) })
      .selectOption({ label: tr(language, 'domain', 'productKinds.planning') });

    for (const [lang, currency] of [
      ['ptBR', 'BRL'],
      ['en', 'USD'],
      ['es', 'USD'],
    ] as const) {
      await form.getByRole('tab', { name: tr(language, 'domain', `languages.${lang}`) }).click();
      await form.getByRole('switch', { name: admin('products.form.publish') }).check();
      await form
        .getByRole('textbox', { name: admin('products.form.name'), exact: true })
        .fill(product.names[lang]);
      await form
        .getByRole('textbox', { name: admin('products.form.price', { currency }) })
        .fill(product.typedPrices[lang]);
    }

    await form
      .getByLabel(admin('products.image.label'), { exact: true })
      .setInputFiles({ name: 'product.png', mimeType: 'image/png', buffer: PNG });
    await expect(form.getByText(admin('products.image.ready'))).toBeVisible();

    const saved = page.waitForResponse((response) =>
      response.url().endsWith('/api/v1/products/set/0'),
    );
    await form.getByRole('button', { name: admin('products.form.save') }).click();
    const response = await saved;
    expect(response.status()).toBe(200);
    productId = (await apiObj<{ id: number }>(response)).id;
    await expect(form).toBeHidden();

    // The row, with its thumbnail loaded from the product's image URL.
    const row = page.getByTestId(`product-row-${productId}`);
    await expect(row).toContainText(product.code);
    await expect(row).toContainText(formatMoney(cents(product.typedPrices.ptBR), 'BRL'));
    await expect(row).toContainText(formatMoney(cents(product.typedPrices.en), 'USD'));
    const thumbnail = row.getByRole('img', {
      name: admin('products.imageOf', { name: product.names.en }),
    });
    await expect(thumbnail).toBeVisible();
    await expect
      .poll(() => thumbnail.evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth))
      .toBeGreaterThan(0);

    const [stored] = await queryRows<{
      texts: Record<Language, { price: number; publish: boolean; name: string }>;
      image: string | null;
      product_kind: number;
      product_type: number;
      product_category_id: number;
    }>(
      `select texts, image, product_kind, product_type, product_category_id from products
       where id = $1`,
      [productId],
    );
    expect(stored!.image).toBeTruthy();
    expect([stored!.product_kind, stored!.product_type, stored!.product_category_id]).toEqual([
      1, 1, 8,
    ]);
    for (const lang of ['ptBR', 'en', 'es'] as const) {
      expect(stored!.texts[lang]).toMatchObject({
        name: product.names[lang],
        price: cents(product.typedPrices[lang]),
        publish: true,
      });
    }
    await page.context().close();
  });

  test('the admin creates a percent coupon bound to that product', async ({ browser }) => {
    expect(productId, 'the product the step before created').toBeGreaterThan(0);
    const language: Language = 'en';
    const admin = (key: string, params?: Record<string, string | number>) =>
      tr(language, 'admin', key, params);

    const page = await signIn(browser, 'admin', language);
    await page.goto('/coupoms');
    await expect(
      page.getByRole('heading', { name: admin('coupons.title'), level: 1 }),
    ).toBeVisible();
    await page.getByRole('button', { name: admin('coupons.new') }).click();
    const dialog = page.getByRole('dialog', { name: admin('coupons.form.newTitle') });
    await dialog
      .getByRole('textbox', { name: fieldName(admin('coupons.form.code')) })
      .fill(couponCode);
    await dialog.getByRole('combobox', { name: fieldName(admin('coupons.form.type')) }).click();
    await page
      .getByRole('option', { name: tr(language, 'domain', 'couponTypes.percent'), exact: true })
      .click();
    await dialog
      .getByRole('textbox', { name: fieldName(admin('coupons.form.valuePercent')) })
      .fill(String(COUPON_PERCENT));
    const productSelect = dialog.getByRole('combobox', {
      name: fieldName(admin('coupons.form.bind2Product')),
    });
    await productSelect.click();
    await productSelect.fill(product.code);
    await page
      .getByRole('option', { name: `${product.names.en} (${product.code})`, exact: true })
      .click();

    const saved = page.waitForResponse((response) =>
      response.url().endsWith('/api/v1/products/coupom/set/0'),
    );
    await dialog.getByRole('button', { name: admin('coupons.form.save') }).click();
    expect((await saved).status()).toBe(200);
    await expect(dialog).toBeHidden();
    await expect(page.getByText(admin('coupons.form.saved', { code: couponCode }))).toBeVisible();

    const [coupon] = await queryRows<Record<string, unknown>>(
      `select id, coupom_type, value, bind2_product, used, active from coupons
       where lower(code) = lower($1)`,
      [couponCode],
    );
    expect(coupon).toMatchObject({
      coupom_type: 1,
      value: COUPON_PERCENT,
      bind2_product: productId,
      used: 0,
      active: true,
    });
    couponId = coupon!.id as number;
    await page.context().close();
  });

  test("a doctor finds the product, applies the admin's coupon and places the order", async ({
    browser,
  }) => {
    expect(couponId, 'the coupon the step before created').toBeGreaterThan(0);
    const language: Language = 'en';
    const shop = (key: string, params?: Record<string, string | number>) =>
      tr(language, 'shop', key, params);
    const name = product.names.en;
    const price = cents(product.typedPrices.en);
    const expectedDiscount = Math.round((price * COUPON_PERCENT) / 100);

    await setUserLanguage('doctor', language);
    const page = await signIn(browser, 'doctor', language);
    await page.goto('/shop');
    await page.getByRole('searchbox', { name: shop('list.search') }).fill(name);
    const card = page.getByTestId(`shop-card-${product.code}`);
    await expect(card).toBeVisible();
    await expect(page.getByText(shop('list.total', { n: 1 }))).toBeVisible();
    await expect(card).toContainText(formatMoney(price, 'USD'));
    await card.getByRole('button', { name: shop('card.addNamed', { name }) }).click();

    await checkoutFromCart(page, language, [name]);
    await fillPatient(page, language, 'Cornelius', 'Whitfield');
    const coupon = await applyCoupon(page, language, 'USD', couponCode);
    expect(coupon.discount).toBe(expectedDiscount);
    // Nothing ships: the next step is the payment.
    await page.getByRole('button', { name: shop('checkout.next') }).click();

    const quote = await choosePayment(page, language, 'paypal');
    expect(quote.problems).toEqual({});
    expect(quote.breakdown).toMatchObject({
      currency: 'USD',
      planningPrice: price,
      couponDiscount: expectedDiscount,
      instructorDiscount: 0,
      shippingFee: 0,
      total: price - expectedDiscount,
    });
    const couponRow = page.getByTestId('breakdown-couponDiscount');
    await expect(couponRow).toContainText(shop('summary.couponNamed', { code: couponCode }));
    await expect(couponRow).toContainText(formatMoney(-expectedDiscount, 'USD'));
    await expectSummaryTotal(page, quote, 'USD');

    const placed = page.waitForResponse(
      (response) =>
        response.url().endsWith('/api/v1/shop/checkout') && response.request().method() === 'POST',
    );
    await page.getByRole('button', { name: shop('checkout.placeOrder') }).click();
    const response = await placed;
    expect(response.status()).toBe(200);
    const result = await apiObj<CheckoutResult>(response);
    expect(result.breakdown.total).toBe(price - expectedDiscount);
    await expect(page.getByTestId('order-total')).toHaveText(
      formatMoney(price - expectedDiscount, 'USD'),
    );

    const [usage] = await queryRows<{ used: number; uses: number; transaction_coupon: number }>(
      `select c.used,
         (select count(*)::int from coupon_uses u where u.coupon_id = c.id) as uses,
         (select coupom_id from transactions t where t.id = $2) as transaction_coupon
       from coupons c where c.id = $1`,
      [couponId, result.transactionId],
    );
    expect(usage).toEqual({ used: 1, uses: 1, transaction_coupon: couponId });
    await page.context().close();
  });
});
