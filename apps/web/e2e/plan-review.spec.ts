import { createHash } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import {
  expect,
  request as playwrightRequest,
  test,
  type Locator,
  type Page,
} from '@playwright/test';
import { translate } from '@dentflow/domain';
import { queryRows, setUserLanguage, sql } from './support/database';
import { E2E_BASE_URL } from './support/environment';
import { pdfText } from './support/pdf-text';
import { isUploadConfirmation, signIn } from './support/session';
import { DEMO_PASSWORD, fieldName } from './support/texts';

/**
 * Reviewing a plan end to end, in English: the planner uploads v1 and publishes it; the doctor
 * pins a note on the model and asks for a change; the planner opens the note from the chat,
 * resolves it, measures, and sends and publishes v2; the doctor opens the pin's link on a fresh
 * page (it stays on v1), finds v1 read-only in the history, compares v1 and v2 side by side,
 * overlaid and as a deviation map (checked by pixels), approves with the password and downloads
 * the certificate, whose text holds v2's SHA-256 and the approver; the public certificate page,
 * signed out, says the code matches. Only the case and its planner are arranged in the database.
 */

type Ns = 'cases' | 'chat' | 'domain' | 'files';
const en = (ns: Ns, key: string, params?: Record<string, string | number>) =>
  translate('en', ns, key, params);

/**
 * A binary STL of a 40 × 30 mm plate (80 × 60 quads, 9,600 triangles) whose height is
 * `height(x)`, facing +z; the viewer recomputes the normals, so they are left at zero.
 */
function plateStl(height: (x: number) => number): Buffer {
  const columns = 80;
  const rows = 60;
  const step = 0.5;
  const buffer = Buffer.alloc(84 + 50 * columns * rows * 2);
  // The header must not start with "solid" (that is the ASCII form).
  buffer.write('dentflow e2e plate', 0, 'ascii');
  buffer.writeUInt32LE(columns * rows * 2, 80);
  let offset = 84;
  const corner = (i: number, j: number) => [i * step, j * step, height(i * step)];
  for (let j = 0; j < rows; j++) {
    for (let i = 0; i < columns; i++) {
      for (const triangle of [
        [corner(i, j), corner(i + 1, j), corner(i + 1, j + 1)],
        [corner(i, j), corner(i + 1, j + 1), corner(i, j + 1)],
      ]) {
        triangle.flat().forEach((value, k) => buffer.writeFloatLE(value, offset + 12 + k * 4));
        offset += 50;
      }
    }
  }
  return buffer;
}

const V1 = { name: 'review-plan-v1.stl', mimeType: 'model/stl', buffer: plateStl(() => 0) };
// v2 bends up to 1 mm away from v1 across the plate: blue at the left edge, red past the middle.
const V2 = {
  name: 'review-plan-v2.stl',
  mimeType: 'model/stl',
  buffer: plateStl((x) => (x / 40) ** 1.5),
};
const V2_SHA256 = createHash('sha256').update(V2.buffer).digest('hex');
const NOTE = 'Implant 36: move 1 mm lingual, too close to the cortex.';
const CHANGE_TEXT = 'Please see my pin on implant 36.';
const PATIENT = { fname: 'Renata', lname: 'Revisada' };

let caseId = 0;
let v1Id = 0;
let pinLink = '';
let certificateCode = '';
let planner: Page;
let doctor: Page;

test.describe.configure({ mode: 'serial', timeout: 90_000 });

test.beforeAll(async ({ browser }) => {
  await setUserLanguage('doctor', 'en');
  const api = await playwrightRequest.newContext({ baseURL: E2E_BASE_URL });
  const login = await api.post('/api/v1/auth/login', {
    data: { login: 'doctor', password: DEMO_PASSWORD },
  });
  expect(login.status()).toBe(200);
  const { accessToken } = ((await login.json()) as { obj: { accessToken: string } }).obj;
  const created = await api.post('/api/v1/case/new', {
    headers: { authorization: `Bearer ${accessToken}` },
    data: { patient: PATIENT },
  });
  expect(created.status()).toBe(200);
  caseId = ((await created.json()) as { obj: { id: number } }).obj.id;
  await api.dispose();
  // A planning service of the demo planner, whose approval is asked for (the request itself and
  // the steps before it have their own journey).
  await sql(
    `insert into case_services (case_id, product_id, product_category_id, planner_id, approve_request_at)
     select $1, p.id, p.product_category_id, (select id from users where nick_name = 'planner'), now()
     from products p where p.product_category_id is not null order by p.id limit 1`,
    [caseId],
  );
  await sql(`update cases set case_status = 'approve', list_group = 'approve' where id = $1`, [
    caseId,
  ]);
  // Each signs in once and keeps their page between turns, like two people at their desks.
  [planner, doctor] = await Promise.all([
    signIn(browser, 'planner', 'en'),
    signIn(browser, 'doctor', 'en'),
  ]);
});

