import { expect, test, type Locator, type Page } from '@playwright/test';
import { translate, type Language } from '@dentflow/domain';
import { setUserLanguage, sql } from './support/database';
import { isUploadConfirmation, logIn, signIn, skipWelcome } from './support/session';
import { BROWSER_LOCALES, DEMO_PASSWORD } from './support/texts';

/**
 * The case workflow end to end: a doctor in ptBR opens a case through the guided intake, fills
 * the service data, is told which required files are missing, sends them (with a photo) in their
 * slots and submits; the case is not paid, so the supervisor validates it without payment naming
 * the reason (the lab bills it later: the payments queue lists it) and assigns the planner; the
 * planner requests approval; the doctor approves with the password; the printer prints and
 * finishes; the doctor archives the case, finds it in /archive and un-archives it. A second
 * doctor cannot open the first doctor's case.
 */

type Ns = 'cases' | 'domain' | 'web' | 'files' | 'payments';
const tr = (language: Language, ns: Ns, key: string, params?: Record<string, string | number>) =>
  translate(language, ns, key, params);
const pt = (ns: Ns, key: string, params?: Record<string, string | number>) =>
  tr('ptBR', ns, key, params);
const en = (ns: Ns, key: string, params?: Record<string, string | number>) =>
  tr('en', ns, key, params);
/** A label with or without the required-field asterisk. */
const label = (text: string) =>
  new RegExp(`^${text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}(\\s*\\*)?$`);

// A 16×16 PNG, the patient photo of the journey.
const PHOTO = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAABAAAAAQCAIAAACQkWg2AAAAFklEQVR4nGM4URFAEmIY1TCqYfhqAAAe+5AQTySC1gAAAABJRU5ErkJggg==',
  'base64',
);

/** The DICOM Part 10 header the server checks: a 128-byte preamble, then `DICM`. */
const CT_EXAM = Buffer.concat([Buffer.alloc(128), Buffer.from('DICM'), Buffer.alloc(256)]);

/** A binary STL of one triangle (80-byte header, count, normal, three vertices, attribute). */
function triangleStl(): Buffer {
  const buffer = Buffer.alloc(84 + 50);
  buffer.write('dentflow e2e jaw', 0, 'ascii');
  buffer.writeUInt32LE(1, 80);
  [0, 0, 1, 0, 0, 0, 10, 0, 0, 0, 10, 0].forEach((value, i) =>
    buffer.writeFloatLE(value, 84 + i * 4),
  );
  return buffer;
}

const PATIENT = { fname: 'Joaquina', lname: 'Albuquerque Pereira' };
const OVERRIDE_REASON = 'Clinic billed monthly; payment by invoice at the end of the month.';

// One journey in steps: each step needs the one before; several logins make it longer than one page.
test.describe.configure({ mode: 'serial', timeout: 120_000 });

test.beforeAll(async () => {
  // The demo doctor works in Portuguese with prices in reais (as seeded; the profile language
  // rules), whatever an earlier journey made of them.
  await setUserLanguage('doctor', 'ptBR');
  // A second doctor, to show one doctor never sees another's case.
  await sql(
    `insert into users (email, nick_name, fname, lname, display_name, password_hash, roles,
       internal, data_info, data_address, data_capabilities, verified_at)
     select 'doctor2@dentflow.local', 'doctor2', 'Segundo', 'Doutor', 'Segundo Doutor',
       password_hash, roles, internal, data_info, data_address, data_capabilities, now()
     from users where email = 'doctor@dentflow.local'
     on conflict do nothing`,
  );
});

/** Clicks a case action button and confirms it in the confirm dialog. */
async function confirmAction(page: Page, language: Language, action: string) {
  const name = tr(language, 'domain', `caseActions.${action}`);
  await page.getByTestId('case-actions').getByRole('button', { name, exact: true }).click();
  const dialog = page.getByRole('dialog');
  await dialog.getByRole('button', { name, exact: true }).click();
  await expect(dialog).toBeHidden();
}

async function expectStatus(page: Page, language: Language, status: string) {
  await expect(
    page
      .locator('.mantine-Badge-root', { hasText: tr(language, 'domain', `caseStatuses.${status}`) })
      .first(),
  ).toBeVisible();
}

async function choose(scope: Locator, page: Page, fieldLabel: string, option: string) {
  await scope.getByRole('combobox', { name: label(fieldLabel) }).click();
  await page.getByRole('option', { name: option, exact: true }).click();
}

async function answer(scope: Locator, section: string, yes: boolean) {
  const group = scope.getByRole('radiogroup', {
    name: label(pt('domain', `serviceDataSections.${section}`)),
  });
  await group
    .getByRole('radio', {
      name: yes ? pt('cases', 'serviceData.yes') : pt('cases', 'serviceData.no'),
    })
    .check();
}

