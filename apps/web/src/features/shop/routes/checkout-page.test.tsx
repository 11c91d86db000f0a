import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { emptyDataInfo, type Currency } from '@dentflow/domain';
import { applyLanguage } from '../../../lib/i18n';
import { fail, mockFetch, ok } from '../../../test/fetch-mock';
import { completeProfile } from '../../../test/profiles';
import { renderRoutes } from '../../../test/render';
import { caseDetail } from '../../cases/test-fixtures';
import { readOrderForCase, setOrderForCase } from '../cart/order-for-case';
import { breakdown, quoteResponse } from '../test-fixtures';
import {
  checkoutBodies,
  fakeApi,
  fillCart,
  fillPatient,
  PRODUCTS,
  quoteBodies,
  routes,
  storedCart,
} from './checkout-test-support';

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
