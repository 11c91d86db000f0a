import { expect, type Page } from '@playwright/test';
import type { Language } from '@dentflow/domain';
import { fieldName, webText } from './texts';

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