/** Fills a category-3 service's data form (current layout) and saves it. */
async function fillGuideData(page: Page, card: Locator) {
  await card.getByText(pt('domain', 'jaws.upper'), { exact: true }).click();
  await choose(card, page, pt('cases', 'serviceData.manufacturer'), 'Neodent');
  await choose(card, page, pt('cases', 'serviceData.system'), 'Grand Morse');
  await answer(card, 'provision', false);
  await answer(card, 'extractTeeth', false);
  await answer(card, 'hasOrtho', false);
  await answer(card, 'plasticGum', false);
  await choose(
    card,
    page,
    pt('domain', 'serviceDataSections.treatmentPurpose'),
    pt('domain', 'treatmentPurposes.crownOnImplant'),
  );
  await card
    .getByRole('textbox', { name: label(pt('domain', 'serviceDataSections.extra')) })
    .fill('Implante na região do 16, guia dentossuportado.');
  await card.getByRole('checkbox', { name: pt('cases', 'serviceData.acceptTerms') }).check();
  await card.getByRole('button', { name: pt('cases', 'serviceData.save') }).click();
  await expect(card.getByText(pt('cases', 'services.dataComplete'))).toBeVisible();
}

let caseUrl = '';

test('a doctor opens a case through the guided intake in Portuguese, sends the required files and submits', async ({
  browser,
}) => {
  const page = await signIn(browser, 'doctor', 'ptBR');
  await page.getByRole('link', { name: pt('cases', 'list.newCase') }).click();
  await expect(page.getByRole('heading', { name: pt('cases', 'intake.title') })).toBeVisible();

  // Step 1: the patient (checked before the round trip).
  await page.getByRole('button', { name: pt('cases', 'intake.createAndContinue') }).click();
  await expect(
    page.getByText(translate('ptBR', 'errors', 'validation.required')).first(),
  ).toBeVisible();
  await page
    .getByRole('textbox', { name: label(pt('cases', 'patient.fname')) })
    .fill(PATIENT.fname);
  await page
    .getByRole('textbox', { name: label(pt('cases', 'patient.lname')) })
    .fill(PATIENT.lname);
  await page
    .getByRole('textbox', { name: label(pt('cases', 'patient.observation')) })
    .fill('Paciente com ausência do 16.');
  await page.getByRole('button', { name: pt('cases', 'intake.createAndContinue') }).click();

  // Step 2: services from the catalogue, in reais.
  const planning = 'Planejamento de guia cirúrgico';
  const printing = 'Guia cirúrgico impresso';
  await expect(page.getByText(planning)).toBeVisible();
  await expect(page.getByText('R$ 450,00')).toBeVisible();
  await page.getByRole('checkbox', { name: planning }).check();
  await page.getByRole('checkbox', { name: printing }).check();
  await expect(page.getByText(pt('cases', 'intake.total', { amount: 'R$ 800,00' }))).toBeVisible();
  await page.getByRole('button', { name: pt('cases', 'intake.next') }).click();

  // Step 3: each service's data.
  for (const name of [planning, printing]) {
    const card = page.locator('.mantine-Card-root', { has: page.getByRole('heading', { name }) });
    await fillGuideData(page, card);
  }
  await page.getByRole('button', { name: pt('cases', 'intake.finish') }).click();
  await expect(page).toHaveURL(/\/case\/\d+$/);
  caseUrl = new URL(page.url()).pathname;
  await expect(
    page.getByRole('heading', { name: `${PATIENT.fname} ${PATIENT.lname}` }),
  ).toBeVisible();
  await expectStatus(page, 'ptBR', 'new');

  // The case checks name the required files the guided surgery still misses (upper jaw chosen).
  const upperJaw = pt('domain', 'attachments.exams.upperJawStl');
  const ctExam = pt('domain', 'attachments.exams.dicom');
  await expect(page.getByTestId('check-missing-slots')).toContainText(
    pt('cases', 'general.missingSlots', { names: `${upperJaw}, ${ctExam}` }),
  );

  // A photo, then each required file in its slot, through the Attachments tab.
  await page.getByRole('link', { name: pt('cases', 'general.openAttachments') }).click();
  await expect(
    page.getByRole('tab', { name: pt('cases', 'view.tabs.attachments'), selected: true }),
  ).toBeVisible();
  const upload = async (
    input: Locator,
    file: { name: string; mimeType: string; buffer: Buffer },
  ) => {
    const uploaded = page.waitForResponse((r) => isUploadConfirmation(r.url()));
    await input.setInputFiles(file);
    expect((await uploaded).status()).toBe(200);
  };
  await upload(page.getByTestId('dropzone-photoProtocol').locator('input[type="file"]'), {
    name: 'sorriso.png',
    mimeType: 'image/png',
    buffer: PHOTO,
  });
  const slot = (name: string) =>
    page.getByTestId('empty-slot').filter({ hasText: name }).locator('input[type="file"]');
  await upload(slot(upperJaw), {
    name: 'arcada-superior.stl',
    mimeType: 'model/stl',
    buffer: triangleStl(),
  });
  await upload(slot(ctExam), {
    name: 'tomografia.dcm',
    mimeType: 'application/dicom',
    buffer: CT_EXAM,
  });
  await expect(page.getByTestId('attachment-card')).toHaveCount(3);
  await expect(page.getByTestId('empty-slot')).toHaveCount(0);

  await page.getByRole('tab', { name: pt('cases', 'view.tabs.general') }).click();
  await expect(page.getByTestId('check-missing-slots')).toHaveCount(0);

  await confirmAction(page, 'ptBR', 'submit');
  await expectStatus(page, 'ptBR', 'checkingout');
  await page.context().close();
});

