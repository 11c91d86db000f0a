import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { emptyDataInfo, type Category, type ShopProduct } from '@dentflow/domain';
import { applyLanguage } from '../../../lib/i18n';
import { fail, mockFetch, ok, type RecordedCall } from '../../../test/fetch-mock';
import { completeProfile } from '../../../test/profiles';
import { renderRoutes } from '../../../test/render';
import { caseDetail } from '../../cases/test-fixtures';
import { cartStorageKey } from '../cart/cart-store';
import { readOrderForCase } from '../cart/order-for-case';
import { CartMenu } from '../components/cart-menu';
import { comboProduct, shopProduct } from '../test-fixtures';
import { ShopPage } from './shop-page';

const routes = [
  {
    path: '/shop',
    element: (
      <>
        <CartMenu />
        <ShopPage />
      </>
    ),
  },
  { path: '/shop/checkout', element: <p>checkout</p> },
];

const category = (id: number, en: string): Category => ({
  id,
  name: { ptBR: `${en} (pt)`, en, es: `${en} (es)` },
  active: true,
  modifiedAt: '2026-01-01T00:00:00.000Z',
});

/** Shop prices come in the profile currency. */
const brlProfile = (id = 7) =>
  completeProfile({ id, dataInfo: { ...emptyDataInfo('en'), currency: 'BRL' } });

const page = (items: ShopProduct[]) => ok({ items, total: items.length, page: 0, pageSize: 24 });

function shopApi(items: ShopProduct[] = [shopProduct(), comboProduct()], profileId = 7) {
  return mockFetch((call) => {
    if (call.path === '/profile/get') return ok(brlProfile(profileId));
    if (call.path === '/case/42/get')
      return ok(caseDetail({ caseStatus: 'execute', can: ['order'] }));
    if (call.path === '/products/category/list')
      return ok([category(1, 'Planning'), category(3, 'Guides')]);
    if (call.path.startsWith('/api/v2/shop/products')) return page(items);
    return fail(404, 'NOT_FOUND', 'Not found');
  });
}

const productCalls = (calls: RecordedCall[]) =>
  calls
    .filter((c) => c.path.startsWith('/api/v2/shop/products'))
    .map((c) => new URL(c.path, 'http://x').searchParams);

