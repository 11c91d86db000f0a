import { expect, test } from '@playwright/test';
import { formatMoney, percentOf, translate } from '@dentflow/domain';
import { queryRows, setUserLanguage, sql } from './support/database';
import { signIn } from './support/session';
import { fieldName } from './support/texts';

/**
 * Prices that tell the truth: the demo doctor (Portuguese, reais, a student of the demo
 * instructor with 10 % off) sees the guide combo at its price, its parts' sum struck through and
 * the saving; with a 15 % coupon the order summary says the coupon applies instead of the
 * instructor's discount, and why. The coupon is arranged in the database: creating it is not the
 * point here.
 */

const shop = (key: string, params?: Record<string, string | number>) =>
  translate('ptBR', 'shop', key, params);

test('a doctor sees a combo price, the parts struck through, the saving and which discount applies', async ({
  browser,
}) => {
  await sql(
    `insert into coupons (code, coupom_type, value) values ('PRECO15', 1, 15)
     on conflict do nothing`,
  );
  const [prices] = await queryRows<{
    name: string;
    planning: number;
    guide: number;
    discount: number;
  }>(
    `select combo.texts -> 'ptBR' ->> 'name' as name,
            (planning.texts -> 'ptBR' ->> 'price')::int as planning,
            (guide.texts -> 'ptBR' ->> 'price')::int as guide,
            (combo.texts -> 'ptBR' ->> 'discount')::int as discount
       from products combo, products planning, products guide
      where combo.code = 'COMBO-GUIDE' and planning.code = 'PLAN-GUIDE' and guide.code = 'MFG-GUIDE'`,
  );
  const { name, planning, guide, discount } = prices!;
  expect(discount).toBeGreaterThan(0);
  const separately = planning + guide;
  const saving = percentOf(planning, discount);
  const money = (amount: number) => formatMoney(amount, 'BRL');

  await setUserLanguage('doctor', 'ptBR');
  const page = await signIn(browser, 'doctor', 'ptBR');
  await page.goto('/shop');
  const price = page.getByTestId('shop-price-COMBO-GUIDE');
  await expect(price.getByTestId('price-charged')).toHaveText(money(separately - saving));
  await expect(price.getByTestId('price-separately')).toHaveText(
    `${shop('price.separately')} ${money(separately)}`,
  );
  await expect(price.locator('s')).toHaveCount(1);
  await expect(price.getByTestId('price-saving')).toHaveText(
    shop('price.saving', {
      amount: money(saving),
      percent: Math.floor((saving * 100) / separately),
    }),
  );

  await page
    .getByTestId('shop-card-COMBO-GUIDE')
    .getByRole('button', { name: shop('card.addNamed', { name }) })
    .click();
  await page.goto('/shop/checkout');
  await expect(page.getByTestId('discount-choice')).toHaveText(
    shop('summary.choice.instructor', { percent: 10 }),
  );
  await page.getByRole('textbox', { name: fieldName(shop('checkout.coupon')) }).fill('PRECO15');
  await expect(page.getByTestId('discount-choice')).toHaveText(
    shop('summary.choice.couponOverInstructor', {
      code: 'PRECO15',
      terms: shop('summary.choice.termsPercent', { value: 15 }),
      percent: 10,
    }),
  );
  const line = page.locator('[data-testid^="breakdown-item-"]');
  await expect(line.getByTestId('price-separately')).toContainText(money(separately));
  await expect(line.getByTestId('price-charged')).toHaveText(money(separately - saving));
  await page.close();
});