test.afterAll(async () => {
  await planner?.context().close();
  await doctor?.context().close();
});

async function openAttachments(page: Page) {
  await page.goto(`/case/${caseId}?tab=attachments`);
  return page.getByRole('region', { name: en('domain', 'attachments.planning.title') });
}

/** Sends a planning file through the drop zone and waits until the server confirms it. */
async function uploadPlan(page: Page, file: typeof V1) {
  const confirmed = page.waitForResponse((r) => isUploadConfirmation(r.url()));
  await page
    .getByTestId('dropzone-planning')
    .locator('input[type="file"]')
    .setInputFiles({ name: file.name, mimeType: file.mimeType, buffer: file.buffer });
  expect((await confirmed).status()).toBe(200);
}

async function publish(card: Locator) {
  await card.getByRole('button', { name: en('domain', 'attachmentActions.publish') }).click();
  await expect(card.getByText(/^Published by /)).toBeVisible();
}

const waitForModel = (page: Page) =>
  expect(page.getByTestId('stl-canvas')).toHaveAttribute('data-loaded', 'true', {
    timeout: 30_000,
  });

async function chooseTool(page: Page, tool: 'pin' | 'measure') {
  await page
    .getByTestId('stl-viewer')
    .locator('.mantine-SegmentedControl-root')
    .getByText(en('files', `stlViewer.tools.${tool}`), { exact: true })
    .click();
}

/** Clicks the canvas at a fraction of its width and height from its top left corner. */
async function clickCanvas(page: Page, fx: number, fy: number) {
  const canvas = page.getByTestId('stl-canvas');
  const box = (await canvas.boundingBox())!;
  await canvas.click({ position: { x: box.width * fx, y: box.height * fy } });
}

/** The canvas's drawn pixels, bucketed by hue: how many fall in each clearly coloured bucket. */
async function colourBuckets(canvas: Locator) {
  return canvas.evaluate((element) => {
    const source = element as HTMLCanvasElement;
    const copy = document.createElement('canvas');
    copy.width = source.width;
    copy.height = source.height;
    const context = copy.getContext('2d')!;
    context.drawImage(source, 0, 0);
    const { data } = context.getImageData(0, 0, copy.width, copy.height);
    const buckets: Record<string, number> = { red: 0, yellow: 0, green: 0, blue: 0 };
    let drawn = 0;
    for (let i = 0; i < data.length; i += 4) {
      // The cleared background is transparent.
      if (data[i + 3]! < 200) continue;
      drawn++;
      const [r, g, b] = [data[i]! / 255, data[i + 1]! / 255, data[i + 2]! / 255];
      const max = Math.max(r, g, b);
      const min = Math.min(r, g, b);
      // Greys (the older plan, shading) say nothing about the map's colours.
      if (max - min < 0.25) continue;
      let hue =
        max === r
          ? ((g - b) / (max - min)) % 6
          : max === g
            ? (b - r) / (max - min) + 2
            : (r - g) / (max - min) + 4;
      hue = (hue * 60 + 360) % 360;
      if (hue < 25 || hue >= 330) buckets.red!++;
      else if (hue < 70) buckets.yellow!++;
      else if (hue < 170) buckets.green!++;
      else if (hue < 260) buckets.blue!++;
    }
    return { total: data.length / 4, drawn, buckets };
  });
}