describe('shop', { timeout: 20_000 }, () => {
  beforeEach(() => {
    window.sessionStorage.clear();
    return applyLanguage('en');
  });
  afterEach(() => vi.unstubAllGlobals());

  it('?caseId= makes the order one for that case until the user orders for another', async () => {
    shopApi();
    const { router } = renderRoutes(routes, '/shop?caseId=42');
    const banner = await screen.findByTestId('order-for-case');
    expect(
      await within(banner).findByText(
        'You are ordering for case #42 · Maria Silva. Add products, then go to checkout.',
      ),
    ).toBeInTheDocument();
    expect(within(banner).getByRole('link', { name: 'Back to the case' })).toHaveAttribute(
      'href',
      '/case/42',
    );
    // Remembered for the checkout (this tab), and the address bar is the plain shop again.
    await waitFor(() => expect(router.state.location.search).toBe(''));
    expect(readOrderForCase(7)).toBe(42);
    expect(screen.getByTestId('order-for-case')).toBeInTheDocument();

    const user = userEvent.setup();
    await user.click(within(banner).getByRole('button', { name: 'Order for another case' }));
    expect(screen.queryByTestId('order-for-case')).toBeNull();
    expect(readOrderForCase(7)).toBeNull();
  });

  it('without a case to order for there is no banner', async () => {
    shopApi();
    renderRoutes(routes, '/shop?caseId=abc');
    expect(await screen.findByTestId('shop-card-PLAN-GUIDE')).toBeInTheDocument();
    expect(screen.queryByTestId('order-for-case')).toBeNull();
    expect(readOrderForCase(7)).toBeNull();
  });

  it('shows cards with localized name, price, combo discount, favourite and placeholder image', async () => {
    shopApi([
      shopProduct({ favorite: true, price: 123456, currency: 'BRL' }),
      comboProduct({}, { currency: 'USD', price: 65000 }),
    ]);
    renderRoutes(routes, '/shop');
    const card = await screen.findByTestId('shop-card-PLAN-GUIDE');
    expect(within(card).getByRole('link', { name: 'Surgical guide planning' })).toHaveAttribute(
      'href',
      '/shop/item/1',
    );
    expect(within(card).getByText('R$ 1.234,56')).toBeInTheDocument();
    expect(within(card).getByRole('img', { name: 'Favourite' })).toBeInTheDocument();
    // A single product has no saving to show.
    expect(within(card).queryByTestId('price-separately')).toBeNull();
    expect(within(card).queryByTestId('price-saving')).toBeNull();
    const combo = screen.getByTestId('shop-card-COMBO-GUIDE');
    expect(within(combo).getByTestId('price-charged')).toHaveTextContent('U$ 605.00');
    expect(within(combo).getByTestId('price-separately')).toHaveTextContent('U$ 650.00');
    expect(within(combo).getByTestId('price-saving')).toHaveTextContent('Save U$ 45.00 (6%)');
    expect(within(combo).queryByRole('img', { name: 'Favourite' })).toBeNull();
    expect(screen.getByText('Products found: 2')).toBeInTheDocument();
  });

  it.each([
    ['ptBR', 'R$ 605,00', 'Separadamente: R$ 650,00', 'Economize R$ 45,00 (6%)'],
    ['en', 'R$ 605,00', 'Separately: R$ 650,00', 'Save R$ 45,00 (6%)'],
    ['es', 'R$ 605,00', 'Por separado: R$ 650,00', 'Ahorra R$ 45,00 (6%)'],
  ] as const)(
    'in %s a combo card shows its price, the parts struck through and the saving',
    async (language, charged, separately, saving) => {
      await applyLanguage(language);
      shopApi([comboProduct({}, { currency: 'BRL' })]);
      renderRoutes(routes, '/shop');
      const price = await screen.findByTestId('shop-price-COMBO-GUIDE');
      expect(within(price).getByTestId('price-charged')).toHaveTextContent(charged);
      expect(within(price).getByTestId('price-separately')).toHaveTextContent(separately);
      expect(within(price).getByTestId('price-separately').tagName).toBe('S');
      expect(within(price).getByTestId('price-saving')).toHaveTextContent(saving);
    },
  );

  it('filters with the domain rules: most ordered clears categories and text, categories clear most ordered', async () => {
    const { calls } = shopApi();
    renderRoutes(routes, '/shop');
    const user = userEvent.setup();
    await screen.findByTestId('shop-card-PLAN-GUIDE');

    await user.click(screen.getByRole('checkbox', { name: 'Guides' }));
    await user.type(screen.getByRole('searchbox', { name: 'Search products' }), 'guide');
    await waitFor(() => {
      const last = productCalls(calls).at(-1);
      expect(last?.get('category')).toBe('3');
      expect(last?.get('q')).toBe('guide');
    });

    await user.click(screen.getByRole('switch', { name: 'Most ordered' }));
    expect(screen.getByRole('checkbox', { name: 'Guides' })).not.toBeChecked();
    expect(screen.getByRole('searchbox', { name: 'Search products' })).toHaveValue('');
    await waitFor(() => {
      const last = productCalls(calls).at(-1);
      expect(last?.get('mostOrdered')).toBe('true');
      expect(last?.has('category')).toBe(false);
      expect(last?.has('q')).toBe(false);
    });

    // Choosing a category turns most ordered off again; so does typing.
    await user.click(screen.getByRole('checkbox', { name: 'Planning' }));
    expect(screen.getByRole('switch', { name: 'Most ordered' })).not.toBeChecked();
    await user.click(screen.getByRole('switch', { name: 'Most ordered' }));
    await user.type(screen.getByRole('searchbox', { name: 'Search products' }), 'x');
    expect(screen.getByRole('switch', { name: 'Most ordered' })).not.toBeChecked();
    await waitFor(() => expect(productCalls(calls).at(-1)?.get('q')).toBe('x'));
  });

  it('toggling a card updates the cart badge, persists per user and survives a remount', async () => {
    shopApi();
    const first = renderRoutes(routes, '/shop');
    const user = userEvent.setup();
    expect(await screen.findByRole('button', { name: 'Cart, items: 0' })).toBeInTheDocument();
    await user.click(await screen.findByRole('button', { name: 'Add to cart: Guide combo' }));
    expect(screen.getByRole('button', { name: 'Cart, items: 1' })).toBeInTheDocument();
    expect(
      screen.getByRole('button', { name: 'Remove from cart: Guide combo' }),
    ).toBeInTheDocument();
    const stored = JSON.parse(window.localStorage.getItem(cartStorageKey(7)) ?? 'null');
    expect(stored.items).toEqual([
      expect.objectContaining({
        cartProductId: 30,
        productPlanningId: 10,
        productManufactureId: 20,
      }),
    ]);

    // The dropdown lists it with its price, and leads to the checkout.
    await user.click(screen.getByRole('button', { name: 'Cart, items: 1' }));
    const dropdown = await screen.findByRole('dialog');
    expect(await within(dropdown).findByText('Guide combo')).toBeInTheDocument();
    const cartPrice = within(dropdown).getByTestId('cart-price-30');
    expect(within(cartPrice).getByTestId('price-charged')).toHaveTextContent('R$ 605,00');
    expect(within(cartPrice).getByTestId('price-separately')).toHaveTextContent('R$ 650,00');
    expect(within(cartPrice).getByTestId('price-saving')).toHaveTextContent('Save R$ 45,00 (6%)');
    expect(screen.getByRole('link', { name: 'Checkout' })).toHaveAttribute(
      'href',
      '/shop/checkout',
    );
    first.unmount();

    renderRoutes(routes, '/shop');
    expect(await screen.findByRole('button', { name: 'Cart, items: 1' })).toBeInTheDocument();
    await user.click(await screen.findByRole('button', { name: 'Remove from cart: Guide combo' }));
    expect(screen.getByRole('button', { name: 'Cart, items: 0' })).toBeInTheDocument();
    expect(JSON.parse(window.localStorage.getItem(cartStorageKey(7)) ?? 'null').items).toEqual([]);
  });

  it('another user on the same browser does not see the cart', async () => {
    window.localStorage.setItem(
      cartStorageKey(7),
      JSON.stringify({
        items: [
          {
            cartProductId: 1,
            productPlanningId: 1,
            productManufactureId: null,
            qtdOpt: 1,
            quantity: 1,
            planningExtraData: null,
            manufactureData: null,
          },
        ],
        shipment: {
          addressType: -1,
          address: { zipCode: '', country: '', state: '', city: '', address: '', complement: '' },
          shipmentType: -1,
          shipmentOption: null,
        },
      }),
    );
    shopApi(undefined, 8);
    renderRoutes(routes, '/shop');
    expect(await screen.findByRole('button', { name: 'Add to cart: Surgical guide planning' }));
    expect(screen.getByRole('button', { name: 'Cart, items: 0' })).toBeInTheDocument();
  });

  it('removes an item from the dropdown; an empty cart says so', async () => {
    shopApi();
    renderRoutes(routes, '/shop');
    const user = userEvent.setup();
    await user.click(
      await screen.findByRole('button', { name: 'Add to cart: Surgical guide planning' }),
    );
    await user.click(screen.getByRole('button', { name: 'Cart, items: 1' }));
    await user.click(await screen.findByRole('button', { name: 'Remove Surgical guide planning' }));
    expect(await screen.findByText('Your cart is empty')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Cart, items: 0' })).toBeInTheDocument();
  });

  it('shows the empty state when nothing matches, and an error with retry', async () => {
    let failing = true;
    mockFetch((call) => {
      if (call.path === '/profile/get') return ok(brlProfile());
      if (call.path === '/products/category/list') return ok([]);
      // (A 4xx: the query client would retry a 5xx with back-off first.)
      if (failing) return fail(400, 'BAD_REQUEST', 'The request could not be understood');
      return page([]);
    });
    renderRoutes(routes, '/shop');
    const user = userEvent.setup();
    expect(await screen.findByText('The request could not be understood')).toBeInTheDocument();
    failing = false;
    await user.click(screen.getByRole('button', { name: 'Try again' }));
    expect(await screen.findByText('No products yet')).toBeInTheDocument();
    await user.type(screen.getByRole('searchbox', { name: 'Search products' }), 'zzz');
    expect(await screen.findByText('No products match')).toBeInTheDocument();
  });
});
