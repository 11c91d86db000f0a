import { expect, test } from '@playwright/test';
import type { Language } from '@dentflow/domain';
import { linkFromOutbox } from './support/outbox';
import { BROWSER_LOCALES, fieldName, webText } from './support/texts';
import { completeAddress, logIn } from './support/session';

/**
 * A new user, in each language the browser may ask for: welcome pop-up → register → follow the
 * verification link from the outbox → log in → sent to complete the profile → completes the
 * address by hand (no zip provider is configured here) → reaches home.
 */
for (const language of ['en', 'ptBR', 'es'] as const satisfies readonly Language[]) {
  test.describe(`new user in ${language}`, () => {
    test.use({ locale: BROWSER_LOCALES[language] });

    test('registers, verifies, logs in, completes the profile and reaches home', async ({
      page,
    }) => {
      const t = (key: string) => webText(language, key);
      const field = (key: string) => fieldName(t(key));
      const suffix = `${language}${Date.now().toString(36)}`.toLowerCase();
      const nickName = `e2e${suffix}`;
      const email = `e2e.${suffix}@example.test`;
      const password = 'Sorriso2026';

      await page.goto('/login');
      const welcome = page.getByRole('dialog', { name: t('auth.welcome.title') });
      await expect(welcome).toBeVisible();
      await welcome.getByRole('button', { name: t('auth.welcome.new') }).click();

      await expect(page).toHaveURL(/\/register$/);
      await expect(page.getByRole('heading', { name: t('auth.register.title') })).toBeVisible();
      await page.getByRole('textbox', { name: field('auth.register.email') }).fill(email);
      await page.getByRole('textbox', { name: field('profile.general.fname') }).fill('Ana');
      await page.getByRole('textbox', { name: field('profile.general.lname') }).fill('Souza');
      await page.getByRole('textbox', { name: field('profile.general.nickName') }).fill(nickName);
      await page.getByLabel(field('auth.register.password')).fill(password);
      await page.getByLabel(field('auth.register.confirmPassword')).fill(password);

      const acceptTerms = page.getByRole('checkbox', { name: t('auth.register.terms') });
      await expect(acceptTerms).toBeDisabled();
      await page.getByRole('button', { name: t('auth.register.readTerms') }).click();
      const terms = page.getByRole('dialog', { name: t('auth.register.termsTitle') });
      // The terms open in the interface language only.
      const termsFrame = terms.frameLocator('iframe');
      await expect(termsFrame.locator(`section#${language}`)).toBeVisible();
      for (const other of (['en', 'ptBR', 'es'] as const).filter((l) => l !== language)) {
        await expect(termsFrame.locator(`section#${other}`)).toBeHidden();
      }
      await terms.getByRole('button', { name: t('auth.register.termsClose') }).click();
      await acceptTerms.check();
      await page.getByRole('button', { name: t('auth.register.submit') }).click();

      await expect(page).toHaveURL(/\/verify$/);
      await expect(
        page.getByRole('heading', { name: t('auth.verify.checkEmailTitle') }),
      ).toBeVisible();

      const verifyPath = await linkFromOutbox(email, 'verify');
      await page.goto(verifyPath);
      await expect(page.getByText(t('auth.verify.success'))).toBeVisible();
      await page.getByRole('link', { name: t('auth.goToLogin') }).click();

      await logIn(page, language, nickName, password);
      const complete = page.getByRole('dialog', { name: t('startup.completeProfileTitle') });
      await expect(complete).toBeVisible();
      await complete.getByRole('button', { name: t('startup.completeProfileAction') }).click();

      await expect(page).toHaveURL(/\/profile-settings/);
      // No zip provider is configured for this server: the address is typed in by hand.
      await completeAddress(page, language);
      await expect(page).toHaveURL(/\/cases\/new$/);
      await expect(
        page.getByRole('navigation').getByRole('link', { name: t('cases.filters.new') }),
      ).toBeVisible();
      await expect(
        page.getByRole('dialog', { name: t('startup.completeProfileTitle') }),
      ).toHaveCount(0);
    });
  });
}
