import { expect, type Browser, type Page } from '@playwright/test';
import type { Language } from '@dentflow/domain';
import { BROWSER_LOCALES, DEMO_PASSWORD, fieldName, webText } from './texts';

/** Marks the welcome pop-up as seen so a journey that is not about it starts on a quiet page. */
export async function skipWelcome(page: Page): Promise<void> {
  await page.addInitScript(() => window.localStorage.setItem('dentflow.welcomeSeen', '1'));
}

export async function logIn(page: Page, language: Language, login: string, password: string) {
  const t = (key: string) => webText(language, key);
  await expect(page.getByRole('heading', { name: t('auth.login.title') })).toBeVisible();
  await page.getByRole('textbox', { name: fieldName(t('auth.login.login')) }).fill(login);
  await page.getByLabel(fieldName(t('auth.login.password'))).fill(password);
  await page.getByRole('button', { name: t('auth.login.submit') }).click();
}

/**
 * A new browser context in a language, signed in as a demo user and on the case list; page
 * crashes and console errors go to the report with the login as prefix.
 */
export async function signIn(browser: Browser, login: string, language: Language): Promise<Page> {
  const context = await browser.newContext({ locale: BROWSER_LOCALES[language] });
  const page = await context.newPage();
  page.on('pageerror', (error) => console.log(`[${login}] page error: ${error.message}`));
  page.on('console', (message) => {
    if (message.type() === 'error') console.log(`[${login}] console: ${message.text()}`);
  });
  await skipWelcome(page);
  await page.goto('/login');
  await logIn(page, language, login, DEMO_PASSWORD);
  await expect(page).toHaveURL(/\/cases\/new$/);
  return page;
}
