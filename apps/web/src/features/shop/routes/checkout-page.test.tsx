import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import {
  emptyDataInfo,
  translate,
  type AdminProduct,
  type CaseDetail,
  type CheckoutBody,
  type Currency,
  type Language,
  type PaymentMethodsUnavailable,
  type QuoteRequest,
  type QuoteResponse,
  type UserProfile,
} from '@dentflow/domain';
import { applyLanguage } from '../../../lib/i18n';
import { fail, mockFetch, ok, type RecordedCall } from '../../../test/fetch-mock';
import { completeProfile } from '../../../test/profiles';
import { renderRoutes } from '../../../test/render';
import { caseDetail } from '../../cases/test-fixtures';
import { cartStorageKey, dispatchCart } from '../cart/cart-store';
import { readOrderForCase, setOrderForCase } from '../cart/order-for-case';
import { toggleProduct } from '../cart/cart-products';
import { adminProduct, breakdown, quoteResponse, shopProduct } from '../test-fixtures';
import { CheckoutPage } from './checkout-page';

const routes = [
  { path: '/shop/checkout', element: <CheckoutPage /> },
  { path: '/case/:id', element: <p>case view</p> },
];

const texts = (name: string, brl: number, usd: number) => ({
  ptBR: { name: `${name} (pt)`, description: '', price: brl, discount: 0, publish: true },
  en: { name, description: '', price: usd, discount: 0, publish: true },
  es: { name: `${name} (es)`, description: '', price: usd, discount: 0, publish: true },
});

/** The catalogue as `GET /products/get/{id}` answers it. */
const PRODUCTS: Record<number, AdminProduct> = {
  1: adminProduct({ id: 1, qtdOption: 2, qtdMax: 2, texts: texts('Guide planning', 45000, 9000) }),
  2: adminProduct({
    id: 2,
    code: 'MFG-GUIDE',
    productKind: 2,
    enableKit: true,
    enableSleeve: true,
    shipping: true,
    texts: texts('Printed guide', 20000, 4000),
  }),
  3: adminProduct({
    id: 3,
    code: 'MFG-MOCKUP',
    productKind: 2,
    texts: texts('Mock-up', 4000, 800),
  }),
};

/** Puts products in user 7's cart, as the shop's toggle does. */
function fillCart(...ids: number[]) {
  for (const id of ids) {
    const product = PRODUCTS[id]!;
    dispatchCart(
      7,
      toggleProduct(
        shopProduct({ id, productKind: product.productKind, qtdOption: product.qtdOption }),
      ),
    );
  }
}

const storedCart = () => JSON.parse(window.localStorage.getItem(cartStorageKey(7)) ?? 'null');

interface FakeOptions {
  currency?: Currency;
  language?: Language;
  checkout?: (call: RecordedCall) => Response | Promise<Response>;
  quote?: (request: QuoteRequest) => unknown;
  /** Cases as `GET /case/{id}/get` answers them. */
  cases?: CaseDetail[];
}

function fakeApi({
  currency = 'BRL',
  language = 'en',
  checkout,
  quote,
  cases = [],
}: FakeOptions = {}) {
  return mockFetch((call) => {
    const path = call.path;
    const caseRead = /^\/case\/(\d+)\/get$/.exec(path);
    if (caseRead) {
      const found = cases.find((item) => item.id === Number(caseRead[1]));
      return found ? ok(found) : fail(404, 'NOT_FOUND', 'Not found');
    }
    if (path === '/profile/get')
      return ok(completeProfile({ dataInfo: { ...emptyDataInfo(language), currency } }));
    const product = /^\/products\/get\/(\d+)$/.exec(path);
    if (product) {
      const found = PRODUCTS[Number(product[1])];
      return found ? ok(found) : fail(404, 'NOT_FOUND', 'Not found');
    }
    if (path.startsWith('/case/list/new/0'))
      return ok({ items: [], total: 0, page: 0, pageSize: 100 });
    if (path.startsWith('/shop/fetchSleeves'))
      return ok([{ id: 5, sleeve_manufacture: 'Neodent', sleeve_price: 1200, currency }]);
    if (path === '/shop/fetchAddress')
      return ok({ profile: completeProfile().dataAddress, deliveries: [] });
    if (path.startsWith('/shop/getShippingPrice/01310100'))
      return ok([
        { shipmentType: 0, fee: 3500, days: 3, currency },
        { shipmentType: 2, fee: 0, days: 1, currency },
      ]);
    if (path.startsWith('/products/coupom/lookup/WELCOME10'))
      return ok({
        code: 'WELCOME10',
        applicable: true,
        rejection: null,
        message: '',
        coupomType: 1,
        value: 10,
        discount: 4500,
        currency,
      });
    if (path === '/shop/quote')
      return ok(
        quote?.(call.body as QuoteRequest) ??
          quoteResponse({ breakdown: breakdown({ currency }), paymentMethods: ['pix', 'paypal'] }),
      );
    if (path === '/shop/checkout' && checkout) return checkout(call);
    return fail(404, 'NOT_FOUND', 'Not found');
  });
}