test('the planner uploads v1 and publishes it', async () => {
  const page = planner;
  const planning = await openAttachments(page);
  await uploadPlan(page, V1);
  const v1 = planning.getByTestId('attachment-card').filter({ hasText: V1.name });
  await expect(
    v1.getByText(en('files', 'versions.label', { version: 1 }), { exact: true }),
  ).toBeVisible();
  await publish(v1);
  v1Id = Number(await v1.getAttribute('data-attachment-id'));
  expect(v1Id).toBeGreaterThan(0);
});

test('the doctor pins a note on the model and asks for a change', async () => {
  const page = doctor;
  const planning = await openAttachments(page);
  const v1 = planning.getByTestId('attachment-card').filter({ hasText: V1.name });
  await v1.getByRole('button', { name: en('files', 'viewers.open3d') }).click();
  await waitForModel(page);
  await chooseTool(page, 'pin');
  await clickCanvas(page, 0.5, 0.5);
  const dialog = page.getByRole('dialog', { name: en('files', 'pins.newTitle') });
  await dialog.getByRole('textbox', { name: en('files', 'pins.noteLabel') }).fill(NOTE);
  const saved = page.waitForResponse(
    (r) => r.url().endsWith(`/attachment/${v1Id}/pins`) && r.request().method() === 'POST',
  );
  await dialog.getByRole('button', { name: en('files', 'pins.save') }).click();
  expect((await saved).status()).toBe(200);
  await expect(dialog).toBeHidden();
  const item = page.getByTestId('pin-item').filter({ hasText: NOTE });
  await expect(item).toBeVisible();
  await expect(item).not.toHaveAttribute('data-resolved', 'true');
  // The pin is stored on the plate (z = 0) facing up, in model millimetres.
  const [row] = await queryRows<{ point: number[]; normal: number[] }>(
    'select point, normal from plan_pins where attachment_id = $1',
    [v1Id],
  );
  expect(Math.abs(row!.point[2]!)).toBeLessThan(0.01);
  expect(Math.abs(row!.normal[2]!)).toBeCloseTo(1, 3);
  await page.keyboard.press('Escape');
  await expect(page.getByTestId('stl-viewer')).toHaveCount(0);

  await v1.getByRole('button', { name: en('domain', 'attachmentActions.requestChange') }).click();
  const request = page.getByRole('dialog', { name: en('files', 'requestChange.title') });
  await request
    .getByRole('textbox', { name: en('files', 'requestChange.label') })
    .fill(CHANGE_TEXT);
  await request.getByRole('button', { name: en('files', 'requestChange.submit') }).click();
  await expect(request).toBeHidden();
  await expect(
    v1.getByText(en('files', 'requestChange.requested', { text: CHANGE_TEXT })),
  ).toBeVisible();
});

