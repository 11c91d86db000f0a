import { readFile } from 'node:fs/promises';
import { expect, request as playwrightRequest, test, type Page } from '@playwright/test';
import { translate } from '@dentflow/domain';
import { queryRows, setUserLanguage, sql } from './support/database';
import { E2E_BASE_URL } from './support/environment';
import { pdfText } from './support/pdf-text';
import { isUploadConfirmation, signIn } from './support/session';
import { DEMO_PASSWORD } from './support/texts';

/**
 * Plan versions and the approval record, in English: the planner's v1 awaits a change (arranged
 * through the API); the planner sends v2 as the new version of that file and publishes it; the
 * doctor sees v2 as the current version and v1 in its history, approves the case with the
 * password and downloads the certificate, whose text holds v2's SHA-256 and the approver; the
 * public certificate page, signed out, says the code matches.
 */

type Ns = 'cases' | 'domain' | 'files';
const en = (ns: Ns, key: string, params?: Record<string, string | number>) =>
  translate('en', ns, key, params);
const label = (text: string) =>
  new RegExp(`^${text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}(\\s*\\*)?$`);

/** Fixed plans (ASCII STL) and the SHA-256 of v2 from `printf '…' | sha256sum`. */
const PLAN_V1 = Buffer.from(
  'solid plan\nfacet normal 0 0 1\nouter loop\nvertex 0 0 0\nvertex 10 0 0\nvertex 0 10 0\nendloop\nendfacet\nendsolid plan\n',
);
const PLAN_V2 = Buffer.from(
  'solid plan\nfacet normal 0 0 1\nouter loop\nvertex 0 0 0\nvertex 12 0 0\nvertex 0 12 5\nendloop\nendfacet\nendsolid plan\n',
);
const PLAN_V2_SHA256 = '213e989bb083b96c6ed61246d6f8042b931124f09c875464275fd3328c5dec7e';
const V1_NAME = 'versioned-guide-v1.stl';
const V2_NAME = 'versioned-guide-v2.stl';
const CHANGE_TEXT = 'Tilt the implant of tooth 24 two degrees.';
const PATIENT = { fname: 'Valentina', lname: 'Versionada' };

let caseId = 0;
let certificateCode = '';

async function apiAs(login: string) {
  const anonymous = await playwrightRequest.newContext({ baseURL: E2E_BASE_URL });
  const response = await anonymous.post('/api/v1/auth/login', {
    data: { login, password: DEMO_PASSWORD },
  });
  expect(response.status()).toBe(200);
  const { accessToken } = ((await response.json()) as { obj: { accessToken: string } }).obj;
  await anonymous.dispose();
  return playwrightRequest.newContext({
    baseURL: E2E_BASE_URL,
    extraHTTPHeaders: { authorization: `Bearer ${accessToken}` },
  });
}

const objOf = async <T>(response: { status(): number; json(): Promise<unknown> }) => {
  expect(response.status()).toBe(200);
  return ((await response.json()) as { obj: T }).obj;
};

async function openAttachments(page: Page) {
  await page.goto(`/case/${caseId}?tab=attachments`);
  await expect(
    page.getByRole('tab', { name: en('cases', 'view.tabs.attachments') }),
  ).toHaveAttribute('aria-selected', 'true');
  return page.getByRole('region', { name: en('domain', 'attachments.planning.title') });
}

test.describe.configure({ mode: 'serial', timeout: 60_000 });

test.beforeAll(async () => {
  await setUserLanguage('doctor', 'en');
  const doctor = await apiAs('doctor');
  caseId = (
    await objOf<{ id: number }>(
      await doctor.post('/api/v1/case/new', { data: { patient: PATIENT } }),
    )
  ).id;
  // A planning service of the demo planner, awaiting the doctor's approval.
  await sql(
    `insert into case_services (case_id, product_id, product_category_id, planner_id, approve_request_at)
     select $1, p.id, p.product_category_id, (select id from users where nick_name = 'planner'), now()
     from products p where p.product_category_id is not null order by p.id limit 1`,
    [caseId],
  );
  await sql(`update cases set case_status = 'approve', list_group = 'approve' where id = $1`, [
    caseId,
  ]);
  // The planner's v1, published; the doctor asks for a change.
  const planner = await apiAs('planner');
  const { attachment, upload } = await objOf<{
    attachment: { id: number };
    upload: { url: string; fields: Record<string, string> };
  }>(
    await planner.post(`/api/v1/attachment/createPostUrl/${caseId}`, {
      data: { filename: V1_NAME, filesize: PLAN_V1.length, attachment_name: 'planning' },
    }),
  );
  const posted = await planner.post(upload.url, {
    multipart: {
      ...upload.fields,
      file: { name: V1_NAME, mimeType: 'model/stl', buffer: PLAN_V1 },
    },
  });
  expect(posted.status()).toBe(204);
  await objOf(await planner.get(`/api/v1/attachment/uploadedSuccess/${attachment.id}`));
  await objOf(await planner.get(`/api/v1/attachment/${attachment.id}/publish`));
  await objOf(
    await doctor.post(`/api/v1/attachment/${attachment.id}/request4Change`, {
      data: { text: CHANGE_TEXT },
    }),
  );
  await planner.dispose();
  await doctor.dispose();
});

