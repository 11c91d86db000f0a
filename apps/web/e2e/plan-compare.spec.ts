import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { expect, request as playwrightRequest, test, type Locator } from '@playwright/test';
import { translate } from '@dentflow/domain';
import { setUserLanguage, sql } from './support/database';
import { E2E_BASE_URL, E2E_DATA_DIR } from './support/environment';
import { signIn } from './support/session';
import { DEMO_PASSWORD } from './support/texts';

/**
 * The compare viewer end to end, in English: a case with two published planning STL files (the
 * second bent up to 1 mm away from the first along its width), arranged in the database and the
 * server's local file store; the doctor opens Compare on the newer one, sees both side by side
 * and overlaid, then the deviation map, whose canvas must show several distinct colours.
 */

const en = (key: string, params?: Record<string, string | number>) =>
  translate('en', 'files', key, params);

/**
 * A binary STL of a 40 × 30 mm plate (80 × 60 quads, 9,600 triangles) whose height is
 * `height(x)`; the viewer recomputes the normals, so they are left at zero.
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

const PLAN_A = { name: 'compare-plan-a.stl', bytes: plateStl(() => 0) };
// Up to 1 mm away, growing across the plate: blue at the left edge, red past the middle.
const PLAN_B = { name: 'compare-plan-b.stl', bytes: plateStl((x) => (x / 40) ** 1.5) };

let caseId = 0;

test.describe.configure({ timeout: 90_000 });

test.beforeAll(async () => {
  await setUserLanguage('doctor', 'en');
  const api = await playwrightRequest.newContext({ baseURL: E2E_BASE_URL });
  const login = await api.post('/api/v1/auth/login', {
    data: { login: 'doctor', password: DEMO_PASSWORD },
  });
  expect(login.status()).toBe(200);
  const { accessToken } = ((await login.json()) as { obj: { accessToken: string } }).obj;
  const created = await api.post('/api/v1/case/new', {
    headers: { authorization: `Bearer ${accessToken}` },
    data: { patient: { fname: 'Comparina', lname: 'Versoes' } },
  });
  expect(created.status()).toBe(200);
  caseId = ((await created.json()) as { obj: { id: number } }).obj.id;
  await api.dispose();

  // Two published planning files by the demo planner, older first; their bytes in the server's
  // local store (scripts/e2e-server.mjs: DATA_DIR/files/<storage key>).
  for (const plan of [PLAN_A, PLAN_B]) {
    // Storage keys are safe characters only (no dot).
    const key = `e2e/${caseId}/${plan.name.replace('.stl', '')}`;
    const file = path.join(E2E_DATA_DIR, 'files', ...key.split('/'));
    mkdirSync(path.dirname(file), { recursive: true });
    writeFileSync(file, plan.bytes);
    await sql(
      `insert into attachments (case_id, user_id, bucket_name, attachment_type, status, filename,
         filesize, mimetype, storage_key, uploaded_at)
       select $1::int, id, 'planning', 'generic', 'publish', $2, $3::int, 'model/stl', $4, now()
       from users where nick_name = 'planner'`,
      [caseId, plan.name, plan.bytes.length, key],
    );
  }
});

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

test('the doctor compares two planning versions and sees the deviation map', async ({
  browser,
}) => {
  const page = await signIn(browser, 'doctor', 'en');
  await page.goto(`/case/${caseId}?tab=attachments`);
  const card = page.getByTestId('attachment-card').filter({ hasText: PLAN_B.name });
  await card.getByRole('button', { name: en('planCompare.open') }).click();

  const viewer = page.getByTestId('plan-compare');
  await expect(viewer).toBeVisible();
  // It opens on the other planning file, side by side: the older on the left.
  await expect(viewer.getByText(en('planCompare.older', { name: PLAN_A.name }))).toBeVisible();
  await expect(viewer.getByText(en('planCompare.newer', { name: PLAN_B.name }))).toBeVisible();
  const canvases = page.getByTestId('compare-canvas');
  await expect(canvases).toHaveCount(2);
  for (const canvas of await canvases.all()) {
    await expect(canvas).toHaveAttribute('data-loaded', 'true', { timeout: 20_000 });
  }

  // The cameras are linked: dragging the left view turns the right one too.
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

  await viewer.getByText(en('planCompare.modes.overlay'), { exact: true }).click();
  const overlay = page.locator('[data-testid="compare-canvas"][data-view="overlay"]');
  await expect(overlay).toHaveAttribute('data-loaded', 'true', { timeout: 20_000 });
  await expect(
    viewer.getByRole('switch', { name: en('planCompare.older', { name: PLAN_A.name }) }),
  ).toBeChecked();

  await viewer.getByText(en('planCompare.modes.deviation'), { exact: true }).click();
  const map = page.locator('[data-testid="compare-canvas"][data-view="deviation"]');
  await expect(map).toHaveAttribute('data-loaded', 'true', { timeout: 30_000 });
  const legend = page.getByTestId('deviation-legend');
  await expect(legend).toContainText(en('planCompare.legendTitle', { name: PLAN_A.name }));
  await expect(legend).toContainText('0.5+');

  // By pixels: the plate is drawn, and the map paints it in at least two clearly different colours.
  const { total, drawn, buckets } = await colourBuckets(map);
  expect(drawn).toBeGreaterThan(total / 50);
  const coloured = Object.entries(buckets).filter(([, count]) => count > drawn / 50);
  expect(coloured.map(([name]) => name).length, JSON.stringify(buckets)).toBeGreaterThanOrEqual(2);
  expect(buckets.blue).toBeGreaterThan(drawn / 50);
  expect(buckets.red).toBeGreaterThan(drawn / 50);

  await page.keyboard.press('Escape');
  await expect(viewer).toHaveCount(0);
  await page.context().close();
});
