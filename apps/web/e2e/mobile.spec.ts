import { expect, test } from '@playwright/test';
import { queryRows, setUserLanguage } from './support/database';
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

test('on a phone the case tabs show that they scroll, and the last tab is reached and opened', async ({
  page,
}) => {
  const [demo] = await queryRows<{ id: number }>(
    `select c.id from cases c join users u on u.id = c.owner_id
      where u.nick_name = 'doctor' and not c.case_archived order by c.id limit 1`,
  );
  await skipWelcome(page);
  await page.goto('/login');
  await logIn(page, 'ptBR', 'doctor', DEMO_PASSWORD);
  await expect(page).toHaveURL(/\/cases\/new$/);
  await page.goto(`/case/${demo!.id}`);

  const strip = page.getByRole('tablist').first();
  const tabs = strip.getByRole('tab');
  const first = tabs.first();
  const last = tabs.last();
  await expect(first).toHaveAttribute('aria-selected', 'true', { timeout: 30_000 });
  // More tabs than the phone's width: the end fades and the last tab is out of sight.
  await expect(strip).toHaveAttribute('data-more-end', '');
  await expect(strip).not.toHaveAttribute('data-more-start', '');
  await expect(last).not.toBeInViewport({ ratio: 1 });

  // By keyboard: left of the first tab comes the last one, which scrolls into view with its panel.
  await first.focus();
  await page.keyboard.press('ArrowLeft');
  await expect(last).toHaveAttribute('aria-selected', 'true');
  await expect(last).toBeInViewport({ ratio: 1 });
  await expect(strip).toHaveAttribute('data-more-start', '');
  await expect(page).toHaveURL(/[?&]tab=history/);
  await expect(page.getByRole('tabpanel')).toBeVisible();

  // Back to the first by touch, then the last again by a tap once scrolled to it.
  await first.tap();
  await expect(first).toHaveAttribute('aria-selected', 'true');
  await strip.evaluate((list) => list.scrollTo({ left: list.scrollWidth }));
  await expect(strip).not.toHaveAttribute('data-more-end', '');
  await last.tap();
  await expect(last).toHaveAttribute('aria-selected', 'true');
});
