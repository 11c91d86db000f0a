import sharp from 'sharp';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { archStl, seedSampleAttachments } from '../src/db/seed/demo/attachments';
import { contentMatches } from '../src/modules/attachments/file-sniff';
import { createCase, uploadFile, userIdOf } from './support/storage-fixtures';
import { bearer, json, login, startTestApp, type TestApp } from './support/test-app';

let t: TestApp;

beforeAll(async () => {
  t = await startTestApp();
});

afterAll(async () => {
  await t?.close();
});

interface Item {
  bucketName: string;
  attachmentType: string;
  status: string;
  url: string;
  mimetype: string;
  required: boolean;
}

it('attaches photos and jaw scans to demo cases, and a planning guide once planned', async () => {
  const db = t.app.database.db;
  const ownerId = await userIdOf(db, 'doctor');
  const plannerId = await userIdOf(db, 'planner');
  const fresh = await createCase(db, { ownerId, categoryId: 1 });
  const planned = await createCase(db, { ownerId, categoryId: 3, plannerId, status: 'approve' });
  expect(await seedSampleAttachments(db, t.app.files.storage, [fresh, planned])).toBe(9);

  const doctor = await login(t.app, 'doctor');
  const list = async (caseId: number) =>
    json<{ obj: { items: Item[] } }>(
      await t.app.inject({
        method: 'GET',
        url: `/api/v1/attachment/case/${caseId}/list`,
        headers: bearer(doctor),
      }),
    ).obj.items;

  const freshItems = await list(fresh);
  expect(freshItems.map((i) => `${i.bucketName}.${i.attachmentType}:${i.required}`)).toEqual([
    'photoProtocol.naturalSmile:false',
    'photoProtocol.forcedSmile:false',
    'exams.upperJawStl:true',
    'exams.lowerJawStl:true',
  ]);
  const plannedItems = await list(planned);
  expect(plannedItems.at(-1)).toMatchObject({ bucketName: 'planning', status: 'publish' });

  // Every file passes the same checks as an upload, and the photos decode.
  for (const item of [...freshItems, plannedItems.at(-1)!]) {
    const body = (await t.app.inject({ method: 'GET', url: item.url })).rawPayload;
    const type = item.mimetype === 'model/stl' ? 'stl' : 'jpeg';
    expect(await contentMatches(type, body.subarray(0, 4100), body.length)).toBe(true);
    if (type === 'jpeg') expect((await sharp(body).metadata()).width).toBe(320);
  }
});

it('on PGlite (the embedded default) an upload goes through too', async () => {
  const embedded = await startTestApp({}, { pglite: true });
  try {
    const db = embedded.app.database.db;
    const caseId = await createCase(db, { ownerId: await userIdOf(db, 'doctor'), categoryId: 3 });
    const doctor = await login(embedded.app, 'doctor');
    const { attachment, url } = await uploadFile(
      embedded.app,
      doctor,
      caseId,
      'exams.upperJawStl',
      'upper.stl',
      archStl('upper'),
    );
    expect(attachment).toMatchObject({ status: 'public', required: true });
    const body = (await embedded.app.inject({ method: 'GET', url })).rawPayload;
    expect(body.equals(archStl('upper'))).toBe(true);
  } finally {
    await embedded.close();
  }
}, 60_000);
