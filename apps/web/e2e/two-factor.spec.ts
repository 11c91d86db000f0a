import { expect, test, type Page } from '@playwright/test';
import { translate, totpStep } from '@dentflow/domain';
import { sql } from './support/database';
import { logIn, skipWelcome } from './support/session';
import { DEMO_PASSWORD, webText } from './support/texts';
import { totpCode } from './support/two-factor';

/**
 * Two-factor sign-in end to end: a new admin must enrol before using the app (the secret read
 * from the page, the code computed here), then signs in with a code; a wrong code is refused and
 * a recovery code works once.
 */

test.describe.configure({ timeout: 120_000 });

const NICK = 'newadmin2fa';
const t = (key: string) => webText('en', key);
const codeField = (page: Page) =>
  page.getByRole('textbox', { name: new RegExp(`^${t('auth.twoFactor.code')}`) });

test.beforeAll(async () => {
  await sql(
    `insert into users (email, nick_name, fname, lname, display_name, password_hash, roles,
       internal, data_info, data_address, data_capabilities, verified_at)
     select $1 || '@dentflow.local', $1, 'Nova', 'Admin', 'Nova Admin', password_hash,
       '["admin"]'::jsonb, true, data_info || '{"language":"en"}'::jsonb, data_address,
       data_capabilities, now()
     from users where email = 'admin@dentflow.local'
     on conflict do nothing`,
    [NICK],
  );
});

async function logOut(page: Page) {
  await page.getByRole('button', { name: t('nav.userMenu') }).click();
  await page.getByRole('menuitem', { name: t('nav.logout') }).click();
  await expect(page.getByRole('heading', { name: t('auth.login.title') })).toBeVisible();
}

async function codePrompt(page: Page) {
  await logIn(page, 'en', NICK, DEMO_PASSWORD);
  const dialog = page.getByRole('dialog', { name: t('auth.twoFactor.codeTitle') });
  await expect(dialog).toBeVisible();
  return dialog;
}

test('an admin enrols at first login, then signs in with a code or a recovery code once', async ({
  page,
}) => {
  await skipWelcome(page);
  await page.goto('/login');
  await logIn(page, 'en', NICK, DEMO_PASSWORD);

  // Enrolment first: nothing else of the app is reachable.
  await expect(page.getByRole('heading', { name: t('auth.twoFactor.enrolTitle') })).toBeVisible();
  await expect(page.getByText(t('auth.twoFactor.enrolRequired'))).toBeVisible();
  await expect(page.getByRole('img', { name: t('auth.twoFactor.qrLabel') })).toBeVisible();
  const secret = (await page.getByTestId('authenticator-secret').innerText()).replace(/\s/g, '');
  expect(secret).toMatch(/^[A-Z2-7]{32}$/);
  const enrolStep = totpStep(Date.now());
  await codeField(page).fill(totpCode(secret, enrolStep));
  await page.getByRole('button', { name: t('auth.twoFactor.confirm') }).click();

  const codes = page.getByTestId('recovery-codes').getByRole('listitem');
  await expect(codes).toHaveCount(10);
  const recoveryCodes = (await codes.allInnerTexts()).map((code) => code.trim());
  await page.getByRole('button', { name: t('auth.twoFactor.continue') }).click();
  await expect(page).toHaveURL(/\/cases\/new$/);
  await logOut(page);

  // A wrong code is refused; the right one of the next step signs in.
  let dialog = await codePrompt(page);
  await codeField(page).fill(totpCode(secret, enrolStep + 5));
  await dialog.getByRole('button', { name: t('auth.twoFactor.verify') }).click();
  await expect(dialog.getByRole('alert')).toHaveText(
    translate('en', 'errors', 'api.TWO_FACTOR_CODE_INVALID'),
  );
  await codeField(page).fill(totpCode(secret, Math.max(totpStep(Date.now()), enrolStep + 1)));
  await dialog.getByRole('button', { name: t('auth.twoFactor.verify') }).click();
  await expect(page).toHaveURL(/\/cases\/new$/);
  await logOut(page);

  // A recovery code works once.
  dialog = await codePrompt(page);
  await codeField(page).fill(recoveryCodes[0]!);
  await dialog.getByRole('button', { name: t('auth.twoFactor.verify') }).click();
  await expect(page).toHaveURL(/\/cases\/new$/);
  await logOut(page);

  dialog = await codePrompt(page);
  await codeField(page).fill(recoveryCodes[0]!);
  await dialog.getByRole('button', { name: t('auth.twoFactor.verify') }).click();
  await expect(dialog.getByRole('alert')).toHaveText(
    translate('en', 'errors', 'api.TWO_FACTOR_CODE_INVALID'),
  );
  await expect(page).toHaveURL(/\/login$/);
});