test('the planner opens the note from the chat, resolves it, measures and publishes v2', async () => {
  const page = planner;
  await page.goto(`/case/${caseId}?tab=chat`);
  // The note is the doctor's message on the public channel, with its link to the pin.
  const link = page
    .getByTestId('chat-message')
    .filter({ hasText: NOTE })
    .getByRole('link', { name: en('chat', 'openPin') });
  pinLink = (await link.getAttribute('href'))!;
  const pinId = Number(new URL(pinLink, E2E_BASE_URL).searchParams.get('pin'));
  expect(pinLink).toBe(`/case/${caseId}?tab=attachments&file=${v1Id}&pin=${pinId}`);
  await link.click();

  // The viewer opens on its own, at the pin's camera; the planner resolves the pin.
  const canvas = page.getByTestId('stl-canvas');
  await waitForModel(page);
  await expect(canvas).toHaveAttribute('data-view', `pin:${pinId}`);
  const item = page.getByTestId('pin-item').filter({ hasText: NOTE });
  await item.getByRole('button', { name: en('files', 'pins.resolve') }).click();
  await expect(item).toHaveAttribute('data-resolved', 'true');
  await expect(item.getByRole('button', { name: en('files', 'pins.reopen') })).toBeVisible();
  const [row] = await queryRows<{ resolver: string }>(
    `select u.nick_name as resolver from plan_pins p join users u on u.id = p.resolved_by
      where p.id = $1`,
    [pinId],
  );
  expect(row?.resolver).toBe('planner');

  // Measure: two clicks on the plate, a line and its length in millimetres; Esc clears it first.
  await chooseTool(page, 'measure');
  await clickCanvas(page, 0.4, 0.5);
  await clickCanvas(page, 0.6, 0.5);
  const measured = page.getByTestId('measure-label');
  await expect(measured).toHaveText(/^\d+\.\d mm$/);
  expect(Number((await measured.innerText()).replace(' mm', ''))).toBeGreaterThan(1);
  await page.keyboard.press('Escape');
  await expect(measured).toHaveCount(0);
  await expect(page.getByTestId('stl-viewer')).toBeVisible();
  // Measured again, two quick presses: the first clears, the second closes the viewer.
  await clickCanvas(page, 0.4, 0.5);
  await clickCanvas(page, 0.6, 0.5);
  await expect(measured).toHaveText(/^\d+\.\d mm$/);
  await page.keyboard.press('Escape');
  await page.keyboard.press('Escape');
  await expect(page.getByTestId('stl-viewer')).toHaveCount(0);

  // The next upload answers the change request as v2 of the same plan.
  const planning = page.getByRole('region', { name: en('domain', 'attachments.planning.title') });
  await expect(
    planning.getByText(en('files', 'versions.newVersionOf', { name: V1.name })),
  ).toBeVisible();
  await uploadPlan(page, V2);
  const v2 = planning.getByTestId('attachment-card').filter({ hasText: V2.name });
  await expect(
    v2.getByText(en('files', 'versions.label', { version: 2 }), { exact: true }),
  ).toBeVisible();
  await publish(v2);
});

