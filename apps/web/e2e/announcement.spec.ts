import { expect, test } from '@playwright/test';
import { translate } from '@dentflow/domain';
import { setUserLanguage, sql } from './support/database';
import { logIn, signIn, skipWelcome } from './support/session';
import { DEMO_PASSWORD, webText } from './support/texts';

/**
 * Announcements: an admin writes one in three languages on /settings/announcements
 * and activates it; a user sees it in their language over the page they opened, closes it and
 * stays there; the dismissal is remembered, so a reload does not show it again.
 */

const texts = {
  ptBR: { title: 'Novo prazo de entrega', body: 'Guias impressas agora saem em 3 dias úteis.' },
  en: { title: 'New delivery time', body: 'Printed guides now ship in 3 business days.' },
  es: { title: 'Nuevo plazo de entrega', body: 'Las guías impresas salen en 3 días hábiles.' },
};

test.afterEach(async () => {
  await sql('UPDATE announcements SET active = false');
});

test('an admin activates an announcement; a user sees it once, over the page they opened', async ({
  browser,
  page,
}) => {
  const admin = await signIn(browser, 'admin', 'en');
  await admin.goto('/settings/announcements');
  await admin.getByTestId('announcement-new').click();
  for (const language of ['ptBR', 'en', 'es'] as const) {
    await admin.getByTestId(`announcement-tab-${language}`).click();
    await admin.getByTestId(`announcement-title-${language}`).fill(texts[language].title);
    await admin.getByTestId(`announcement-body-${language}`).fill(texts[language].body);
  }
  await admin.getByTestId('announcement-save').click();
  const row = admin.locator('[data-testid^="announcement-row-"]', { hasText: texts.en.title });
  await expect(row).toBeVisible();
  await row.locator('[data-testid^="announcement-activate-"]').click();
  await admin.getByTestId('announcement-activate-confirm').click();
  await expect(row.locator('[data-testid^="announcement-status-"]')).toHaveText(
    translate('en', 'admin', 'settings.announcements.active'),
  );
  await admin.context().close();

  // The demo clinic reads Portuguese (as seeded) while its browser asks for English.
  await setUserLanguage('clinic', 'ptBR');
  await skipWelcome(page);
  await page.goto('/profile-settings');
  await logIn(page, 'en', 'clinic', DEMO_PASSWORD);
  const dialog = page.getByRole('dialog', { name: texts.ptBR.title });
  await expect(dialog).toBeVisible();
  await expect(dialog).toContainText(texts.ptBR.body);
  await dialog.getByRole('button', { name: webText('ptBR', 'feedback.ok') }).click();
  await expect(dialog).toBeHidden();
  // Closing never navigates away: the page the user (or a mailed link) opened stays.
  await expect(page).toHaveURL(/\/profile-settings$/);
  // Dismissed on the server: a new page load does not show it again.
  await page.goto('/cases/new');
  await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
  await expect(page.getByRole('dialog', { name: texts.ptBR.title })).toHaveCount(0);
});
