import { deflateSync } from 'node:zlib';
import {
  expect,
  request as playwrightRequest,
  test,
  type Locator,
  type Page,
} from '@playwright/test';
import { translate } from '@dentflow/domain';
import { setUserLanguage, sql } from './support/database';
import { E2E_BASE_URL } from './support/environment';
import { isUploadConfirmation, signIn } from './support/session';
import { DEMO_PASSWORD } from './support/texts';

/**
 * The files of a case end to end, in English: the doctor sends photos and the upper-jaw
 * STL to a new case, sees the upload in progress and the previews, and the 3D viewer draws the
 * model; the planner sends a planning file and publishes it; the doctor asks for a change; the
 * planner sends a revised file and publishes it; the doctor approves it. Another doctor gets 404
 * on the file's download URL and on the case.
 */

type Ns = 'cases' | 'domain' | 'files';
const en = (ns: Ns, key: string, params?: Record<string, string | number>) =>
  translate('en', ns, key, params);

// ---- Files made in the test -------------------------------------------------------------------

const CRC_TABLE = Array.from({ length: 256 }, (_, n) => {
  let c = n;
  for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
  return c >>> 0;
});
const crc32 = (bytes: Buffer) => {
  let c = 0xffffffff;
  for (const byte of bytes) c = CRC_TABLE[(c ^ byte) & 0xff]! ^ (c >>> 8);
  return (c ^ 0xffffffff) >>> 0;
};
const pngChunk = (type: string, data: Buffer) => {
  const length = Buffer.alloc(4);
  length.writeUInt32BE(data.length);
  const body = Buffer.concat([Buffer.from(type, 'ascii'), data]);
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(body));
  return Buffer.concat([length, body, crc]);
};

/** A valid `size`×`size` RGB PNG of one colour. */
function solidPng(size: number, [r, g, b]: [number, number, number]): Buffer {
  const header = Buffer.alloc(13);
  header.writeUInt32BE(size, 0);
  header.writeUInt32BE(size, 4);
  header.set([8, 2, 0, 0, 0], 8); // 8 bits, truecolour, deflate, no filter, no interlace
  const row = Buffer.concat([Buffer.from([0]), Buffer.alloc(size * 3)]);
  for (let x = 0; x < size; x++) row.set([r, g, b], 1 + x * 3);
  const pixels = Buffer.concat(Array.from({ length: size }, () => row));
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    pngChunk('IHDR', header),
    pngChunk('IDAT', deflateSync(pixels)),
    pngChunk('IEND', Buffer.alloc(0)),
  ]);
}

type Vec = [number, number, number];
/** A valid binary STL (80-byte header, triangle count, 50 bytes per triangle) of a tetrahedron. */
function tetrahedronStl(scale: number): Buffer {
  const v: Vec[] = [
    [0, 0, 0],
    [scale, 0, 0],
    [0, scale, 0],
    [0, 0, scale],
  ].map((p) => p as Vec);
  const faces: [Vec, Vec, Vec][] = [
    [v[0]!, v[2]!, v[1]!],
    [v[0]!, v[1]!, v[3]!],
    [v[0]!, v[3]!, v[2]!],
    [v[1]!, v[2]!, v[3]!],
  ];
  const buffer = Buffer.alloc(84 + 50 * faces.length);
  // The header must not start with "solid" (that is the ASCII form).
  buffer.write('dentflow e2e tetrahedron', 0, 'ascii');
  buffer.writeUInt32LE(faces.length, 80);
  faces.forEach((face, index) => {
    const offset = 84 + index * 50;
    const [a, b, c] = face;
    const u = a.map((_, i) => b[i]! - a[i]!);
    const w = a.map((_, i) => c[i]! - a[i]!);
    const n = [
      u[1]! * w[2]! - u[2]! * w[1]!,
      u[2]! * w[0]! - u[0]! * w[2]!,
      u[0]! * w[1]! - u[1]! * w[0]!,
    ];
    const length = Math.hypot(...n) || 1;
    [...n.map((x) => x / length), ...a, ...b, ...c].forEach((value, i) =>
      buffer.writeFloatLE(value, offset + i * 4),
    );
    // Bytes 48–49: attribute byte count, 0.
  });
  return buffer;
}