const quoteBodies = (calls: RecordedCall[]) =>
  calls.filter((c) => c.path === '/shop/quote').map((c) => c.body as QuoteRequest);
const checkoutBodies = (calls: RecordedCall[]) =>
  calls.filter((c) => c.path === '/shop/checkout').map((c) => c.body as CheckoutBody);

async function fillPatient(user: ReturnType<typeof userEvent.setup>) {
  await user.type(await screen.findByLabelText(/Patient's first name/), 'Maria');
  await user.type(screen.getByLabelText(/Patient's last name/), 'Silva');
}

describe('checkout', { timeout: 30_000 }, () => {
  beforeEach(async () => {
    window.sessionStorage.clear();
    await applyLanguage('en');
  });
  afterEach(() => vi.unstubAllGlobals());

  it.each([
    ['ptBR', 'BRL', 'Mostrar resumo do pedido', 'R$ 1.234,56', 'R$ 1.000,00', '-R$ 5,44'],
    ['en', 'USD', 'Show order summary', 'U$ 1,234.56', 'U$ 1,000.00', '-U$ 5.44'],
  ] as const)(
    'shows the server breakdown line by line in %s (%s)',
    async (language, currency, showSummary, total, planning, coupon) => {
      await applyLanguage(language);
      fillCart(1);
      fakeApi({
        currency,
        language,
        quote: () =>
          quoteResponse({
            breakdown: breakdown({
              currency,
              lines: [
                {
                  cartProductId: 1,
                  name: 'Guide planning',
                  quantity: 2,
                  planningPrice: 100000,
                  manufacturePrice: 20000,
                  sleevesPrice: 5000,
                  comboDiscount: 1000,
                  lineDiscount: 544,
                },
              ],
              planningPrice: 100000,
              manufacturePrice: 20000,
              sleevesPrice: 5000,
              subtotal: 125000,
              comboDiscount: 1000,
              couponDiscount: 544,
              coupon: 'WELCOME10',
              total: 123456,
            }),
          }),
      });
      renderRoutes(routes, '/shop/checkout');
      const user = userEvent.setup();
      // On a phone the summary folds away; its toggle shows the total.
      const toggle = await screen.findByRole('button', { name: new RegExp(showSummary) });
      await waitFor(() => expect(toggle).toHaveTextContent(total));
      await user.click(toggle);
      expect(screen.getByTestId('checkout-total')).toHaveTextContent(total);
      expect(screen.getByTestId('breakdown-planning')).toHaveTextContent(planning);
      expect(screen.getByTestId('breakdown-couponDiscount')).toHaveTextContent(coupon);
      expect(screen.getByTestId('breakdown-couponDiscount')).toHaveTextContent('WELCOME10');
      for (const kind of ['manufacture', 'sleeves', 'comboDiscount'])
        expect(screen.getByTestId(`breakdown-${kind}`)).toBeInTheDocument();
      // Nothing ships and there is no instructor discount: no such lines.
      expect(screen.queryByTestId('breakdown-shipping')).toBeNull();
      expect(screen.queryByTestId('breakdown-instructorDiscount')).toBeNull();
      expect(screen.getByTestId('breakdown-item-1')).toHaveTextContent('Guide planning × 2');
    },
  );

  it('asks for sleeves only for items with the kit and sleeve options, and sends them', async () => {
    fillCart(1, 2, 3);
    const { calls } = fakeApi();
    renderRoutes(routes, '/shop/checkout');
    const user = userEvent.setup();
    expect(
      await screen.findByLabelText('Sleeve manufacturer for Printed guide'),
    ).toBeInTheDocument();
    expect(screen.getByLabelText('Number of sleeves for Printed guide')).toBeInTheDocument();
    expect(await screen.findByText('Mock-up')).toBeInTheDocument();
    for (const name of ['Mock-up', 'Guide planning']) {
      expect(screen.queryByLabelText(`Sleeve manufacturer for ${name}`)).toBeNull();
      expect(screen.queryByLabelText(`Number of sleeves for ${name}`)).toBeNull();
    }

    // The domain's checkout rules hold the step until they are filled.
    await fillPatient(user);
    await user.click(screen.getByRole('button', { name: 'Continue' }));
    expect(screen.getByText('Choose the sleeve manufacturer')).toBeInTheDocument();
    expect(screen.getByText('Enter how many sleeves you need')).toBeInTheDocument();

    await user.click(screen.getByLabelText('Sleeve manufacturer for Printed guide'));
    await user.click(await screen.findByRole('option', { name: /Neodent/, hidden: true }));
    await user.type(screen.getByLabelText('Number of sleeves for Printed guide'), '3');
    expect(storedCart().items[1].manufactureData).toEqual({ sleevesManufacture: 5, sleevesQtd: 3 });
    await waitFor(() =>
      expect(quoteBodies(calls).at(-1)?.items[1]?.manufactureData).toEqual({
        sleevesManufacture: 5,
        sleevesQtd: 3,
      }),
    );
    await user.click(screen.getByRole('button', { name: 'Continue' }));
    expect(await screen.findByRole('heading', { name: 'Delivery address' })).toBeInTheDocument();
  });

  it('skips the Address step when nothing ships', async () => {
    fillCart(1, 3);
    fakeApi();
    renderRoutes(routes, '/shop/checkout');
    const user = userEvent.setup();
    await fillPatient(user);
    expect(screen.queryByText('Address')).toBeNull();
    await user.click(screen.getByRole('button', { name: 'Continue' }));
    expect(await screen.findByRole('heading', { name: 'Payment method' })).toBeInTheDocument();
    expect(await screen.findByRole('radio', { name: /Pix/ })).toBeInTheDocument();
    expect(screen.getByRole('radio', { name: /PayPal/ })).toBeInTheDocument();
    expect(screen.queryByRole('radio', { name: /PagBank/ })).toBeNull();
  });

  it('delivers: the profile address, the options for its zip code, and the chosen one priced by the server', async () => {
    fillCart(2);
    const { calls } = fakeApi();
    renderRoutes(routes, '/shop/checkout');
    const user = userEvent.setup();
    await fillPatient(user);
    await user.click(await screen.findByLabelText('Sleeve manufacturer for Printed guide'));
    await user.click(await screen.findByRole('option', { name: /Neodent/, hidden: true }));
    await user.type(screen.getByLabelText('Number of sleeves for Printed guide'), '1');
    expect(screen.getByText('Address')).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Continue' }));

    expect(await screen.findByRole('radio', { name: /My profile address/ })).toBeChecked();
    // Not before an option is chosen.
    await user.click(screen.getByRole('button', { name: 'Continue' }));
    expect(await screen.findByText('Complete the delivery option and address')).toBeInTheDocument();
    const sedex = await screen.findByRole('radio', { name: /Sedex/ });
    expect(sedex).toHaveTextContent('R$ 35,00');
    expect(screen.getByRole('radio', { name: /Pick up locally/ })).toHaveTextContent('Free');
    await user.click(sedex);
    expect(storedCart().shipment).toMatchObject({
      addressType: 0,
      shipmentType: 0,
      shipmentOption: { fee: 3500, days: 3 },
      address: { zipCode: '01310100' },
    });
    await waitFor(() =>
      expect(quoteBodies(calls).at(-1)?.shipment).toMatchObject({ shipmentType: 0 }),
    );
    await user.click(screen.getByRole('button', { name: 'Continue' }));
    expect(await screen.findByRole('heading', { name: 'Payment method' })).toBeInTheDocument();
  });

  it('retries with the same idempotency key after a network error, and a new one after the cart changed', async () => {
    fillCart(1);
    let answer: 'network' | 'ok' = 'network';
    const { calls } = fakeApi({
      checkout: () => {
        if (answer === 'network') throw new TypeError('Failed to fetch');
        return ok({ caseId: 42, transactionId: 9, breakdown: breakdown() });
      },
    });
    renderRoutes(routes, '/shop/checkout');
    const user = userEvent.setup();
    await fillPatient(user);
    await user.click(screen.getByRole('button', { name: 'Continue' }));
    await user.click(await screen.findByRole('radio', { name: /Pix/ }));
    const placeOrder = screen.getByRole('button', { name: 'Place order' });

    await user.click(placeOrder);
    expect(await screen.findByText(/The server could not be reached/)).toBeInTheDocument();
    await user.click(placeOrder);
    await waitFor(() => expect(checkoutBodies(calls)).toHaveLength(2));
    const [first, retry] = checkoutBodies(calls);
    expect(first!.idempotencyKey).toEqual(expect.any(String));
    expect(retry!.idempotencyKey).toBe(first!.idempotencyKey);
    expect(first).toMatchObject({
      caseId: null,
      coupon: null,
      currency: 'BRL',
      paymentMethod: 'pix',
      shipment: null,
      items: [
        { cartProductId: 1, planningExtraData: { patient: { fname: 'Maria', lname: 'Silva' } } },
      ],
    });
    expect(storedCart().items).toHaveLength(1);

    // The cart changes: another order, another key.
    await user.click(screen.getByRole('button', { name: 'Back' }));
    const quantity = await screen.findByLabelText('Quantity of Guide planning');
    await user.clear(quantity);
    await user.type(quantity, '2');
    expect(storedCart().items[0].quantity).toBe(2);
    await user.click(screen.getByRole('button', { name: 'Continue' }));
    answer = 'ok';
    await user.click(await screen.findByRole('radio', { name: /Pix/ }));
    await user.click(screen.getByRole('button', { name: 'Place order' }));
    expect(await screen.findByRole('heading', { name: 'Order placed' })).toBeInTheDocument();
    const third = checkoutBodies(calls)[2]!;
    expect(third.items[0]!.quantity).toBe(2);
    expect(third.idempotencyKey).not.toBe(first!.idempotencyKey);

    expect(screen.getByTestId('order-total')).toHaveTextContent('R$ 1.234,56');
    expect(screen.getByText('Awaiting payment')).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Open case #42' })).toHaveAttribute('href', '/case/42');
    expect(storedCart().items).toEqual([]);
  });

  it('shows a coupon refused at checkout on its field and keeps the cart', async () => {
    fillCart(1);
    const { calls } = fakeApi({
      checkout: () =>
        fail(409, 'COUPON_NOT_APPLICABLE', 'This coupon cannot be used for this order', {
          coupon: 'This coupon has no uses left',
        }),
    });
    renderRoutes(routes, '/shop/checkout');
    const user = userEvent.setup();
    await fillPatient(user);
    await user.type(screen.getByLabelText('Coupon'), 'WELCOME10');
    expect(await screen.findByText('Coupon WELCOME10 applies: −R$ 45,00')).toBeInTheDocument();
    await waitFor(() => expect(quoteBodies(calls).at(-1)?.coupon).toBe('WELCOME10'));
    await user.click(screen.getByRole('button', { name: 'Continue' }));
    await user.click(await screen.findByRole('radio', { name: /Pix/ }));
    await user.click(screen.getByRole('button', { name: 'Place order' }));

    const alert = await screen.findByRole('alert');
    expect(
      within(alert).getByText('This coupon cannot be used for this order'),
    ).toBeInTheDocument();
    expect(within(alert).getByText('This coupon has no uses left')).toBeInTheDocument();
    expect(checkoutBodies(calls)[0]).toMatchObject({ coupon: 'WELCOME10' });

    await user.click(screen.getByRole('button', { name: 'Back' }));
    const couponField = await screen.findByLabelText('Coupon');
    expect(couponField).toHaveAccessibleDescription(/This coupon has no uses left/);
    expect(storedCart().items).toHaveLength(1);
  });

  it('orders more for the case chosen on its page: an upgrade, in its currency, sent with its id', async () => {
    fillCart(1);
    setOrderForCase(7, 42);
    const { calls } = fakeApi({
      cases: [caseDetail({ caseStatus: 'execute', caseCurrency: 'USD', can: ['order'] })],
      checkout: () => ok({ caseId: 42, transactionId: 9, breakdown: breakdown() }),
    });
    renderRoutes(routes, '/shop/checkout');
    const user = userEvent.setup();
    const card = await screen.findByTestId('checkout-case');
    expect(
      await within(card).findByRole('heading', { name: 'Ordering for case #42 · Maria Silva' }),
    ).toBeInTheDocument();
    expect(within(card).getByTestId('checkout-upgrade')).toHaveTextContent(
      /this order is an upgrade.*planned once their payment is confirmed/,
    );
    expect(within(card).getByText(/charged once, never added twice/)).toBeInTheDocument();
    // No other case and no patient to choose: the order is this case's.
    expect(screen.queryByRole('radio', { name: 'Open a new case' })).toBeNull();
    expect(screen.queryByLabelText(/Patient's first name/)).toBeNull();
    await waitFor(() =>
      expect(quoteBodies(calls).at(-1)).toMatchObject({ caseId: 42, currency: 'USD' }),
    );

    await user.click(screen.getByRole('button', { name: 'Continue' }));
    await user.click(await screen.findByRole('radio', { name: /Pix/ }));
    await user.click(screen.getByRole('button', { name: 'Place order' }));
    expect(await screen.findByRole('heading', { name: 'Order placed' })).toBeInTheDocument();
    expect(checkoutBodies(calls)[0]).toMatchObject({ caseId: 42, currency: 'USD' });
    // Placed: the next order is not for this case any more.
    expect(readOrderForCase(7)).toBeNull();
  });

  it('a case that can take no more orders holds the order, and another case can be chosen', async () => {
    fillCart(1);
    setOrderForCase(7, 42);
    const { calls } = fakeApi({ cases: [caseDetail({ caseStatus: 'finished', can: [] })] });
    renderRoutes(routes, '/shop/checkout');
    const user = userEvent.setup();
    const card = await screen.findByTestId('checkout-case');
    expect(
      await within(card).findByText('Nothing more can be ordered for this case now.'),
    ).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Continue' }));
    expect(screen.queryByRole('heading', { name: 'Payment method' })).toBeNull();

    await user.click(within(card).getByRole('button', { name: 'Order for another case' }));
    expect(readOrderForCase(7)).toBeNull();
    expect(await screen.findByRole('radio', { name: 'Open a new case' })).toBeChecked();
    await fillPatient(user);
    await user.click(screen.getByRole('button', { name: 'Continue' }));
    expect(await screen.findByRole('heading', { name: 'Payment method' })).toBeInTheDocument();
    await waitFor(() => expect(quoteBodies(calls).at(-1)).toMatchObject({ caseId: null }));
  });

  it('sends to an existing case of the caller, priced in its currency', async () => {
    fillCart(1);
    const { calls } = mockFetchWithCase();
    renderRoutes(routes, '/shop/checkout');
    const user = userEvent.setup();
    await user.click(await screen.findByRole('radio', { name: 'Add to one of my cases' }));
    await user.click(screen.getByLabelText(/^Case/, { selector: 'input' }));
    await user.click(await screen.findByRole('option', { name: /Case #55/, hidden: true }));
    // Only the caller's own cases are offered.
    expect(screen.queryByRole('option', { name: /Case #56/, hidden: true })).toBeNull();
    await waitFor(() =>
      expect(quoteBodies(calls).at(-1)).toMatchObject({ caseId: 55, currency: 'USD' }),
    );
  });
});

/** A caller with one own case in USD (profile in BRL) and one case of someone else. */
function mockFetchWithCase() {
  const preview = (id: number, ownerId: number, caseCurrency: Currency) => ({
    id,
    patient: { fname: 'Joana', lname: 'Lima' },
    caseStatus: 'new',
    caseArchived: false,
    caseCurrency,
    owner: { id: ownerId, displayName: 'Someone' },
    services: [],
    createdAt: '2026-01-01T00:00:00.000Z',
    deadlineAt: null,
    modifiedAt: '2026-01-01T00:00:00.000Z',
    review: false,
    unseen: 0,
    dispatch: null,
  });
  return mockFetch((call) => {
    if (call.path === '/profile/get')
      return ok(completeProfile({ dataInfo: { ...emptyDataInfo('en'), currency: 'BRL' } }));
    if (call.path === '/products/get/1') return ok(PRODUCTS[1]);
    if (call.path.startsWith('/case/list/new/0'))
      return ok({
        items: [preview(55, 7, 'USD'), preview(56, 8, 'BRL')],
        total: 2,
        page: 0,
        pageSize: 100,
      });
    if (call.path.startsWith('/shop/fetchSleeves')) return ok([]);
    if (call.path === '/shop/fetchAddress') return ok({ profile: null, deliveries: [] });
    if (call.path === '/shop/quote') return ok(quoteResponse());
    return fail(404, 'NOT_FOUND', 'Not found');
  });
}

/** A case preview of user 7 (the profile's id) in a currency. */
const ownCase = (caseCurrency: Currency) => ({
  id: 55,
  patient: { fname: 'Joana', lname: 'Lima' },
  caseStatus: 'new',
  caseArchived: false,
  caseCurrency,
  owner: { id: 7, displayName: 'Ana Souza' },
  services: [],
  createdAt: '2026-01-01T00:00:00.000Z',
  deadlineAt: null,
  modifiedAt: '2026-01-01T00:00:00.000Z',
  review: false,
  unseen: 0,
  dispatch: null,
});

/**
 * The shop as the server answers it, with the quote priced in the currency asked: a profile in
 * `profileCurrency`, optionally one own case, the quote given by `quote`.
 */
function currencyApi(options: {
  profile: Partial<UserProfile>;
  caseCurrency?: Currency;
  quote: (request: QuoteRequest) => QuoteResponse;
  onSetCase?: (body: unknown) => void;
}) {
  let caseCurrency = options.caseCurrency;
  return mockFetch((call) => {
    const path = call.path;
    if (path === '/profile/get') return ok(completeProfile(options.profile));
    const product = /^\/products\/get\/(\d+)$/.exec(path);
    if (product) return ok(PRODUCTS[Number(product[1])]!);
    if (path.startsWith('/case/list/new/0')) {
      const items = caseCurrency ? [ownCase(caseCurrency)] : [];
      return ok({ items, total: items.length, page: 0, pageSize: 100 });
    }
    if (path === '/case/55/set') {
      options.onSetCase?.(call.body);
      caseCurrency = (call.body as { caseCurrency: Currency }).caseCurrency;
      return ok(caseDetail({ id: 55, caseCurrency, modifiedAt: '2026-01-02T00:00:00.000Z' }));
    }
    if (path.startsWith('/shop/fetchSleeves')) {
      const currency = path.includes('currency=USD') ? 'USD' : 'BRL';
      return ok([{ id: 5, sleeve_manufacture: 'Neodent', sleeve_price: 1200, currency }]);
    }
    if (path === '/shop/fetchAddress') return ok({ profile: null, deliveries: [] });
    if (path.startsWith('/products/coupom/lookup/WELCOME10'))
      return ok({
        code: 'WELCOME10',
        applicable: true,
        rejection: null,
        message: '',
        coupomType: 1,
        value: 10,
        discount: 900,
        currency: 'USD',
      });
    if (path === '/shop/quote') return ok(options.quote(call.body as QuoteRequest));
    return fail(404, 'NOT_FOUND', 'Not found');
  });
}

const NO_DOLLAR_METHOD: PaymentMethodsUnavailable = {
  reason: 'currency',
  currency: 'USD',
  currenciesWithMethods: ['BRL'],
  currencyChangeable: true,
  supportEmail: 'help@lab.test',
};
/** A Pix-only install: reais have Pix, dollars nothing. */
const pixOnlyQuote = (unavailable: PaymentMethodsUnavailable) => (request: QuoteRequest) =>
  request.currency === 'BRL'
    ? quoteResponse({ breakdown: breakdown({ currency: 'BRL' }), paymentMethods: ['pix'] })
    : quoteResponse({
        breakdown: breakdown({ currency: 'USD' }),
        paymentMethods: [],
        paymentMethodsUnavailable: unavailable,
      });

describe('checkout currency', { timeout: 30_000 }, () => {
  beforeEach(async () => {
    window.sessionStorage.clear();
    await applyLanguage('en');
  });
  afterEach(() => vi.unstubAllGlobals());

  it("shows every amount of the screen in the case's currency, not the profile's", async () => {
    fillCart(1, 2);
    const { calls } = currencyApi({
      profile: { dataInfo: { ...emptyDataInfo('en'), currency: 'USD' } },
      caseCurrency: 'BRL',
      quote: (request) => quoteResponse({ breakdown: breakdown({ currency: request.currency }) }),
    });
    renderRoutes(routes, '/shop/checkout');
    const user = userEvent.setup();
    await user.click(await screen.findByRole('radio', { name: 'Add to one of my cases' }));
    await user.click(screen.getByLabelText(/^Case/, { selector: 'input' }));
    await user.click(await screen.findByRole('option', { name: /Case #55/, hidden: true }));
    await waitFor(() =>
      expect(quoteBodies(calls).at(-1)).toMatchObject({ caseId: 55, currency: 'BRL' }),
    );
    // The items at the case's (ptBR, reais) prices, the summary in reais.
    expect(await screen.findByText(/R\$ 450,00/)).toBeInTheDocument();
    expect(await screen.findByText(/R\$ 200,00/)).toBeInTheDocument();
    expect(await screen.findByRole('button', { name: /Show order summary/ })).toHaveTextContent(
      'R$ 1.234,56',
    );
    expect(screen.getByText(/charged in Brazilian real \(R\$\), the currency of the case/));
    expect(document.body.textContent).not.toContain('U$');
  });

  it.each(['en', 'ptBR'] as const)(
    'says in %s why no method is offered, whom to write to, and switches a new case to reais',
    async (language) => {
      await applyLanguage(language);
      const tr = (ns: 'shop' | 'domain', key: string, params?: Record<string, string>) =>
        translate(language, ns, key, params);
      fillCart(1);
      const { calls } = currencyApi({
        profile: { dataInfo: { ...emptyDataInfo(language), currency: 'USD' } },
        quote: pixOnlyQuote(NO_DOLLAR_METHOD),
      });
      renderRoutes(routes, '/shop/checkout');
      const user = userEvent.setup();
      expect(
        await screen.findByRole('radio', { name: tr('domain', 'currencies.USD') }),
      ).toBeChecked();
      await user.type(
        screen.getByLabelText(new RegExp(tr('shop', 'checkout.patientFirstName'))),
        'Maria',
      );
      await user.type(
        screen.getByLabelText(new RegExp(tr('shop', 'checkout.patientLastName'))),
        'Silva',
      );
      await user.click(screen.getByRole('button', { name: tr('shop', 'checkout.next') }));

      const notice = await screen.findByTestId('no-payment-method');
      expect(notice).toHaveTextContent(
        tr('shop', 'payment.unavailable.titleCurrency', {
          currency: tr('domain', 'currencies.USD'),
        }),
      );
      expect(notice).toHaveTextContent(
        tr('shop', 'payment.unavailable.contactEmail', { email: 'help@lab.test' }),
      );
      await user.click(
        within(notice).getByRole('button', {
          name: tr('shop', 'payment.unavailable.changeCurrency', {
            currency: tr('domain', 'currencies.BRL'),
          }),
        }),
      );
      await waitFor(() => expect(quoteBodies(calls).at(-1)?.currency).toBe('BRL'));
      expect(
        await screen.findByRole('radio', {
          name: new RegExp(tr('shop', 'paymentMethods.pix.label')),
        }),
      ).toBeInTheDocument();
      expect(screen.queryByTestId('no-payment-method')).toBeNull();
    },
  );

  it("changes an existing case's currency from the notice, through the case's own route", async () => {
    fillCart(1);
    const sets: unknown[] = [];
    const { calls } = currencyApi({
      profile: { dataInfo: { ...emptyDataInfo('en'), currency: 'USD' } },
      caseCurrency: 'USD',
      quote: pixOnlyQuote(NO_DOLLAR_METHOD),
      onSetCase: (body) => sets.push(body),
    });
    renderRoutes(routes, '/shop/checkout');
    const user = userEvent.setup();
    await user.click(await screen.findByRole('radio', { name: 'Add to one of my cases' }));
    await user.click(screen.getByLabelText(/^Case/, { selector: 'input' }));
    await user.click(await screen.findByRole('option', { name: /Case #55/, hidden: true }));
    await user.click(screen.getByRole('button', { name: 'Continue' }));
    const notice = await screen.findByTestId('no-payment-method');
    await user.click(
      within(notice).getByRole('button', {
        name: 'Change the case currency to Brazilian real (R$)',
      }),
    );
    await waitFor(() =>
      expect(sets).toEqual([{ caseCurrency: 'BRL', modifiedAt: '2026-01-01T00:00:00.000Z' }]),
    );
    await waitFor(() =>
      expect(quoteBodies(calls).at(-1)).toMatchObject({ caseId: 55, currency: 'BRL' }),
    );
    expect(await screen.findByRole('radio', { name: /Pix/ })).toBeInTheDocument();
  });

  it('offers no change for a case whose currency is locked, and names the laboratory', async () => {
    fillCart(1);
    currencyApi({
      profile: { dataInfo: { ...emptyDataInfo('en'), currency: 'USD' } },
      caseCurrency: 'USD',
      quote: pixOnlyQuote({ ...NO_DOLLAR_METHOD, currencyChangeable: false, supportEmail: null }),
    });
    renderRoutes(routes, '/shop/checkout');
    const user = userEvent.setup();
    await user.click(await screen.findByRole('radio', { name: 'Add to one of my cases' }));
    await user.click(screen.getByLabelText(/^Case/, { selector: 'input' }));
    await user.click(await screen.findByRole('option', { name: /Case #55/, hidden: true }));
    await user.click(screen.getByRole('button', { name: 'Continue' }));
    const notice = await screen.findByTestId('no-payment-method');
    expect(notice).toHaveTextContent("Contact the laboratory's support.");
    expect(notice).toHaveTextContent('its currency can no longer change');
    expect(within(notice).queryByRole('button')).toBeNull();
  });

  it('fills the coupon the user registered with, and the quote applies it until they clear it', async () => {
    fillCart(1);
    const { calls } = currencyApi({
      profile: { registrationCoupon: 'WELCOME10' },
      quote: (request) =>
        quoteResponse({
          breakdown: breakdown({ currency: request.currency, coupon: request.coupon }),
        }),
    });
    renderRoutes(routes, '/shop/checkout');
    const user = userEvent.setup();
    const coupon = await screen.findByLabelText('Coupon');
    await waitFor(() => expect(coupon).toHaveValue('WELCOME10'));
    expect(coupon).toHaveAccessibleDescription(/Your registration coupon WELCOME10 is filled in/);
    expect(await screen.findByText('Coupon WELCOME10 applies: −U$ 9.00')).toBeInTheDocument();
    await waitFor(() => expect(quoteBodies(calls).at(-1)?.coupon).toBe('WELCOME10'));

    await user.clear(coupon);
    expect(coupon).toHaveValue('');
    await waitFor(() => expect(quoteBodies(calls).at(-1)?.coupon).toBeNull());
    expect(coupon).toHaveValue('');
  });
});
