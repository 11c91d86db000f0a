import { statSync, writeFileSync } from 'node:fs';
import {
  expect,
  request as playwrightRequest,
  test,
  type Download,
  type Page,
  type Request,
  type Route,
} from '@playwright/test';
import { DEFAULT_UPLOAD_PART_BYTES, translate } from '@dentflow/domain';
import { setUserLanguage } from './support/database';
import { E2E_BASE_URL } from './support/environment';
import { isUploadConfirmation, signIn } from './support/session';
import { DEMO_PASSWORD } from './support/texts';

/**
 * Exams sent in parts survive the clinic's connection, in English: the network drops in the
 * middle of an upload, the box says it is trying again, and the upload ends once the network is
 * back; a reload in the middle of another, then the same file chosen again, sends only the parts
 * the store lacks. Files of a few parts at the server's real part size, made in the test.
 */

const en = (ns: 'cases' | 'domain' | 'files', key: string) => translate('en', ns, key);
const PART = DEFAULT_UPLOAD_PART_BYTES;

/** A zip of `parts` parts (the last one short) on disk: the same file can be chosen twice. */
function examFile(path: string, parts: number): { path: string; size: number } {
  const size = (parts - 1) * PART + 1024 * 1024;
  const bytes = Buffer.alloc(size, 0x2a);
  bytes.set([0x50, 0x4b, 0x03, 0x04]); // a zip's local file header: the confirmation checks it
  writeFileSync(path, bytes);
  return { path, size };
}

/** A part's PUT: to the app's part endpoint, or to an S3 store's presigned URL. */
const isPartPut = (request: Request) =>
  request.method() === 'PUT' &&
  (request.url().includes('/api/v1/storage/part?') || /[?&]partNumber=\d+/.test(request.url()));
const PART_URLS = '**/api/v1/attachment/resumable/*/partUrls';

/** Holds the requests it handles after the first `free` until `release()`. */
function requestGate(free: number) {
  let calls = 0;
  let open!: () => void;
  const released = new Promise<void>((resolve) => (open = resolve));
  return {
    async handle(route: Route) {
      if (++calls > free) await released;
      await route.continue().catch(() => undefined); // the page may have gone (a reload)
    },
    release: () => open(),
  };
}

/** Holds the part PUTs after the first `free` until `release()`; other requests go. */
async function holdPartPuts(page: Page, free: number) {
  const gate = requestGate(free);
  await page.route('**/*', (route) =>
    isPartPut(route.request()) ? gate.handle(route) : route.fallback(),
  );
  return gate;
}

let caseId = 0;

async function apiToken(): Promise<string> {
  const api = await playwrightRequest.newContext({ baseURL: E2E_BASE_URL });
  const response = await api.post('/api/v1/auth/login', {
    data: { login: 'doctor', password: DEMO_PASSWORD },
  });
  expect(response.status()).toBe(200);
  const token = ((await response.json()) as { obj: { accessToken: string } }).obj.accessToken;
  await api.dispose();
  return token;
}

/** The stored file, through the owner's download link: its size and first bytes. */
async function downloaded(attachmentId: number) {
  const api = await playwrightRequest.newContext({ baseURL: E2E_BASE_URL });
  const response = await api.get(`/api/v1/attachment/${attachmentId}/download`, {
    headers: { authorization: `Bearer ${await apiToken()}` },
  });
  expect(response.status()).toBe(200);
  const body = await response.body();
  await api.dispose();
  return { size: body.length, head: [...body.subarray(0, 4)] };
}

async function openAttachments(page: Page) {
  await page.goto(`/case/${caseId}?tab=attachments`);
  await expect(
    page.getByRole('tab', { name: en('cases', 'view.tabs.attachments') }),
  ).toHaveAttribute('aria-selected', 'true');
}

const exams = (page: Page) =>
  page.getByRole('region', { name: en('domain', 'attachments.exams.title') });
const chooseExam = (page: Page, path: string) =>
  page.getByTestId('dropzone-exams').locator('input[type="file"]').setInputFiles(path);
const confirmedId = async (page: Page) => {
  const response = await page.waitForResponse((r) => isUploadConfirmation(r.url()));
  expect(response.status()).toBe(200);
  return ((await response.json()) as { obj: { attachment: { id: number } } }).obj.attachment.id;
};

test.describe.configure({ mode: 'serial', timeout: 60_000 });

test.beforeAll(async () => {
  await setUserLanguage('doctor', 'en');
  const api = await playwrightRequest.newContext({
    baseURL: E2E_BASE_URL,
    extraHTTPHeaders: { authorization: `Bearer ${await apiToken()}` },
  });
  const response = await api.post('/api/v1/case/new', {
    data: { patient: { fname: 'Rita', lname: 'Reconecta' } },
  });
  expect(response.status()).toBe(200);
  caseId = ((await response.json()) as { obj: { id: number } }).obj.id;
  await api.dispose();
});