const PHOTOS = [
  { name: 'smile.png', mimeType: 'image/png', buffer: solidPng(32, [220, 80, 60]) },
  { name: 'profile.png', mimeType: 'image/png', buffer: solidPng(32, [40, 120, 200]) },
];
const UPPER_JAW = { name: 'upper-jaw.stl', mimeType: 'model/stl', buffer: tetrahedronStl(20) };
const PLAN_V1 = { name: 'guide-plan-v1.stl', mimeType: 'model/stl', buffer: tetrahedronStl(15) };
const PLAN_V2 = { name: 'guide-plan-v2.stl', mimeType: 'model/stl', buffer: tetrahedronStl(18) };
const CHANGE_TEXT = 'Move the implant of tooth 16 one millimetre distally.';

// ---- Helpers --------------------------------------------------------------------------------

async function apiToken(login: string): Promise<string> {
  const api = await playwrightRequest.newContext({ baseURL: E2E_BASE_URL });
  try {
    const response = await api.post('/api/v1/auth/login', {
      data: { login, password: DEMO_PASSWORD },
    });
    expect(response.status()).toBe(200);
    return ((await response.json()) as { obj: { accessToken: string } }).obj.accessToken;
  } finally {
    await api.dispose();
  }
}

async function openAttachments(page: Page) {
  await page.goto(`/case/${caseId}?tab=attachments`);
  await expect(
    page.getByRole('tab', { name: en('cases', 'view.tabs.attachments') }),
  ).toHaveAttribute('aria-selected', 'true');
}

const bucketSection = (page: Page, bucket: 'photoProtocol' | 'exams' | 'planning') =>
  page.getByRole('region', { name: en('domain', `attachments.${bucket}.title`) });

const cardOf = (scope: Locator, filename: string) =>
  scope.getByTestId('attachment-card').filter({ hasText: filename });

const statusBadge = (card: Locator, status: string) =>
  card.locator('.mantine-Badge-root', { hasText: en('domain', `attachmentStatuses.${status}`) });

/** Sends files through a bucket's drop zone and waits until the server has confirmed each. */
async function upload(
  page: Page,
  bucket: 'photoProtocol' | 'exams' | 'planning',
  files: { name: string; mimeType: string; buffer: Buffer }[],
) {
  const confirmed = Promise.all(
    files.map(() => page.waitForResponse((r) => isUploadConfirmation(r.url()))),
  );
  await page.getByTestId(`dropzone-${bucket}`).locator('input[type="file"]').setInputFiles(files);
  for (const response of await confirmed) expect(response.status()).toBe(200);
  for (const file of files)
    await expect(cardOf(bucketSection(page, bucket), file.name)).toBeVisible();
}

// ---- The journey ------------------------------------------------------------------------------

let caseId = 0;
let approvedId = 0;

// One journey in steps: each step needs the one before.
test.describe.configure({ mode: 'serial', timeout: 60_000 });

test.beforeAll(async () => {
  // This journey runs the (Brazilian) demo doctor in English.
  await setUserLanguage('doctor', 'en');
  // A second doctor, who must never reach the first doctor's files. Its own account (in English),
  // so the case-workflow journey's Portuguese `doctor2` stays as that journey makes it.
  await sql(
    `insert into users (email, nick_name, fname, lname, display_name, password_hash, roles,
       internal, data_info, data_address, data_capabilities, verified_at)
     select 'otherdoctor@dentflow.local', 'otherdoctor', 'Other', 'Doctor', 'Other Doctor',
       password_hash, roles, internal, data_info || '{"language":"en"}'::jsonb, data_address,
       data_capabilities, now()
     from users where email = 'doctor@dentflow.local'
     on conflict do nothing`,
  );
  // The case, opened by the doctor through the API (the intake has its own journey).
  const token = await apiToken('doctor');
  const api = await playwrightRequest.newContext({
    baseURL: E2E_BASE_URL,
    extraHTTPHeaders: { authorization: `Bearer ${token}` },
  });
  const response = await api.post('/api/v1/case/new', {
    data: { patient: { fname: 'Filomena', lname: 'Arquivista' } },
  });
  expect(response.status()).toBe(200);
  caseId = ((await response.json()) as { obj: { id: number } }).obj.id;
  await api.dispose();
});

