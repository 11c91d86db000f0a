import { expect, test, type Page } from '@playwright/test';
import {
  currencyForLanguage,
  formatMoney,
  percentOf,
  priceLanguageFor,
  translate,
  type Language,
} from '@dentflow/domain';
import { queryRows } from './support/database';
import { linkFromOutbox, mailFromOutbox } from './support/outbox';
import { completeAddress, logIn, signIn, skipWelcome } from './support/session';
import { BROWSER_LOCALES, fieldName, webText } from './support/texts';

/**
 * A fresh instructor's discount end to end: an admin makes a new doctor account an instructor
 * and sets their discount; the instructor invites a doctor by email in Spanish; the doctor opens
 * the link from the mail, sees who invites them and the discount, registers, verifies, completes
 * the profile and sees the instructor discount in the checkout summary; the instructor then finds
 * them among the students and the invitation no longer pending. A fresh account (not the demo
 * instructor) so only what the admin set can give the discount, and no other journey is touched.
 */

test.describe.configure({ timeout: 150_000 });

/** Not the seeded 10, so what the pages show can only come from what the admin set. */
const DISCOUNT = 15;
/** A planning-only product with a single price: the discount is a plain percent of it. */
const PRODUCT_CODE = 'PLAN-ORTHO';

type Ns = 'web' | 'admin' | 'shop' | 'mail';
const tr = (language: Language, ns: Ns, key: string, params?: Record<string, string | number>) =>
  translate(language, ns, key, params);

/**
 * A verified doctor with a complete profile and no discount to give, signing in with the demo
 * password (a copy of the demo doctor's row, whose student link it does not keep).
 */
async function freshDoctor(nickName: string) {
  const [row] = await queryRows<{ id: number; name: string }>(
    `insert into users (email, nick_name, fname, lname, display_name, password_hash, roles,
       internal, data_info, data_address, data_capabilities, verified_at)
     select $1 || '@dentflow.local', $1, 'Helena', 'Prado', 'Helena Prado', password_hash,
       '["doctor"]'::jsonb, false, data_info || '{"language":"en","currency":"USD"}'::jsonb,
       data_address,
       data_capabilities || '{"instructorId": null, "instructorDiscount": 0}'::jsonb, now()
     from users where email = 'doctor@dentflow.local'
     returning id, display_name as name`,
    [nickName],
  );
  return row!;
}

/** An admin makes the user an instructor and sets their discount, in one save on the user page. */
async function makeInstructor(page: Page, userId: number, percent: number) {
  const admin = (key: string) => tr('en', 'admin', key);
  await page.goto(`/users/${userId}`);
  await page
    .getByRole('checkbox', { name: webText('en', 'roles.instructor'), exact: true })
    .check();
  await page
    .getByRole('textbox', { name: admin('users.capabilities.instructorDiscount') })
    .fill(String(percent));
  await page.getByRole('button', { name: admin('users.access.save') }).click();
  await expect(page.getByText(admin('users.saved'))).toBeVisible();
  const [stored] = await queryRows<{ roles: string[]; discount: number }>(
    `select roles, (data_capabilities ->> 'instructorDiscount')::int as discount
     from users where id = $1`,
    [userId],
  );
  expect(stored).toEqual({
    roles: expect.arrayContaining(['doctor', 'instructor']),
    discount: percent,
  });
}