test('the doctor compares v1 and v2 with the deviation map, approves and gets the certificate', async () => {
  const page = doctor;
  // The pin's link on a fresh page load: the pin stays on v1, resolved.
  await page.goto(pinLink);
  await waitForModel(page);
  const pinId = new URL(pinLink, E2E_BASE_URL).searchParams.get('pin');
  await expect(page.getByTestId('stl-canvas')).toHaveAttribute('data-view', `pin:${pinId}`);
  await expect(page.getByTestId('pin-item').filter({ hasText: NOTE })).toHaveAttribute(
    'data-resolved',
    'true',
  );
  await page.keyboard.press('Escape');
  await expect(page.getByTestId('stl-viewer')).toHaveCount(0);

  // v2 is the current version; v1 is in its history, read-only, with the change asked for.
  const planning = page.getByRole('region', { name: en('domain', 'attachments.planning.title') });
  const chain = planning.getByTestId('plan-chain');
  await expect(chain.getByTestId('attachment-card')).toHaveCount(1);
  const v2 = chain.getByTestId('attachment-card').filter({ hasText: V2.name });
  await chain
    .getByRole('button', { name: en('files', 'versions.history_one', { count: 1 }) })
    .click();
  const history = page.getByRole('dialog', { name: en('files', 'versions.historyTitle') });
  await expect(history.getByText(en('files', 'versions.readOnly'))).toBeVisible();
  const old = history.getByTestId('attachment-card');
  await expect(old).toContainText(V1.name);
  await expect(
    old.getByText(en('files', 'requestChange.requested', { text: CHANGE_TEXT })),
  ).toBeVisible();
  await expect(
    old.getByRole('button', { name: en('domain', 'attachmentActions.requestChange') }),
  ).toHaveCount(0);
  await page.keyboard.press('Escape');
  await expect(history).toBeHidden();

  // Compare opens v2 with its previous version, side by side with linked cameras.
  await v2.getByRole('button', { name: en('files', 'planCompare.open') }).click();
  const viewer = page.getByTestId('plan-compare');
  const older = en('files', 'planCompare.versionName', { version: 1, name: V1.name });
  const newer = en('files', 'planCompare.versionName', { version: 2, name: V2.name });
  await expect(viewer.getByText(en('files', 'planCompare.older', { name: older }))).toBeVisible();
  await expect(viewer.getByText(en('files', 'planCompare.newer', { name: newer }))).toBeVisible();
  const canvases = page.getByTestId('compare-canvas');
  await expect(canvases).toHaveCount(2);
  for (const canvas of await canvases.all()) {
    await expect(canvas).toHaveAttribute('data-loaded', 'true', { timeout: 20_000 });
  }
  const right = canvases.nth(1);
  const before = (await colourBuckets(right)).drawn;
  const box = (await canvases.nth(0).boundingBox())!;
  await page.mouse.move(box.x + box.width / 2, box.y + box.height / 2);
  await page.mouse.down();
  await page.mouse.move(box.x + box.width / 2 + 150, box.y + box.height / 2 + 60, { steps: 5 });
  await page.mouse.up();
  await expect
    .poll(async () => Math.abs((await colourBuckets(right)).drawn - before))
    .toBeGreaterThan(before / 10);

  await viewer.getByText(en('files', 'planCompare.modes.overlay'), { exact: true }).click();
  const overlay = page.locator('[data-testid="compare-canvas"][data-view="overlay"]');
  await expect(overlay).toHaveAttribute('data-loaded', 'true', { timeout: 20_000 });
  await expect(
    viewer.getByRole('switch', { name: en('files', 'planCompare.older', { name: older }) }),
  ).toBeChecked();

  await viewer.getByText(en('files', 'planCompare.modes.deviation'), { exact: true }).click();
  const map = page.locator('[data-testid="compare-canvas"][data-view="deviation"]');
  await expect(map).toHaveAttribute('data-loaded', 'true', { timeout: 30_000 });
  const legend = page.getByTestId('deviation-legend');
  await expect(legend).toContainText(en('files', 'planCompare.legendTitle', { name: older }));
  await expect(legend).toContainText('0.5+');
  // By pixels: the plate is drawn, and the map paints it in at least two clearly different colours.
  const { total, drawn, buckets } = await colourBuckets(map);
  expect(drawn).toBeGreaterThan(total / 50);
  const coloured = Object.entries(buckets).filter(([, count]) => count > drawn / 50);
  expect(coloured.length, JSON.stringify(buckets)).toBeGreaterThanOrEqual(2);
  expect(buckets.blue).toBeGreaterThan(drawn / 50);
  expect(buckets.red).toBeGreaterThan(drawn / 50);
  await page.keyboard.press('Escape');
  await expect(viewer).toHaveCount(0);

  // Approving the case with the password records v2; the history links to the certificate.
  await page
    .getByTestId('case-actions')
    .getByRole('button', { name: en('domain', 'caseActions.approve'), exact: true })
    .click();
  const approve = page.getByRole('dialog');
  await approve
    .getByRole('textbox', { name: fieldName(en('cases', 'approve.text')) })
    .fill('Approved v2.');
  await approve.getByLabel(fieldName(en('cases', 'approve.password'))).fill(DEMO_PASSWORD);
  await approve.getByRole('button', { name: en('domain', 'caseActions.approve') }).click();
  await expect(approve).toBeHidden();

  await page.getByRole('tab', { name: en('cases', 'view.tabs.history') }).click();
  const certificate = page.getByTestId('history-certificate');
  await expect(certificate).toBeVisible();
  certificateCode = /([0-9A-Z]{4}-){5}[0-9A-Z]{4}/.exec(
    (await certificate.textContent()) ?? '',
  )![0];
  const downloading = page.waitForEvent('download');
  await certificate.click();
  const text = await pdfText(await readFile((await (await downloading).path())!));
  const [approver] = await queryRows<{ display_name: string }>(
    `select display_name from users where nick_name = 'doctor'`,
  );
  expect(text).toContain(V2_SHA256);
  expect(text).toContain(approver!.display_name);
  expect(text).toContain(certificateCode);
});

test('the public certificate page, signed out, says the code matches', async ({ browser }) => {
  const context = await browser.newContext({ locale: 'en-US' });
  const page = await context.newPage();
  await page.goto(`/certificate/${certificateCode}`);
  const match = page.getByTestId('certificate-match');
  await expect(match).toContainText('Valid certificate, approved on');
  await expect(match.getByTestId('certificate-sha256')).toHaveText(V2_SHA256);
  await expect(page.getByText(PATIENT.lname)).toHaveCount(0);
  await page.goto('/certificate/0000-0000-0000-0000-0000-0000');
  await expect(page.getByTestId('certificate-none')).toBeVisible();
  await context.close();
});
