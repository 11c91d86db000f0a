import { expect, test, type Page } from '@playwright/test';
import { translate, type Language } from '@dentflow/domain';
import { queryRows, setUserLanguage } from './support/database';
import { signIn } from './support/session';
import { DEMO_PASSWORD } from './support/texts';

/**
 * What a clinic meets on the case page: the doctor approves a planning in a dialog that shows no
 * error before they act, with every pending service chosen and the comment's reason said, and
 * reads the history as sentences; a printer sees no Transactions tab; a finished case says it is
 * finished; a supervisor adds a member, switches their notifications and removes them.
 */

type Ns = 'cases' | 'domain' | 'errors';
const tr = (language: Language, ns: Ns, key: string, params?: Record<string, string | number>) =>
  translate(language, ns, key, params);
const pt = (ns: Ns, key: string, params?: Record<string, string | number>) =>
  tr('ptBR', ns, key, params);
const en = (ns: Ns, key: string, params?: Record<string, string | number>) =>
  tr('en', ns, key, params);
/** A label with or without the required-field asterisk. */
const label = (text: string) =>
  new RegExp(`^${text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}(\\s*\\*)?$`);

/** The demo case of this patient (the seed's names are unique). */
async function demoCase(fname: string): Promise<number> {
  const [row] = await queryRows<{ id: number }>(
    'select c.id from cases c join patients p on p.id = c.patient_id where p.fname = $1',
    [fname],
  );
  if (!row) throw new Error(`no demo case of ${fname}`);
  return row.id;
}

/**
 * Opens a demo case and waits for its title: the first visit also loads the case route's code,
 * which takes long on a machine shared by several journeys.
 */
async function openCase(page: Page, fname: string, search = ''): Promise<void> {
  await page.goto(`/case/${await demoCase(fname)}${search}`);
  await expect(page.getByRole('heading', { level: 1, name: new RegExp(`^${fname} `) })).toBeVisible(
    { timeout: 30_000 },
  );
}

const tab = (page: Page, language: Language, name: string) =>
  page.getByRole('tab', { name: new RegExp(`^${tr(language, 'cases', `view.tabs.${name}`)}`) });

test.describe.configure({ mode: 'serial', timeout: 120_000 });

test.beforeAll(async () => {
  await setUserLanguage('doctor', 'ptBR');
});

test('the doctor approves in a quiet dialog, reads the history, sees a finished case', async ({
  browser,
}) => {
  const page = await signIn(browser, 'doctor', 'ptBR');
  await openCase(page, 'Renée');
  // The owner sees the Transactions tab.
  await expect(tab(page, 'ptBR', 'transactions')).toBeVisible();
  await page
    .getByTestId('case-actions')
    .getByRole('button', { name: pt('domain', 'caseActions.approve'), exact: true })
    .click();
  const dialog = page.getByRole('dialog', { name: pt('cases', 'approve.title') });
  await expect(dialog).toBeVisible();
  // No error before the doctor has done anything; every pending service is chosen.
  await expect(dialog.getByText(pt('cases', 'approve.chooseOne'))).toHaveCount(0);
  await expect(dialog.getByText(pt('errors', 'validation.required'))).toHaveCount(0);
  const services = dialog.getByRole('checkbox');
  expect(await services.count()).toBeGreaterThan(0);
  for (const service of await services.all()) await expect(service).toBeChecked();
  // The comment says it is required, and why.
  const comment = dialog.getByRole('textbox', { name: label(pt('cases', 'approve.text')) });
  await expect(dialog.getByText(pt('cases', 'approve.textHint'))).toBeVisible();
  await comment.fill('Planejamento aprovado como apresentado.');
  await dialog.getByLabel(label(pt('cases', 'approve.password'))).fill(DEMO_PASSWORD);
  await dialog.getByRole('button', { name: pt('domain', 'caseActions.approve') }).click();
  await expect(dialog).toBeHidden();

  await tab(page, 'ptBR', 'history').click();
  const history = page.getByTestId('case-history');
  await expect(
    history.getByText(pt('cases', 'history.sentences.moves.approve', { actor: 'Doctor Demo' })),
  ).toBeVisible();
  await expect(
    history.getByText(
      pt('cases', 'history.details.comment', { text: 'Planejamento aprovado como apresentado.' }),
    ),
  ).toBeVisible();
  // Never a raw key: every event reads as a sentence.
  await expect(history).not.toContainText(/attachment[A-Z]|\bpayment\b|history\.|\{\{/);

  // A finished case says it is finished, never "em andamento".
  await openCase(page, 'Noah');
  await expect(page.getByTestId('case-edit-lock')).toHaveText(
    pt('cases', 'general.locked.finished'),
  );
  await expect(page.getByText(/em andamento/)).toHaveCount(0);
  await page.context().close();
});

test('a printer sees no Transactions tab', async ({ browser }) => {
  const page = await signIn(browser, 'printer', 'en');
  await openCase(page, 'André');
  await expect(tab(page, 'en', 'production')).toBeVisible();
  await expect(tab(page, 'en', 'history')).toBeVisible();
  await expect(tab(page, 'en', 'transactions')).toHaveCount(0);
  // Even asked for by the address, the tab is not opened.
  await openCase(page, 'André', '?tab=transactions');
  await expect(tab(page, 'en', 'general')).toHaveAttribute('aria-selected', 'true');
  await page.context().close();
});

test('a supervisor adds a member, switches their notifications and removes them', async ({
  browser,
}) => {
  const page = await signIn(browser, 'supervisor', 'en');
  await openCase(page, 'Liam', '?tab=users');
  await page
    .getByRole('combobox', { name: label(en('cases', 'users.memberSearch')) })
    .fill('printer');
  await page.getByRole('option', { name: /Printer Demo/ }).click();
  await page.getByRole('checkbox', { name: en('cases', 'users.notifyMember') }).uncheck();
  await page.getByRole('button', { name: en('cases', 'users.add') }).click();
  await expect(page.getByText(en('cases', 'users.memberAdded'))).toBeVisible();

  const notify = page.getByRole('switch', {
    name: en('cases', 'users.notifyNamed', { name: 'Printer Demo' }),
  });
  await expect(notify).not.toBeChecked();
  await notify.click({ force: true });
  await expect(
    page.getByText(en('cases', 'users.notifyOn', { name: 'Printer Demo' })),
  ).toBeVisible();
  await expect(notify).toBeChecked();

  await page
    .getByRole('button', { name: en('cases', 'users.removeNamed', { name: 'Printer Demo' }) })
    .click();
  const confirm = page.getByRole('dialog', { name: en('cases', 'users.remove') });
  await confirm.getByRole('button', { name: en('cases', 'users.remove') }).click();
  await expect(page.getByText(en('cases', 'users.removed'))).toBeVisible();
  await expect(notify).toHaveCount(0);

  await tab(page, 'en', 'history').click();
  const history = page.getByTestId('case-history');
  for (const key of ['userAddedNamed', 'notificationsOnNamed', 'userRemovedNamed']) {
    await expect(
      history.getByText(
        en('cases', `history.sentences.${key}`, { actor: 'Supervisor Demo', user: 'Printer Demo' }),
      ),
    ).toBeVisible();
  }
  await page.context().close();
});
