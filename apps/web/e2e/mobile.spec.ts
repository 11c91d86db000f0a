import { expect, test } from '@playwright/test';
import { setUserLanguage } from './support/database';
import { logIn, skipWelcome } from './support/session';
import { DEMO_PASSWORD, webText } from './support/texts';

// The browser asks for Portuguese; the demo doctor's profile language (en, set below) overrides it
// after login.
const t = (key: string) => webText('en', key);

test.beforeAll(() => setUserLanguage('doctor', 'en'));

test.use({
  viewport: { width: 375, height: 812 },
  isMobile: true,
  hasTouch: true,
  locale: 'pt-BR',
});

test('on a phone the menu opens from the burger, navigates and closes; logout works', async ({
  page,
}) => {
  await skipWelcome(page);
  await page.goto('/login');
  await logIn(page, 'ptBR', 'doctor', DEMO_PASSWORD);
  await expect(page).toHaveURL(/\/cases\/new$/);
  await expect(page.locator('html')).toHaveAttribute('lang', 'en-US');

  const navigation = page.getByRole('navigation', { name: t('nav.main') });
  const approveLink = navigation.getByRole('link', { name: t('cases.filters.approve') });
  await expect(approveLink).not.toBeInViewport();

  await page.getByRole('button', { name: t('nav.toggleNavigation') }).click();
  await expect(approveLink).toBeInViewport();
  await approveLink.click();
  await expect(page).toHaveURL(/\/cases\/approve$/);
  await expect(approveLink).not.toBeInViewport();

  // Nothing overflows the phone's width.
  const overflow = await page.evaluate(
    () => document.documentElement.scrollWidth - document.documentElement.clientWidth,
  );
  expect(overflow).toBeLessThanOrEqual(0);

  await page.getByRole('button', { name: t('nav.userMenu') }).click();
  await page.getByRole('menuitem', { name: t('nav.logout') }).click();
  await expect(page).toHaveURL(/\/login$/);
});
