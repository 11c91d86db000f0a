import { expect, request as playwrightRequest, test, type Page } from '@playwright/test';
import { translate } from '@dentflow/domain';
import { queryRows, setUserLanguage, sql } from './support/database';
import { E2E_BASE_URL } from './support/environment';
import { signIn } from './support/session';
import { DEMO_PASSWORD } from './support/texts';

/**
 * Pins and measuring on a planning model, in English: the doctor opens the published planning
 * STL, drops a pin with a note by clicking the model and sees it listed; the note is in the case
 * chat with a link; the planner follows the link, the viewer opens at the pin, and resolves it;
 * two clicks with Measure show the distance in mm. The case and its published file are arranged
 * through the API and the database (uploads and publishing have their own journey).
 */

type Ns = 'chat' | 'domain' | 'files';
const en = (ns: Ns, key: string, params?: Record<string, string | number>) =>
  translate('en', ns, key, params);

/** A binary STL of a flat 40 × 40 mm plate at z = 0 (two triangles facing +z). */
function plateStl(half = 20): Buffer {
  const faces = [
    [
      [-half, -half, 0],
      [half, -half, 0],
      [half, half, 0],
    ],
    [
      [-half, -half, 0],
      [half, half, 0],
      [-half, half, 0],
    ],
  ];
  const buffer = Buffer.alloc(84 + 50 * faces.length);
  buffer.write('dentflow e2e plate', 0, 'ascii');
  buffer.writeUInt32LE(faces.length, 80);
  faces.forEach((face, index) => {
    [0, 0, 1, ...face.flat()].forEach((value, i) =>
      buffer.writeFloatLE(value, 84 + index * 50 + i * 4),
    );
  });
  return buffer;
}

const PLAN = { name: 'pins-plan.stl', mimeType: 'model/stl', buffer: plateStl() };
const NOTE = 'Implant 36: move 1 mm lingual, too close to the cortex.';

let caseId = 0;
let planId = 0;

test.describe.configure({ mode: 'serial', timeout: 90_000 });

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

test.beforeAll(async () => {
  await setUserLanguage('doctor', 'en');
  const doctor = await apiAs('doctor');
  const created = await doctor.post('/api/v1/case/new', {
    data: { patient: { fname: 'Plinio', lname: 'Marcador' } },
  });
  expect(created.status()).toBe(200);
  caseId = ((await created.json()) as { obj: { id: number } }).obj.id;
  await doctor.dispose();
  // Planned by the demo planner and waiting for the doctor's approval.
  await sql(
    `insert into case_services (case_id, product_id, product_category_id, planner_id)
     select $1, p.id, p.product_category_id, (select id from users where nick_name = 'planner')
     from products p where p.product_category_id is not null order by p.id limit 1`,
    [caseId],
  );
  await sql(`update cases set case_status = 'approve' where id = $1`, [caseId]);

  // The planner sends the planning STL and publishes it, as the files journey does on screen.
  const planner = await apiAs('planner');
  const post = await planner.post(`/api/v1/attachment/createPostUrl/${caseId}`, {
    data: { filename: PLAN.name, filesize: PLAN.buffer.length, attachment_name: 'planning' },
  });
  expect(post.status()).toBe(200);
  const { attachment, upload } = (
    (await post.json()) as {
      obj: { attachment: { id: number }; upload: { url: string; fields: Record<string, string> } };
    }
  ).obj;
  planId = attachment.id;
  const stored = await planner.post(upload.url, {
    // The policy's fields first and the file last.
    multipart: { ...upload.fields, file: PLAN },
  });
  expect(stored.status()).toBeLessThan(300);
  expect((await planner.get(`/api/v1/attachment/uploadedSuccess/${planId}`)).status()).toBe(200);
  expect((await planner.get(`/api/v1/attachment/${planId}/publish`)).status()).toBe(200);
  await planner.dispose();
});