test('the doctor sends photos and the upper-jaw STL to a new case and sees the previews', async ({
  browser,
}) => {
  const page = await signIn(browser, 'doctor', 'en');
  await openAttachments(page);

  // The first photo's upload is held at the storage until its progress row has been seen.
  let release = () => {};
  const held = new Promise<void>((resolve) => (release = resolve));
  // The store is the app itself (local storage) or, when the journey runs against an S3 store
  // (S3_ENDPOINT set for the server, e.g. s3rver), that store: the same presigned-POST protocol.
  const s3Origin = process.env.S3_ENDPOINT ? new URL(process.env.S3_ENDPOINT).origin : null;
  const isStoreUpload = (url: URL) =>
    url.pathname.endsWith('/api/v1/storage/upload') || url.origin === s3Origin;
  await page.route(isStoreUpload, async (route) => {
    if (route.request().method() === 'POST') await held;
    await route.continue();
  });
  const confirmed = page.waitForResponse((r) => r.url().includes('/attachment/uploadedSuccess/'));
  await page
    .getByTestId('dropzone-photoProtocol')
    .locator('input[type="file"]')
    .setInputFiles(PHOTOS[0]!);
  const item = page.getByTestId('upload-item').filter({ hasText: PHOTOS[0]!.name });
  await expect(item).toBeVisible();
  // Held at 0 %: the bar is there (zero width) and the row shows the percentage.
  await expect(
    item.getByRole('progressbar', {
      name: en('files', 'upload.progressOf', { name: PHOTOS[0]!.name }),
    }),
  ).toHaveAttribute('aria-valuenow', '0');
  await expect(item.getByText(en('files', 'upload.percent', { percent: 0 }))).toBeVisible();
  release();
  expect((await confirmed).status()).toBe(200);
  await expect(item).toHaveCount(0);
  await page.unroute('**/api/v1/storage/upload');

  // The second photo, then the upper-jaw scan as its kind.
  await upload(page, 'photoProtocol', [PHOTOS[1]!]);
  const exams = bucketSection(page, 'exams');
  await exams.getByRole('combobox', { name: en('files', 'upload.kind') }).click();
  await page
    .getByRole('option', { name: en('domain', 'attachments.exams.upperJawStl'), exact: true })
    .click();
  await upload(page, 'exams', [UPPER_JAW]);
  await expect(cardOf(exams, UPPER_JAW.name)).toContainText(
    en('domain', 'attachments.exams.upperJawStl'),
  );

  // Each photo's thumbnail is a loaded image.
  const thumbnails = bucketSection(page, 'photoProtocol').getByTestId('attachment-thumbnail');
  await expect(thumbnails).toHaveCount(PHOTOS.length);
  for (const thumbnail of await thumbnails.all()) {
    await expect
      .poll(() =>
        thumbnail.evaluate(
          (img) => (img as HTMLImageElement).complete && (img as HTMLImageElement).naturalWidth,
        ),
      )
      .toBeGreaterThan(0);
  }
  await page.context().close();
});

test('the 3D viewer draws the upper-jaw model', async ({ browser }) => {
  const page = await signIn(browser, 'doctor', 'en');
  await openAttachments(page);
  await cardOf(bucketSection(page, 'exams'), UPPER_JAW.name)
    .getByRole('button', { name: en('files', 'viewers.open3d') })
    .click();
  await expect(page.getByTestId('stl-viewer')).toBeVisible();
  const canvas = page.getByTestId('stl-canvas');
  await expect(canvas).toHaveAttribute('data-loaded', 'true', { timeout: 20_000 });

  // Read the drawn pixels back: some must differ from the background (the first pixel).
  const drawn = await canvas.evaluate((element) => {
    const source = element as HTMLCanvasElement;
    const copy = document.createElement('canvas');
    copy.width = source.width;
    copy.height = source.height;
    const context = copy.getContext('2d')!;
    context.drawImage(source, 0, 0);
    const { data } = context.getImageData(0, 0, copy.width, copy.height);
    let differing = 0;
    for (let i = 4; i < data.length; i += 4) {
      if (
        Math.abs(data[i]! - data[0]!) +
          Math.abs(data[i + 1]! - data[1]!) +
          Math.abs(data[i + 2]! - data[2]!) >
        24
      ) {
        differing++;
      }
    }
    return { differing, total: data.length / 4 };
  });
  expect(drawn.total).toBeGreaterThan(0);
  expect(drawn.differing).toBeGreaterThan(drawn.total / 1000);
  await page.keyboard.press('Escape');
  await expect(page.getByTestId('stl-viewer')).toHaveCount(0);
  await page.context().close();
});

test('the case is validated and the demo planner assigned (arranged in the database)', async () => {
  // The case is validated and the demo planner assigned to its planning service.
  await sql(
    `insert into case_services (case_id, product_id, product_category_id, planner_id)
     select $1, p.id, p.product_category_id, (select id from users where email = 'planner@dentflow.local')
     from products p where p.product_category_id is not null order by p.id limit 1`,
    [caseId],
  );
  await sql(`update cases set case_status = 'execute' where id = $1`, [caseId]);
});

