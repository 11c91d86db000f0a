import { expect, test } from '@playwright/test';
import { sql } from './support/database';
import { logIn, skipWelcome } from './support/session';
import { DEMO_PASSWORD, webText } from './support/texts';

const title = 'Novo prazo de entrega';
const body = 'Guias impressas agora saem em 3 dias úteis.';

test.beforeEach(async ({ page }) => {
  await skipWelcome(page);
  // Announcements have no admin screen yet (a later issue); arrange one in the database.
  await sql('INSERT INTO announcements (active, title, body) VALUES (true, $1, $2)', [title, body]);
});

test.afterEach(async () => {
  await sql('UPDATE announcements SET active = false');
});

test('an active announcement is shown after login, then the user goes home', async ({ page }) => {
  await page.goto('/profile-settings');
  await logIn(page, 'en', 'clinic', DEMO_PASSWORD);

  const dialog = page.getByRole('dialog', { name: title });
  await expect(dialog).toBeVisible();
  await expect(dialog).toContainText(body);
  await dialog.getByRole('button', { name: webText('en', 'feedback.ok') }).click();

  await expect(dialog).toBeHidden();
  await expect(page).toHaveURL(/\/cases\/new$/);
});