/** Opens the planning file's 3D viewer and waits until the model is drawn. */
async function openPlanViewer(page: Page) {
  await page.goto(`/case/${caseId}?tab=attachments`);
  const planning = page.getByRole('region', { name: en('domain', 'attachments.planning.title') });
  await planning
    .getByTestId('attachment-card')
    .filter({ hasText: PLAN.name })
    .getByRole('button', { name: en('files', 'viewers.open3d') })
    .click();
  await expect(page.getByTestId('stl-canvas')).toHaveAttribute('data-loaded', 'true', {
    timeout: 30_000,
  });
}

async function chooseTool(page: Page, tool: 'orbit' | 'pin' | 'measure') {
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

test('the doctor pins a note on the published plan; it is listed and in the chat', async ({
  browser,
}) => {
  const page = await signIn(browser, 'doctor', 'en');
  await openPlanViewer(page);
  await chooseTool(page, 'pin');
  await clickCanvas(page, 0.5, 0.5);
  const dialog = page.getByRole('dialog', { name: en('files', 'pins.newTitle') });
  await dialog.getByRole('textbox', { name: en('files', 'pins.noteLabel') }).fill(NOTE);
  const saved = page.waitForResponse(
    (r) => r.url().endsWith(`/attachment/${planId}/pins`) && r.request().method() === 'POST',
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
    [planId],
  );
  expect(Math.abs(row!.point[2]!)).toBeLessThan(0.01);
  expect(Math.abs(row!.normal[2]!)).toBeCloseTo(1, 3);

  // The note is the doctor's message on the public channel, with its link.
  await page.keyboard.press('Escape');
  await expect(page.getByTestId('stl-viewer')).toHaveCount(0);
  await page.goto(`/case/${caseId}?tab=chat`);
  const message = page.getByTestId('chat-message').filter({ hasText: NOTE });
  await expect(message).toBeVisible();
  await expect(message.getByRole('link', { name: en('chat', 'openPin') })).toBeVisible();
  await page.context().close();
});

test('the planner follows the link to the pin and resolves it, then measures', async ({
  browser,
}) => {
  const page = await signIn(browser, 'planner', 'en');
  await page.goto(`/case/${caseId}?tab=chat`);
  const link = page
    .getByTestId('chat-message')
    .filter({ hasText: NOTE })
    .getByRole('link', { name: en('chat', 'openPin') });
  const href = (await link.getAttribute('href'))!;
  const pinId = Number(new URL(href, E2E_BASE_URL).searchParams.get('pin'));
  expect(href).toBe(`/case/${caseId}?tab=attachments&file=${planId}&pin=${pinId}`);
  await link.click();

  // The viewer opens on its own, at the pin's camera, with the pin chosen in the list.
  const canvas = page.getByTestId('stl-canvas');
  await expect(canvas).toHaveAttribute('data-loaded', 'true', { timeout: 30_000 });
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

  // Measure: two clicks on the plate, a line and its length in millimetres; Esc clears it.
  await chooseTool(page, 'measure');
  await clickCanvas(page, 0.35, 0.5);
  await clickCanvas(page, 0.65, 0.5);
  const label = page.getByTestId('measure-label');
  await expect(label).toHaveText(/^\d+\.\d mm$/);
  expect(Number((await label.innerText()).replace(' mm', ''))).toBeGreaterThan(1);
  await page.keyboard.press('Escape');
  await expect(label).toHaveCount(0);
  await expect(page.getByTestId('stl-viewer')).toBeVisible();

  // The link works on a fresh page load too.
  await page.goto(href);
  await expect(canvas).toHaveAttribute('data-loaded', 'true', { timeout: 30_000 });
  await expect(canvas).toHaveAttribute('data-view', `pin:${pinId}`);
  await expect(page.getByTestId('pin-item').filter({ hasText: NOTE })).toHaveAttribute(
    'data-resolved',
    'true',
  );
  await page.context().close();
});