test('the planner publishes the planning file', async ({ browser }) => {
  const page = await signIn(browser, 'planner', 'en');
  await openAttachments(page);
  await upload(page, 'planning', [PLAN_V1]);
  const card = cardOf(bucketSection(page, 'planning'), PLAN_V1.name);
  await expect(statusBadge(card, 'private')).toBeVisible();
  await card.getByRole('button', { name: en('domain', 'attachmentActions.publish') }).click();
  await expect(page.getByText(en('files', 'actions.done.publish'))).toBeVisible();
  await expect(statusBadge(card, 'publish')).toBeVisible();
  await page.context().close();
});

test('the doctor asks for a change of the planning file', async ({ browser }) => {
  const page = await signIn(browser, 'doctor', 'en');
  await openAttachments(page);
  const card = cardOf(bucketSection(page, 'planning'), PLAN_V1.name);
  await expect(statusBadge(card, 'publish')).toBeVisible();
  await card.getByRole('button', { name: en('domain', 'attachmentActions.requestChange') }).click();
  const dialog = page.getByRole('dialog', { name: en('files', 'requestChange.title') });
  await dialog.getByRole('textbox', { name: en('files', 'requestChange.label') }).fill(CHANGE_TEXT);
  await expect(dialog.getByText(`${CHANGE_TEXT.length}/100`)).toBeVisible();
  await dialog.getByRole('button', { name: en('files', 'requestChange.submit') }).click();
  await expect(dialog).toBeHidden();
  await expect(statusBadge(card, 'request_change')).toBeVisible();
  await expect(
    card.getByText(en('files', 'requestChange.requested', { text: CHANGE_TEXT })),
  ).toBeVisible();
  await page.context().close();
});

test('the planner reads the request and publishes a revised file', async ({ browser }) => {
  const page = await signIn(browser, 'planner', 'en');
  await openAttachments(page);
  const planning = bucketSection(page, 'planning');
  const old = cardOf(planning, PLAN_V1.name);
  await expect(
    old.getByText(en('files', 'requestChange.requested', { text: CHANGE_TEXT })),
  ).toBeVisible();
  // A file under a change request cannot be published again: a new file answers it.
  await expect(
    old.getByRole('button', { name: en('domain', 'attachmentActions.publish') }),
  ).toHaveCount(0);
  await upload(page, 'planning', [PLAN_V2]);
  const revised = cardOf(planning, PLAN_V2.name);
  await revised.getByRole('button', { name: en('domain', 'attachmentActions.publish') }).click();
  await expect(statusBadge(revised, 'publish')).toBeVisible();
  await page.context().close();
});

test('the doctor approves the revised planning file', async ({ browser }) => {
  const page = await signIn(browser, 'doctor', 'en');
  await openAttachments(page);
  const card = cardOf(bucketSection(page, 'planning'), PLAN_V2.name);
  await expect(statusBadge(card, 'publish')).toBeVisible();
  await card.getByRole('button', { name: en('domain', 'attachmentActions.approve') }).click();
  await expect(page.getByText(en('files', 'actions.done.approve'))).toBeVisible();
  await expect(statusBadge(card, 'approved')).toBeVisible();
  approvedId = Number(await card.getAttribute('data-attachment-id'));
  expect(approvedId).toBeGreaterThan(0);

  // The owner's download link works.
  const download = await page.request.get(`/api/v1/attachment/${approvedId}/download`, {
    headers: { authorization: `Bearer ${await apiToken('doctor')}` },
    maxRedirects: 0,
  });
  expect(download.status()).toBe(302);
  await page.context().close();
});

test("another doctor gets 404 on the file's download URL and on the case", async ({ browser }) => {
  const download = await playwrightRequest.newContext({ baseURL: E2E_BASE_URL });
  const response = await download.get(`/api/v1/attachment/${approvedId}/download`, {
    headers: { authorization: `Bearer ${await apiToken('otherdoctor')}` },
    maxRedirects: 0,
  });
  expect(response.status()).toBe(404);
  await download.dispose();

  const page = await signIn(browser, 'otherdoctor', 'en');
  await page.goto(`/case/${caseId}?tab=attachments`);
  await expect(page.getByText(en('cases', 'view.notFoundTitle'))).toBeVisible();
  await expect(page.getByTestId('attachment-card')).toHaveCount(0);
  await page.context().close();
});
