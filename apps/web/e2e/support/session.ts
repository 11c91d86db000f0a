import { expect, type Browser, type Page } from '@playwright/test';
import type { Language } from '@dentflow/domain';
import { BROWSER_LOCALES, DEMO_PASSWORD, fieldName, webText } from './texts';
import { offerRememberedDevice, passSecondFactor } from './two-factor';

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
 * A new browser context in a language, signed in as a demo user and on the case list (an admin or
 * supervisor with their second factor); page crashes and console errors go to the report with
 * the login as prefix.
 */
export async function signIn(browser: Browser, login: string, language: Language): Promise<Page> {
  const context = await browser.newContext({ locale: BROWSER_LOCALES[language] });
  const page = await context.newPage();
  page.on('pageerror', (error) => console.log(`[${login}] page error: ${error.message}`));
  page.on('console', (message) => {
    if (message.type() === 'error') console.log(`[${login}] console: ${message.text()}`);
  });
  await skipWelcome(page);
  await offerRememberedDevice(page, login);
  await page.goto('/login');
  await logIn(page, language, login, DEMO_PASSWORD);
  await passSecondFactor(page, language, login);
  await expect(page).toHaveURL(/\/cases\/new$/);
  return page;
}

/**
 * The address tab by hand: typing a full CEP starts a lookup, which fails (no zip provider is
 * configured for the server under test) and unlocks the fields.
 */
export async function completeAddress(page: Page, language: Language) {
  const t = (key: string) => webText(language, key);
  const field = (key: string) => fieldName(t(key));
  await page.getByRole('tab', { name: t('profile.tabs.address') }).click();
  await page.getByRole('textbox', { name: field('profile.address.zipCode') }).fill('01001000');
  await expect(
    page.getByRole('alert').filter({ hasText: t('profile.address.lookupFailed') }),
  ).toBeVisible();
  const country = page.getByRole('textbox', { name: field('profile.address.country') });
  await expect(country).toBeEnabled();
  await country.fill('Brasil');
  await page.getByRole('textbox', { name: field('profile.address.state') }).fill('SP');
  await page.getByRole('textbox', { name: field('profile.address.city') }).fill('São Paulo');
  await page
    .getByRole('textbox', { name: field('profile.address.address') })
    .fill('Praça da Sé, 100');
  await page.getByRole('button', { name: t('profile.save') }).click();
  await expect(page.getByText(t('profile.completed'))).toBeVisible();
}

/**
 * The response that confirms an upload: the single-request upload's confirmation, or the
 * completion of an upload sent in parts (exams and planning files).
 */
export const isUploadConfirmation = (url: string): boolean =>
  url.includes('/attachment/uploadedSuccess/') ||
  (url.includes('/attachment/resumable/') && url.endsWith('/complete'));
