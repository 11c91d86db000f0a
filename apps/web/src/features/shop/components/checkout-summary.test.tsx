import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { screen, within } from '@testing-library/react';
import type { CheckoutBreakdown, Language } from '@dentflow/domain';
import { applyLanguage } from '../../../lib/i18n';
import { mockFetch, ok } from '../../../test/fetch-mock';
import { completeProfile } from '../../../test/profiles';
import { renderWithApp } from '../../../test/render';
import { breakdown } from '../test-fixtures';
import { CheckoutSummary } from './checkout-summary';

/** A combo line (R$ 500 planning + R$ 200 guide, 10 % of the planning off) for a student. */
const comboOrder = (overrides: Partial<CheckoutBreakdown> = {}) =>
  breakdown({
    lines: [
      {
        cartProductId: 30,
        name: 'Guide combo',
        quantity: 1,
        planningPrice: 50000,
        manufacturePrice: 20000,
        sleevesPrice: 0,
        comboDiscount: 5000,
        lineDiscount: 0,
      },
    ],
    planningPrice: 50000,
    manufacturePrice: 20000,
    subtotal: 70000,
    comboDiscount: 5000,
    ...overrides,
  });

const summary = (value: CheckoutBreakdown) =>
  renderWithApp(
    <CheckoutSummary
      breakdown={value}
      loading={false}
      updating={false}
      error={null}
      onRetry={() => {}}
      ships={false}
      shippingChosen={false}
    />,
  );

describe('checkout summary', { timeout: 15_000 }, () => {
  beforeEach(() => {
    mockFetch(() => ok(completeProfile()));
    return applyLanguage('en');
  });
  afterEach(() => vi.unstubAllGlobals());

  it('shows a combo line at its price with the parts struck through and the saving', async () => {
    summary(comboOrder({ total: 65000 }));
    const line = await screen.findByTestId('breakdown-item-30');
    expect(within(line).getByTestId('price-charged')).toHaveTextContent('R$ 650,00');
    expect(within(line).getByTestId('price-separately')).toHaveTextContent('R$ 700,00');
    expect(within(line).getByTestId('price-separately').tagName).toBe('S');
    expect(within(line).getByTestId('price-saving')).toHaveTextContent('Save R$ 50,00 (7%)');
  });

  it.each<[Language, string]>([
    [
      'en',
      "Coupon CLINIC15 applies (15%) instead of your instructor's discount (10%): a valid coupon always replaces the instructor's discount.",
    ],
    [
      'ptBR',
      'Vale o cupom CLINIC15 (15%) no lugar do desconto do seu instrutor (10%): um cupom válido sempre substitui o desconto do instrutor.',
    ],
    [
      'es',
      'Se aplica el cupón CLINIC15 (15%) en lugar del descuento de tu instructor (10%): un cupón válido siempre sustituye al descuento del instructor.',
    ],
  ])(
    'in %s names the coupon that replaces the instructor discount, and why',
    async (language, text) => {
      await applyLanguage(language);
      summary(
        comboOrder({
          coupon: 'CLINIC15',
          couponDiscount: 6750,
          couponTerms: { coupomType: 1, value: 15 },
          instructorPercent: 10,
          instructorDiscountForgone: 4500,
          total: 58250,
        }),
      );
      expect(await screen.findByTestId('discount-choice')).toHaveTextContent(text);
    },
  );

  it('says when a smaller coupon still replaces the instructor discount', async () => {
    summary(
      comboOrder({
        coupon: 'FIXO50',
        couponDiscount: 5000,
        couponTerms: { coupomType: 2, value: 5000 },
        instructorPercent: 10,
        instructorDiscountForgone: 6500,
        total: 60000,
      }),
    );
    expect(await screen.findByTestId('discount-choice')).toHaveTextContent(
      "Coupon FIXO50 applies (R$ 50,00) instead of your instructor's discount (10%), although it takes off less (R$ 50,00 instead of R$ 65,00): a valid coupon always replaces the instructor's discount. Remove the coupon to get the instructor's discount.",
    );
  });

  it('names the instructor discount without a coupon, and a unit coupon by its units', async () => {
    const view = summary(
      comboOrder({ instructorDiscount: 4500, instructorPercent: 10, couponTerms: null }),
    );
    expect(await screen.findByTestId('discount-choice')).toHaveTextContent(
      "Your instructor's discount applies (10%).",
    );
    view.unmount();
    summary(
      comboOrder({
        coupon: 'GUIA1',
        couponDiscount: 50000,
        couponTerms: { coupomType: 3, value: 1 },
        instructorPercent: 0,
      }),
    );
    expect(await screen.findByTestId('discount-choice')).toHaveTextContent(
      'Coupon GUIA1 applies (1 unit).',
    );
  });

  it('explains nothing for an order with neither discount', async () => {
    summary(comboOrder({ instructorPercent: 0, couponTerms: null }));
    await screen.findByTestId('breakdown-item-30');
    expect(screen.queryByTestId('discount-choice')).toBeNull();
  });
});