test('the supervisor validates without payment, naming the reason, and assigns the planner', async ({
  browser,
}) => {
  const page = await signIn(browser, 'supervisor', 'en');
  await page.goto(caseUrl);
  await expectStatus(page, 'en', 'checkingout');
  // Nothing is paid: the checks name the services, and plain validation is not offered.
  await expect(page.getByTestId('check-unpaid')).toBeVisible();
  const actions = page.getByTestId('case-actions');
  await expect(
    actions.getByRole('button', { name: en('domain', 'caseActions.validate'), exact: true }),
  ).toHaveCount(0);
  const override = en('cases', 'actions.validateUnpaid.button');
  await actions.getByRole('button', { name: override }).click();
  const dialog = page.getByRole('dialog', { name: override });
  await expect(dialog).toContainText(/the lab bills the client later/);
  // The reason is required.
  await dialog.getByRole('button', { name: override }).click();
  await expect(dialog.getByText(translate('en', 'errors', 'validation.required'))).toBeVisible();
  await dialog
    .getByRole('textbox', { name: label(en('cases', 'actions.validateUnpaid.reason')) })
    .fill(OVERRIDE_REASON);
  await dialog.getByRole('button', { name: override }).click();
  await expect(dialog).toBeHidden();
  await expectStatus(page, 'en', 'execute');
  // Billed later: the services stay unpaid.
  await expect(
    page.getByText(en('cases', 'services.payment.deferred'), { exact: true }).first(),
  ).toBeVisible();

  await page.getByRole('tab', { name: en('cases', 'view.tabs.history') }).click();
  await expect(page.getByTestId('history-override')).toHaveText(
    en('cases', 'history.details.paymentOverride', { reason: OVERRIDE_REASON }),
  );

  await page.getByRole('tab', { name: en('cases', 'view.tabs.users') }).click();
  await page.getByRole('combobox', { name: label(en('cases', 'users.planner')) }).click();
  await page.getByRole('option', { name: 'Planner Demo' }).click();
  await page.getByRole('button', { name: en('cases', 'users.assign') }).click();
  await expect(page.getByText(en('cases', 'users.plannerAssigned'))).toBeVisible();

  // The payments queue lists the case under 'Billed later' until a payment covers it.
  await page.goto('/payments');
  const caseId = caseUrl.split('/').pop();
  const billed = page.getByTestId(`deferred-${caseId}`);
  await expect(billed).toContainText(`${PATIENT.fname} ${PATIENT.lname}`);
  await expect(billed).toContainText(
    en('payments', 'deferred.reason', { reason: OVERRIDE_REASON }),
  );
  await page.context().close();
});

test('the planner requests approval', async ({ browser }) => {
  const page = await signIn(browser, 'planner', 'en');
  await page.goto(caseUrl);
  await confirmAction(page, 'en', 'requestApproval');
  await expectStatus(page, 'en', 'approve');
  await page.context().close();
});

