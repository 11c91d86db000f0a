import { expect, test } from '@playwright/test';
import { translate } from '@dentflow/domain';
import { DEMO_PASSWORD, webText } from './support/texts';
import { setUserLanguage } from './support/database';
import { logIn, skipWelcome } from './support/session';

const t = (key: string) => webText('en', key);

// The (Brazilian) demo doctor in English, so the pages after login read as `t`.
test.beforeAll(() => setUserLanguage('doctor', 'en'));

test.beforeEach(async ({ page }) => {
  await skipWelcome(page);
});

test('a wrong password shows the generic error and keeps the user on the login page', async ({
  page,
}) => {
  await page.goto('/login');
  await logIn(page, 'en', 'doctor', 'WrongPassword1');
  await expect(page.getByRole('alert')).toContainText(
    translate('en', 'errors', 'api.INVALID_CREDENTIALS'),
  );
  await expect(page).toHaveURL(/\/login$/);
});

test('logging out returns to the login page and the session is gone', async ({ page }) => {
  await page.goto('/login');
  await logIn(page, 'en', 'doctor@dentflow.local', DEMO_PASSWORD);
  await expect(page).toHaveURL(/\/cases\/new$/);

  await page.getByRole('button', { name: t('nav.userMenu') }).click();
  await page.getByRole('menuitem', { name: t('nav.logout') }).click();
  await expect(page).toHaveURL(/\/login$/);

  await page.goto('/profile-settings');
  await expect(page).toHaveURL(/\/login$/);
});

test('a deep link while logged out goes to login and back after login', async ({ page }) => {
  await page.goto('/profile-settings?tab=roles');
  await expect(page).toHaveURL(/\/login$/);
  await logIn(page, 'en', 'doctor', DEMO_PASSWORD);
  await expect(page).toHaveURL(/\/profile-settings\?tab=roles$/);
  await expect(page.getByRole('heading', { name: t('profile.title') })).toBeVisible();
});
