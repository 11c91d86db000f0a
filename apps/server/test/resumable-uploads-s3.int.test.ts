import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { S3_MIN_PART_BYTES } from '@dentflow/domain';
import { resumableUploadSuite } from './support/resumable-suite';
import { createCase, sampleStl, startS3rver, userIdOf } from './support/storage-fixtures';
import { bearer, json, login, startTestApp, type TestApp } from './support/test-app';

// S3's smallest part: every part but the last must be at least this long.
const PART_SIZE = S3_MIN_PART_BYTES;
let s3: Awaited<ReturnType<typeof startS3rver>>;
let t: TestApp;

beforeAll(async () => {
  s3 = await startS3rver();
  t = await startTestApp({ ...s3.env, UPLOAD_PART_BYTES: String(PART_SIZE) });
});

afterAll(async () => {
  await t?.close();
  await s3?.close();
});

/** The browser's PUT of one part to its presigned URL. */
const sendPart = async (url: string, body: Buffer) => {
  const response = await fetch(url, { method: 'PUT', body });
  return { status: response.status, etag: response.headers.get('etag') };
};

describe('resumable uploads, S3 (s3rver)', () => {
  resumableUploadSuite({
    app: () => t,
    partSize: PART_SIZE,
    sendPart,
    checksNamedParts: false,
    // s3rver cannot list multipart uploads: the store's state is not observable here.
    isOpen: async () => null,
  });

  it('a part URL signs its length; a file of another size is discarded on completion', async () => {
    const doctor = await login(t.app, 'doctor');
    const db = t.app.database.db;
    const caseId = await createCase(db, { ownerId: await userIdOf(db, 'doctor') });
    const stl = sampleStl(Math.ceil(PART_SIZE / 50));
    const created = await t.app.inject({
      method: 'POST',
      url: `/api/v1/attachment/resumable/${caseId}`,
      headers: bearer(doctor),
      payload: { filename: 's.stl', filesize: stl.length, attachment_name: 'exams.generic' },
    });
    const id = json<{ obj: { attachment: { id: number } } }>(created).obj.attachment.id;
    const urls = await t.app.inject({
      method: 'POST',
      url: `/api/v1/attachment/resumable/${id}/partUrls`,
      headers: bearer(doctor),
      payload: { partNumbers: [1, 2] },
    });
    const { parts } = json<{ obj: { parts: { url: string; size: number }[] } }>(urls).obj;
    expect(parts.map((part) => part.size)).toEqual([PART_SIZE, stl.length - PART_SIZE]);
    for (const part of parts) {
      expect(part.url.startsWith(s3.endpoint)).toBe(true);
      // S3 refuses a body of another length; s3rver does not check signed headers, so a longer
      // last part gets through here and the completion's size check catches it.
      expect(part.url).toMatch(/X-Amz-SignedHeaders=content-length%3Bhost/);
    }
    const first = await sendPart(parts[0]!.url, stl.subarray(0, PART_SIZE));
    const last = await sendPart(parts[1]!.url, Buffer.concat([stl.subarray(PART_SIZE), stl]));
    const done = await t.app.inject({
      method: 'POST',
      url: `/api/v1/attachment/resumable/${id}/complete`,
      headers: bearer(doctor),
      payload: {
        parts: [
          { partNumber: 1, etag: first.etag },
          { partNumber: 2, etag: last.etag },
        ],
      },
    });
    expect(done.statusCode).toBe(422);
    expect(done.json()).toMatchObject({ code: 'UPLOAD_SIZE_MISMATCH' });
  });
});
