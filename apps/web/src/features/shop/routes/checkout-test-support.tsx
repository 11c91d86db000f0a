// What the checkout page's tests share: the routes, the catalogue, the cart and a fake API.
import { screen } from '@testing-library/react';
import type userEvent from '@testing-library/user-event';
import {
  emptyDataInfo,
  type AdminProduct,
  type CaseDetail,
  type CheckoutBody,
  type Currency,
  type Language,
  type QuoteRequest,
} from '@dentflow/domain';
import { fail, mockFetch, ok, type RecordedCall } from '../../../test/fetch-mock';
import { completeProfile } from '../../../test/profiles';
import { cartStorageKey, dispatchCart } from '../cart/cart-store';
import { toggleProduct } from '../cart/cart-products';
import { adminProduct, breakdown, quoteResponse, shopProduct } from '../test-fixtures';
import { CheckoutPage } from './checkout-page';

export const routes = [
  { path: '/shop/checkout', element: <CheckoutPage /> },
  { path: '/case/:id', element: <p>case view</p> },
];

const texts = (name: string, brl: number, usd: number) => ({
  ptBR: { name: `${name} (pt)`, description: '', price: brl, discount: 0, publish: true },
  en: { name, description: '', price: usd, discount: 0, publish: true },
  es: { name: `${name} (es)`, description: '', price: usd, discount: 0, publish: true },
});

/** The catalogue as `GET /products/get/{id}` answers it. */
export const PRODUCTS: Record<number, AdminProduct> = {
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
export function fillCart(...ids: number[]) {
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

export const storedCart = () =>
  JSON.parse(window.localStorage.getItem(cartStorageKey(7)) ?? 'null');

interface FakeOptions {
  currency?: Currency;
  language?: Language;
  checkout?: (call: RecordedCall) => Response | Promise<Response>;
  quote?: (request: QuoteRequest) => unknown;
  /** Cases as `GET /case/{id}/get` answers them. */
  cases?: CaseDetail[];
}

export function fakeApi({
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

export const quoteBodies = (calls: RecordedCall[]) =>
  calls.filter((c) => c.path === '/shop/quote').map((c) => c.body as QuoteRequest);
export const checkoutBodies = (calls: RecordedCall[]) =>
  calls.filter((c) => c.path === '/shop/checkout').map((c) => c.body as CheckoutBody);

export async function fillPatient(user: ReturnType<typeof userEvent.setup>) {
  await user.type(await screen.findByLabelText(/Patient's first name/), 'Maria');
  await user.type(screen.getByLabelText(/Patient's last name/), 'Silva');
}