test('the network drops in the middle of an exam upload; it ends once it is back', async ({
  browser,
}, testInfo) => {
  const file = examFile(testInfo.outputPath('cbct-drop.zip'), 3);
  const page = await signIn(browser, 'doctor', 'en');
  await openAttachments(page);
  // Part 1 goes; the others are held until the network is down.
  const gate = await holdPartPuts(page, 1);
  const firstPart = page.waitForResponse((r) => isPartPut(r.request()) && r.status() === 200);
  const confirmed = confirmedId(page);
  await chooseExam(page, file.path);
  await firstPart;

  await page.context().setOffline(true);
  gate.release();
  const item = page.getByTestId('upload-item').filter({ hasText: 'cbct-drop.zip' });
  await expect(item.getByRole('status')).toHaveText(en('files', 'upload.reconnecting'));
  await page.context().setOffline(false);

  const id = await confirmed;
  await expect(item).toHaveCount(0);
  const card = exams(page).getByTestId('attachment-card').filter({ hasText: 'cbct-drop.zip' });
  await expect(card).toBeVisible();
  // It opens: the card's download gives the whole file.
  // (A new tab starts it: the event may come from either page.)
  const started = new Promise<Download>((resolve) => {
    page.once('download', resolve);
    page.context().on('page', (opened) => opened.once('download', resolve));
  });
  await card.getByRole('button', { name: en('files', 'common.download') }).click();
  const download = await started;
  expect(download.suggestedFilename()).toBe('cbct-drop.zip');
  expect(statSync(await download.path()).size).toBe(file.size);
  expect(await downloaded(id)).toEqual({ size: file.size, head: [0x50, 0x4b, 0x03, 0x04] });
  await page.context().close();
});

test('a reload in the middle of an upload: the same file again sends only the missing parts', async ({
  browser,
}, testInfo) => {
  const file = examFile(testInfo.outputPath('cbct-reload.zip'), 4);
  const page = await signIn(browser, 'doctor', 'en');
  await openAttachments(page);
  // Two parts go (parts are sent three at a time, so which two is up to the browser); the other
  // two are held while the page reloads.
  const before = await holdPartPuts(page, 2);
  let sent = 0;
  const twoParts = new Promise<void>((resolve) =>
    page.on('requestfinished', async (request) => {
      if (isPartPut(request) && (await request.response())?.status() === 200 && ++sent === 2)
        resolve();
    }),
  );
  await chooseExam(page, file.path);
  await twoParts;
  // The browser keeps each part's ETag as soon as the store answers it.
  const keptParts = () =>
    page.evaluate(() => {
      const key = Object.keys(localStorage).find((k) => k.includes('cbct-reload.zip'));
      const saved = key ? (JSON.parse(localStorage.getItem(key)!) as { etags: object }) : null;
      return saved ? Object.keys(saved.etags).map(Number) : [];
    });
  await expect.poll(async () => (await keptParts()).length).toBe(2);
  const kept = await keptParts();
  const missing = [1, 2, 3, 4].filter((part) => !kept.includes(part));

  // Leaving asks first while an upload runs: the doctor reloads anyway.
  page.once('dialog', (dialog) => void dialog.accept());
  await page.reload();
  before.release();
  await page.unroute('**/*');
  await expect(page.getByTestId('upload-item')).toHaveCount(0);

  // The same file chosen again resumes: only the two missing parts are sent.
  const resent: number[] = [];
  const asked = new Set<number>();
  page.on('request', (request) => {
    if (isPartPut(request)) resent.push(1);
    if (request.url().endsWith('/partUrls')) {
      const { partNumbers } = request.postDataJSON() as { partNumbers: number[] };
      partNumbers.forEach((part) => asked.add(part));
    }
  });
  const after = requestGate(1); // the first call checks the upload is still open
  await page.route(PART_URLS, (route) => after.handle(route));
  const confirmed = confirmedId(page);
  await chooseExam(page, file.path);
  const item = page.getByTestId('upload-item').filter({ hasText: 'cbct-reload.zip' });
  await expect(item.getByText(en('files', 'upload.resumed'))).toBeVisible();
  after.release();

  const id = await confirmed;
  expect(resent).toHaveLength(2);
  expect([...asked].sort()).toEqual(missing);
  await expect(
    exams(page).getByTestId('attachment-card').filter({ hasText: 'cbct-reload.zip' }),
  ).toBeVisible();
  expect(await downloaded(id)).toEqual({ size: file.size, head: [0x50, 0x4b, 0x03, 0x04] });
  await page.context().close();
});
