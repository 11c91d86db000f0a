import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { emptyDataInfo } from '@dentflow/domain';
import { applyLanguage } from '../../../lib/i18n';
import { fail, mockFetch, ok } from '../../../test/fetch-mock';
import { completeProfile } from '../../../test/profiles';
import { renderRoutes } from '../../../test/render';
import { cartStorageKey } from '../cart/cart-store';
import { adminProduct, comboProduct } from '../test-fixtures';
import { ShopItemPage } from './shop-item-page';
import { ShopPage } from './shop-page';

const routes = [
  { path: '/shop', element: <ShopPage /> },
  { path: '/shop/item/:item_id', element: <ShopItemPage /> },
];

const profile = () => completeProfile({ dataInfo: { ...emptyDataInfo('en'), currency: 'USD' } });

describe('shop item', { timeout: 20_000 }, () => {
  beforeEach(() => applyLanguage('en'));
  afterEach(() => vi.unstubAllGlobals());

  it('opens a listed product from the cache, without asking for it again', async () => {
    const { calls } = mockFetch((call) => {
      if (call.path === '/profile/get') return ok(profile());
      if (call.path === '/products/category/list') return ok([]);
      if (call.path.startsWith('/api/v2/shop/products'))
        return ok({
          items: [comboProduct({ shipping: true }, { currency: 'USD', manufactureTime: 7 })],
          total: 1,
          page: 0,
          pageSize: 24,
        });
      return fail(404, 'NOT_FOUND', 'Not found');
    });
    const { router } = renderRoutes(routes, '/shop');
    const user = userEvent.setup();
    await user.click(await screen.findByRole('link', { name: 'Guide combo' }));
    expect(router.state.location.pathname).toBe('/shop/item/30');
    expect(await screen.findByRole('heading', { name: 'Guide combo' })).toBeInTheDocument();
    // The combo's price, what its parts cost separately (struck through) and the saving.
    const price = screen.getByTestId('shop-item-price');
    expect(within(price).getByTestId('price-charged')).toHaveTextContent('U$ 605.00');
    expect(within(price).getByTestId('price-separately')).toHaveTextContent(
      'Separately: U$ 650.00',
    );
    expect(within(price).getByTestId('price-separately').tagName).toBe('S');
    expect(within(price).getByTestId('price-saving')).toHaveTextContent('Save U$ 45.00 (6%)');
    expect(screen.getByText('7 day(s)')).toBeInTheDocument();
    expect(screen.getByText('Per case')).toBeInTheDocument();
    expect(screen.getByRole('heading', { name: 'Included in this combo' })).toBeInTheDocument();
    expect(screen.getByText('Guide planning')).toBeInTheDocument();
    expect(screen.getByText('U$ 450.00')).toBeInTheDocument();
    expect(screen.getByText('Printed guide')).toBeInTheDocument();
    expect(screen.getByText('U$ 200.00')).toBeInTheDocument();
    expect(calls.some((c) => c.path.startsWith('/products/get/'))).toBe(false);

    await user.click(screen.getByRole('button', { name: 'Add to cart: Guide combo' }));
    expect(JSON.parse(window.localStorage.getItem(cartStorageKey(7)) ?? 'null').items).toHaveLength(
      1,
    );
    expect(
      screen.getByRole('button', { name: 'Remove from cart: Guide combo' }),
    ).toBeInTheDocument();
  });

  it('fetches an uncached product once (with its combo parts) in the caller language and currency', async () => {
    const { calls } = mockFetch((call) => {
      if (call.path === '/profile/get') return ok(profile());
      if (call.path === '/products/category/list')
        return ok([
          {
            id: 3,
            name: { ptBR: 'Guias', en: 'Guides', es: 'Guías' },
            active: true,
            modifiedAt: '2026-01-01T00:00:00.000Z',
          },
        ]);
      if (call.path === '/products/get/30')
        return ok(
          adminProduct({
            id: 30,
            code: 'COMBO',
            productType: 2,
            innerProducts: [1, 2],
            texts: {
              ptBR: {
                name: 'Combo guia',
                description: 'pt',
                price: 0,
                discount: 15,
                publish: true,
              },
              en: {
                name: 'Guide combo',
                description: 'Plan and print',
                price: 0,
                discount: 10,
                publish: true,
              },
              es: { name: 'Combo guía', description: 'es', price: 0, discount: 10, publish: true },
            },
          }),
        );
      if (call.path === '/products/get/1') return ok(adminProduct({ id: 1 }));
      if (call.path === '/products/get/2')
        return ok(
          adminProduct({
            id: 2,
            productKind: 2,
            texts: {
              ptBR: {
                name: 'Guia impressa',
                description: '',
                price: 20000,
                discount: 0,
                publish: true,
              },
              en: {
                name: 'Printed guide',
                description: '',
                price: 4000,
                discount: 0,
                publish: true,
              },
              es: {
                name: 'Guía impresa',
                description: '',
                price: 4000,
                discount: 0,
                publish: true,
              },
            },
          }),
        );
      return fail(404, 'NOT_FOUND', 'Not found');
    });
    renderRoutes(routes, '/shop/item/30');
    expect(await screen.findByRole('heading', { name: 'Guide combo' })).toBeInTheDocument();
    expect(screen.getByText('Plan and print')).toBeInTheDocument();
    expect(screen.getByText('Guides')).toBeInTheDocument();
    // USD prices (the en texts): 90.00 + 40.00, combo discount 10 % of the planning part.
    const price = screen.getByTestId('shop-item-price');
    expect(within(price).getByTestId('price-charged')).toHaveTextContent('U$ 121.00');
    expect(within(price).getByTestId('price-separately')).toHaveTextContent('U$ 130.00');
    expect(within(price).getByTestId('price-saving')).toHaveTextContent('Save U$ 9.00 (6%)');
    const parts = screen.getAllByRole('table')[1]!;
    expect(within(parts).getByText('Surgical guide planning')).toBeInTheDocument();
    expect(within(parts).getByText('U$ 40.00')).toBeInTheDocument();
    expect(calls.filter((c) => c.path === '/products/get/30')).toHaveLength(1);
  });

  it('says so for an unknown product', async () => {
    mockFetch((call) => {
      if (call.path === '/profile/get') return ok(profile());
      if (call.path === '/products/category/list') return ok([]);
      return fail(404, 'NOT_FOUND', 'Not found');
    });
    renderRoutes(routes, '/shop/item/999');
    expect(await screen.findByText('Product not found')).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Back to the shop' })).toHaveAttribute('href', '/shop');
  });
});