test('the doctor approves with the password', async ({ browser }) => {
  const page = await signIn(browser, 'doctor', 'ptBR');
  await page.goto(caseUrl);
  await page
    .getByTestId('case-actions')
    .getByRole('button', { name: pt('domain', 'caseActions.approve'), exact: true })
    .click();
  const dialog = page.getByRole('dialog');
  // Both services await approval: both are preselected.
  for (const name of ['Planejamento de guia cirúrgico', 'Guia cirúrgico impresso']) {
    await expect(dialog.getByRole('checkbox', { name })).toBeChecked();
  }
  await dialog
    .getByRole('textbox', { name: label(pt('cases', 'approve.text')) })
    .fill('Aprovado, obrigado.');
  await expect(dialog.getByText(pt('cases', 'dialogs.charactersLeft', { n: 81 }))).toBeVisible();
  // A wrong password changes nothing and says so.
  await dialog.getByLabel(label(pt('cases', 'approve.password'))).fill('Errada123');
  await dialog.getByRole('button', { name: pt('domain', 'caseActions.approve') }).click();
  await expect(dialog.getByText(translate('ptBR', 'errors', 'api.WRONG_PASSWORD'))).toBeVisible();
  await dialog.getByLabel(label(pt('cases', 'approve.password'))).fill(DEMO_PASSWORD);
  await dialog.getByRole('button', { name: pt('domain', 'caseActions.approve') }).click();
  await expect(dialog).toBeHidden();
  await expectStatus(page, 'ptBR', 'finishing');
  await page.context().close();
});

test('the printer prints and finishes', async ({ browser }) => {
  const page = await signIn(browser, 'printer', 'en');
  await page.goto(caseUrl);
  await confirmAction(page, 'en', 'startPrint');
  await expectStatus(page, 'en', 'print');
  await confirmAction(page, 'en', 'finish');
  await expectStatus(page, 'en', 'finished');
  await page.context().close();
});

test('the doctor archives the case, finds it in the archive and un-archives it', async ({
  browser,
}) => {
  const page = await signIn(browser, 'doctor', 'ptBR');
  await page.goto(caseUrl);
  await confirmAction(page, 'ptBR', 'archive');
  await expectStatus(page, 'ptBR', 'archive');

  await page.goto('/archive');
  await page.getByRole('textbox', { name: label(pt('cases', 'archive.patient')) }).fill('joaquina');
  await page.getByRole('button', { name: pt('cases', 'archive.search') }).click();
  const row = page.getByTestId('archived-case').filter({ hasText: PATIENT.fname });
  await expect(row).toHaveCount(1);
  await row.getByRole('button', { name: pt('domain', 'caseActions.unarchive') }).click();
  await page
    .getByRole('dialog')
    .getByRole('button', { name: pt('domain', 'caseActions.unarchive') })
    .click();
  await expect(page.getByText(pt('cases', 'archive.unarchived'))).toBeVisible();
  await expect(row).toHaveCount(0);

  await page.goto(caseUrl);
  await expectStatus(page, 'ptBR', 'finished');
  await page.context().close();
});

test("a second doctor cannot open the first doctor's case", async ({ browser }) => {
  const page = await signIn(browser, 'doctor2', 'ptBR');
  await page.goto(caseUrl);
  await expect(page.getByText(pt('cases', 'view.notFoundTitle'))).toBeVisible();
  await expect(page.getByText(PATIENT.lname)).toHaveCount(0);
  await page.context().close();
});

test('on a phone (375 px) the list and the case view fit the width', async ({ browser }) => {
  const context = await browser.newContext({
    locale: BROWSER_LOCALES.ptBR,
    viewport: { width: 375, height: 812 },
  });
  const page = await context.newPage();
  await skipWelcome(page);
  await page.goto('/login');
  await logIn(page, 'ptBR', 'doctor', DEMO_PASSWORD);
  await expect(page).toHaveURL(/\/cases\/new$/);
  const overflow = () =>
    page.evaluate(
      () => document.documentElement.scrollWidth - document.documentElement.clientWidth,
    );

  await page.goto('/cases/finished');
  const card = page.getByTestId('case-card').filter({ hasText: PATIENT.fname });
  await expect(card).toBeVisible();
  expect(await overflow()).toBeLessThanOrEqual(0);
  // On a phone a card opens the case view (no side pane).
  await card.click();
  await expect(page).toHaveURL(new RegExp(`${caseUrl}$`));
  await expect(
    page.getByRole('heading', { name: `${PATIENT.fname} ${PATIENT.lname}` }),
  ).toBeVisible();
  expect(await overflow()).toBeLessThanOrEqual(0);
  await page.getByRole('tab', { name: pt('cases', 'view.tabs.users') }).click();
  expect(await overflow()).toBeLessThanOrEqual(0);
  await page.goto('/cases/create');
  await expect(page.getByRole('heading', { name: pt('cases', 'intake.title') })).toBeVisible();
  expect(await overflow()).toBeLessThanOrEqual(0);
  await page.goto('/archive');
  await expect(page.getByRole('heading', { name: pt('cases', 'archive.title') })).toBeVisible();
  expect(await overflow()).toBeLessThanOrEqual(0);
  await context.close();
});