test('the planner sends v2 as the new version of the file and publishes it', async ({
  browser,
}) => {
  const page = await signIn(browser, 'planner', 'en');
  const planning = await openAttachments(page);
  await expect(
    planning.getByText(en('files', 'versions.newVersionOf', { name: V1_NAME })),
  ).toBeVisible();
  const confirmed = page.waitForResponse((r) => isUploadConfirmation(r.url()));
  await page
    .getByTestId('dropzone-planning')
    .locator('input[type="file"]')
    .setInputFiles({ name: V2_NAME, mimeType: 'model/stl', buffer: PLAN_V2 });
  expect((await confirmed).status()).toBe(200);
  const v2 = planning.getByTestId('attachment-card').filter({ hasText: V2_NAME });
  await expect(
    v2.getByText(en('files', 'versions.label', { version: 2 }), { exact: true }),
  ).toBeVisible();
  await v2.getByRole('button', { name: en('domain', 'attachmentActions.publish') }).click();
  await expect(v2.getByText(/^Published by /)).toBeVisible();
  await page.context().close();
});

test('the doctor sees v2 current and v1 in its history, and approves with the password', async ({
  browser,
}) => {
  const page = await signIn(browser, 'doctor', 'en');
  const planning = await openAttachments(page);
  const chain = planning.getByTestId('plan-chain');
  await expect(chain.getByTestId('attachment-card')).toHaveCount(1);
  await expect(chain.getByTestId('attachment-card')).toContainText(V2_NAME);
  await chain
    .getByRole('button', { name: en('files', 'versions.history_one', { count: 1 }) })
    .click();
  const history = page.getByRole('dialog', { name: en('files', 'versions.historyTitle') });
  await expect(history.getByTestId('attachment-card')).toContainText(V1_NAME);
  await expect(
    history.getByText(en('files', 'requestChange.requested', { text: CHANGE_TEXT })),
  ).toBeVisible();
  await page.keyboard.press('Escape');
  await expect(history).toBeHidden();

  await page.goto(`/case/${caseId}`);
  await page
    .getByTestId('case-actions')
    .getByRole('button', { name: en('domain', 'caseActions.approve'), exact: true })
    .click();
  const dialog = page.getByRole('dialog');
  await dialog
    .getByRole('textbox', { name: label(en('cases', 'approve.text')) })
    .fill('Approved v2.');
  await dialog.getByLabel(label(en('cases', 'approve.password'))).fill(DEMO_PASSWORD);
  await dialog.getByRole('button', { name: en('domain', 'caseActions.approve') }).click();
  await expect(dialog).toBeHidden();

  await page.getByRole('tab', { name: en('cases', 'view.tabs.history') }).click();
  const link = page.getByTestId('history-certificate');
  await expect(link).toBeVisible();
  certificateCode = /([0-9A-Z]{4}-){5}[0-9A-Z]{4}/.exec((await link.textContent()) ?? '')![0];
  const downloading = page.waitForEvent('download');
  await link.click();
  const text = await pdfText(await readFile((await (await downloading).path())!));
  const [doctor] = await queryRows<{ display_name: string }>(
    `select display_name from users where nick_name = 'doctor'`,
  );
  expect(text).toContain(PLAN_V2_SHA256);
  expect(text).toContain(doctor!.display_name);
  expect(text).toContain(certificateCode);
  await page.context().close();
});

test('the public certificate page, signed out, says the code matches', async ({ browser }) => {
  const context = await browser.newContext({ locale: 'en-US' });
  const page = await context.newPage();
  await page.goto(`/certificate/${certificateCode}`);
  const match = page.getByTestId('certificate-match');
  await expect(match).toContainText('Valid certificate, approved on');
  await expect(match.getByTestId('certificate-sha256')).toHaveText(PLAN_V2_SHA256);
  await expect(page.getByText(PATIENT.lname)).toHaveCount(0);
  await page.goto('/certificate/0000-0000-0000-0000-0000-0000');
  await expect(page.getByTestId('certificate-none')).toBeVisible();
  await context.close();
});