test("an admin sets a new instructor's discount; the doctor they invite sees it in mail, sign-up and shop", async ({
  browser,
}) => {
  const stamp = Date.now().toString(36);
  const teacherNick = `teacher${stamp}`;
  const teacher = await freshDoctor(teacherNick);
  const invitee: Language = 'es';
  const email = `student-${stamp}@clinic.example`;
  const nickName = `student${stamp}`;
  const student = { fname: 'Lucía', lname: 'Ferrer' };
  const password = 'Sorriso2026';

  await test.step('an admin makes the new account an instructor with a discount', async () => {
    const admin = await signIn(browser, 'admin', 'en');
    await makeInstructor(admin, teacher.id, DISCOUNT);
    await admin.context().close();
  });

  // ── The instructor invites the doctor, in Spanish ──
  const en = (key: string, params?: Record<string, string | number>) =>
    tr('en', 'admin', key, params);
  const instructorPage = await signIn(browser, teacherNick, 'en');
  await test.step('the instructor sends an invitation in Spanish', async () => {
    const page = instructorPage;
    await page
      .getByRole('navigation', { name: webText('en', 'nav.main') })
      .getByRole('link', { name: webText('en', 'nav.students') })
      .click();
    await expect(page).toHaveURL(/\/students$/);
    await expect(page.getByRole('heading', { name: en('students.title'), level: 1 })).toBeVisible();

    const form = page.getByRole('form', { name: en('students.invite.title') });
    await form.getByRole('textbox', { name: fieldName(en('students.invite.email')) }).fill(email);
    await form.getByRole('combobox', { name: fieldName(en('students.invite.language')) }).click();
    await page
      .getByRole('listbox', { name: en('students.invite.language') })
      .getByRole('option', { name: webText('en', `language.names.${invitee}`), exact: true })
      .click();
    await form.getByRole('button', { name: en('students.invite.submit') }).click();
    await expect(page.getByText(en('students.invite.sent', { email }))).toBeVisible();

    const pending = page.getByRole('table', { name: en('students.pending.title') });
    const row = pending.getByRole('row').filter({ hasText: email });
    await expect(row).toBeVisible();
    await expect(row).toContainText(webText('en', `language.short.${invitee}`));
  });

  // ── The mail, in the invitee's language, links to the register page ──
  const invitePattern = /https?:\/\/[^\s"'<>]+(\/register\?invite=[A-Za-z0-9_%-]+)/;
  const mail = await mailFromOutbox(email, invitePattern);
  const names = { instructorName: teacher.name, discount: DISCOUNT };
  expect(mail).toContain(tr(invitee, 'mail', 'instructorInvite.intro', names));
  expect(mail).toContain(tr(invitee, 'mail', 'instructorInvite.discount', names));
  const invitePath = mail.match(invitePattern)![1]!;

  // ── The doctor registers from the link in a fresh browser ──
  const context = await browser.newContext({ locale: BROWSER_LOCALES[invitee] });
  const page = await context.newPage();
  await skipWelcome(page);
  const t = (key: string) => webText(invitee, key);
  const field = (key: string) => fieldName(t(key));
  const shop = (key: string, params?: Record<string, string | number>) =>
    tr(invitee, 'shop', key, params);

  await test.step('the doctor sees the invitation and registers', async () => {
    await page.goto(invitePath);
    await expect(page.getByRole('heading', { name: t('auth.register.title') })).toBeVisible();
    await expect(
      page.getByText(
        tr(invitee, 'admin', 'students.register.invitedBy', {
          instructor: teacher.name,
          discount: DISCOUNT,
        }),
        { exact: true },
      ),
    ).toBeVisible();

    await page.getByRole('textbox', { name: field('auth.register.email') }).fill(email);
    await page.getByRole('textbox', { name: field('profile.general.fname') }).fill(student.fname);
    await page.getByRole('textbox', { name: field('profile.general.lname') }).fill(student.lname);
    await page.getByRole('textbox', { name: field('profile.general.nickName') }).fill(nickName);
    await page.getByLabel(field('auth.register.password')).fill(password);
    await page.getByLabel(field('auth.register.confirmPassword')).fill(password);
    await page.getByRole('button', { name: t('auth.register.readTerms') }).click();
    const terms = page.getByRole('dialog', { name: t('auth.register.termsTitle') });
    await terms.getByRole('button', { name: t('auth.register.termsClose') }).click();
    await page.getByRole('checkbox', { name: t('auth.register.terms') }).check();
    await page.getByRole('button', { name: t('auth.register.submit') }).click();
    await expect(page).toHaveURL(/\/verify$/);
  });

  await test.step('the doctor verifies, logs in and completes the profile', async () => {
    await page.goto(await linkFromOutbox(email, 'verify'));
    await expect(page.getByText(t('auth.verify.success'))).toBeVisible();
    await page.getByRole('link', { name: t('auth.goToLogin') }).click();
    await logIn(page, invitee, nickName, password);
    const complete = page.getByRole('dialog', { name: t('startup.completeProfileTitle') });
    await complete.getByRole('button', { name: t('startup.completeProfileAction') }).click();
    await expect(page).toHaveURL(/\/profile-settings/);
    await completeAddress(page, invitee);
  });

  await test.step('the doctor sees the instructor discount in the checkout summary', async () => {
    const currency = currencyForLanguage(invitee);
    const [product] = await queryRows<{ name: string; price: number }>(
      `select texts -> $2::text ->> 'name' as name, (texts -> $3::text ->> 'price')::int as price
       from products where code = $1`,
      [PRODUCT_CODE, invitee, priceLanguageFor(currency)],
    );
    const { name, price } = product!;
    const discount = percentOf(price, DISCOUNT);
    expect(discount).toBeGreaterThan(0);

    // The invitation made the new account a doctor: the shop is in the menu.
    await page
      .getByRole('navigation', { name: t('nav.main') })
      .getByRole('link', { name: t('nav.shop') })
      .click();
    await expect(page.getByRole('heading', { name: shop('list.title'), level: 1 })).toBeVisible();
    await page.getByRole('searchbox', { name: shop('list.search') }).fill(name);
    const card = page.getByTestId(`shop-card-${PRODUCT_CODE}`);
    await card.getByRole('button', { name: shop('card.addNamed', { name }) }).click();
    await page.getByRole('button', { name: shop('cart.button', { count: 1 }) }).click();
    await page.getByRole('link', { name: shop('cart.checkout') }).click();
    await expect(page).toHaveURL(/\/shop\/checkout$/);
    await page
      .getByRole('textbox', { name: fieldName(shop('checkout.patientFirstName')) })
      .fill('Mateo');
    await page
      .getByRole('textbox', { name: fieldName(shop('checkout.patientLastName')) })
      .fill('Ortega');

    const discountRow = page.getByTestId('breakdown-instructorDiscount');
    await expect(discountRow).toContainText(shop('summary.instructorDiscount'));
    await expect(discountRow).toContainText(formatMoney(-discount, currency));
    await expect(page.getByTestId('checkout-total')).toHaveText(
      formatMoney(price - discount, currency),
    );
    await context.close();
  });

  await test.step('the instructor sees the new student; the invitation is no longer pending', async () => {
    const page = instructorPage;
    await page.reload();
    const students = page.getByRole('table', { name: en('students.title') });
    const row = students.getByRole('row').filter({ hasText: email });
    await expect(row).toContainText(`${student.fname} ${student.lname}`);
    await expect(
      page.getByRole('heading', { name: en('students.pending.title'), level: 2 }),
    ).toBeVisible();
    // The student's row is the only one with that email: none left among the pending ones.
    await expect(page.getByRole('row').filter({ hasText: email })).toHaveCount(1);
    await expect(
      page
        .getByRole('table', { name: en('students.pending.title') })
        .getByRole('row')
        .filter({ hasText: email }),
    ).toHaveCount(0);
    await page.context().close();
  });
});
