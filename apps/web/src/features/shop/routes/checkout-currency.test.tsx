import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import {
  emptyDataInfo,
  translate,
  type Currency,
  type PaymentMethodsUnavailable,
  type QuoteRequest,
  type QuoteResponse,
  type UserProfile,
} from '@dentflow/domain';
import { applyLanguage } from '../../../lib/i18n';
import { fail, mockFetch, ok } from '../../../test/fetch-mock';
import { completeProfile } from '../../../test/profiles';
import { renderRoutes } from '../../../test/render';
import { caseDetail } from '../../cases/test-fixtures';
import { breakdown, quoteResponse } from '../test-fixtures';
import { fillCart, PRODUCTS, quoteBodies, routes } from './checkout-test-support';

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
  /** The quote's answer; a promise holds it back until it resolves. */
  quote: (request: QuoteRequest) => QuoteResponse | Promise<QuoteResponse>;
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
    if (path === '/shop/quote') {
      return Promise.resolve(options.quote(call.body as QuoteRequest)).then(ok);
    }
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

/**
 * Waits until the order's price is settled (the summary is not busy): while a quote is on its
 * way the amounts are the last quote's, and after a change of currency the no-method notice is
 * hidden, so a check or a click on a loaded CPU could see an old amount or a notice about to go.
 */
async function quoteSettled() {
  await waitFor(() => {
    expect(document.querySelector('[aria-busy="false"]')).not.toBeNull();
    expect(document.querySelector('[aria-busy="true"]')).toBeNull();
  });
}

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
    await quoteSettled();
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
      // The names are part of the order: it is priced again once the typing pauses.
      await waitFor(() =>
        expect(quoteBodies(calls).at(-1)?.items[0]?.planningExtraData).toMatchObject({
          patient: { fname: 'Maria', lname: 'Silva' },
        }),
      );
      await quoteSettled();

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
      // The re-quote waits as long as a loaded CPU needs (the setup's 10 s).
      await waitFor(() => expect(quoteBodies(calls).at(-1)?.currency).toBe('BRL'));
      expect(
        await screen.findByRole('radio', {
          name: new RegExp(tr('shop', 'paymentMethods.pix.label')),
        }),
      ).toBeInTheDocument();
      expect(screen.queryByTestId('no-payment-method')).toBeNull();
    },
  );

  it('keeps the notice while the order is priced again in the same currency', async () => {
    fillCart(1);
    // Once `holding` is set, quotes wait for the test to let them through.
    let holding: Promise<void> | null = null;
    let release = () => {};
    const pixOnly = pixOnlyQuote(NO_DOLLAR_METHOD);
    const { calls } = currencyApi({
      profile: { dataInfo: { ...emptyDataInfo('en'), currency: 'USD' } },
      quote: async (request) => {
        await holding;
        return pixOnly(request);
      },
    });
    renderRoutes(routes, '/shop/checkout');
    const user = userEvent.setup();
    await quoteSettled();
    const nameless = quoteBodies(calls).length;
    holding = new Promise((resolve) => (release = resolve));
    await user.type(screen.getByLabelText(/Patient's first name/), 'Maria');
    await user.type(screen.getByLabelText(/Patient's last name/), 'Silva');
    await user.click(screen.getByRole('button', { name: 'Continue' }));
    // The nameless order's quote tells why dollars have no method, on the payment step.
    expect(await screen.findByTestId('no-payment-method')).toBeInTheDocument();
    // The name is part of the order: it is priced again, and that answer has not come yet.
    await waitFor(() => expect(quoteBodies(calls).length).toBeGreaterThan(nameless));
    expect(document.querySelector('[aria-busy="true"]')).not.toBeNull();
    expect(screen.getByTestId('no-payment-method')).toBeInTheDocument();
    release();
    await quoteSettled();
    expect(screen.getByTestId('no-payment-method')).toBeInTheDocument();
  });

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
    await quoteSettled();
    const notice = await screen.findByTestId('no-payment-method');
    await user.click(
      within(notice).getByRole('button', {
        name: 'Change the case currency to Brazilian real (R$)',
      }),
    );
    // The case update, then the re-quote: each waits as long as a loaded CPU needs (the
    // setup's 10 s).
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
    await quoteSettled();
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
