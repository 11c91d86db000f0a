import { eq } from 'drizzle-orm';
import { beforeAll, expect, it } from 'vitest';
import { attachments } from '../../src/db/schema';
import {
  attachmentRow,
  createCase,
  sampleStl,
  userIdOf,
  withConfirmationRefused,
} from './storage-fixtures';
import { bearer, json, login, type Session, type TestApp } from './test-app';

export interface ResumableStore {
  /** The running app (its part size is `partSize`). */
  app: () => TestApp;
  partSize: number;
  /** Sends one part's bytes to its URL the way a browser would; answers status and ETag. */
  sendPart(url: string, body: Buffer): Promise<{ status: number; etag: string | null }>;
  /**
   * The store refuses a completion naming a part it never received (s3rver does not check: it
   * fails reading the part outside the request).
   */
  checksNamedParts: boolean;
  /** The store still holds an open multipart upload for this key and id (null: unknown). */
  isOpen(key: string, uploadId: string): Promise<boolean | null>;
}

interface Created {
  attachment: { id: number; status: string };
  upload: { partSize: number; partCount: number };
}

/**
 * The resumable upload protocol, the same for every store: plan, part URLs, parts in any order,
 * resume from the parts already sent, complete, abort; only the uploader, only valid parts.
 */
export function resumableUploadSuite(store: ResumableStore) {
  let doctor: Session;
  let clinic: Session;
  let supervisor: Session;
  let caseId: number;
  const app = () => store.app().app;

  beforeAll(async () => {
    doctor = await login(app(), 'doctor');
    clinic = await login(app(), 'clinic');
    supervisor = await login(app(), 'supervisor');
    const db = app().database.db;
    caseId = await createCase(db, { ownerId: await userIdOf(db, 'doctor') });
  });

  const call = (session: Session, method: 'POST' | 'DELETE', url: string, payload?: object) =>
    app().inject({ method, url, headers: bearer(session), ...(payload ? { payload } : {}) });

  async function start(file: Buffer, name = 'scan.stl', kind = 'exams.upperJawStl') {
    const response = await call(doctor, 'POST', `/api/v1/attachment/resumable/${caseId}`, {
      filename: name,
      filesize: file.length,
      attachment_name: kind,
    });
    expect(response.statusCode, response.body).toBe(200);
    return json<{ obj: Created }>(response).obj;
  }

  const partUrls = (id: number, partNumbers: number[], session = doctor) =>
    call(session, 'POST', `/api/v1/attachment/resumable/${id}/partUrls`, { partNumbers });

  /** Sends the named parts of `file`; answers their ETags by part number. */
  async function send(id: number, file: Buffer, partNumbers: number[]) {
    const response = await partUrls(id, partNumbers);
    expect(response.statusCode, response.body).toBe(200);
    const { parts } = json<{
      obj: { parts: { partNumber: number; size: number; url: string }[] };
    }>(response).obj;
    const etags = new Map<number, string>();
    for (const part of parts) {
      const begin = (part.partNumber - 1) * store.partSize;
      const sent = await store.sendPart(part.url, file.subarray(begin, begin + part.size));
      expect(sent.status).toBe(200);
      expect(sent.etag).toBeTruthy();
      etags.set(part.partNumber, sent.etag!);
    }
    return etags;
  }

  const complete = (id: number, etags: Map<number, string>, session = doctor) =>
    call(session, 'POST', `/api/v1/attachment/resumable/${id}/complete`, {
      parts: [...etags].map(([partNumber, etag]) => ({ partNumber, etag })),
    });

  /** A binary STL just over `parts - 1` parts long. */
  const stlOfParts = (parts: number) =>
    sampleStl(Math.ceil(((parts - 1) * store.partSize + 100) / 50));

  it('sends a scan in parts, in any order, and serves exactly its bytes', async () => {
    const file = stlOfParts(3);
    const { attachment, upload } = await start(file);
    expect(attachment.status).toBe('uploading');
    expect(upload).toEqual({ partSize: store.partSize, partCount: 3 });
    const etags = await send(attachment.id, file, [3, 1, 2]);
    const done = await complete(attachment.id, etags);
    expect(done.statusCode, done.body).toBe(200);
    const { url, attachment: confirmed } = json<{
      obj: { url: string; attachment: { status: string; filesize: number } };
    }>(done).obj;
    expect(confirmed).toMatchObject({ status: 'public', filesize: file.length });
    const row = (await attachmentRow(app().database.db, attachment.id))!;
    expect(row.uploadId).toBeNull();
    const downloaded = url.startsWith('http')
      ? Buffer.from(await (await fetch(url)).arrayBuffer())
      : (await app().inject({ method: 'GET', url })).rawPayload;
    expect(downloaded.equals(file)).toBe(true);
    // A retried completion answers the confirmed file again.
    const again = await complete(attachment.id, etags);
    expect(again.statusCode).toBe(200);
  });

  it('a completion that fails after the file was joined is retried and serves the file', async () => {
    const file = stlOfParts(2);
    const { attachment } = await start(file);
    const etags = await send(attachment.id, file, [1, 2]);
    const db = app().database.db;
    // The confirmation's write fails (a database that goes away), after the move to the served key.
    const failed = await withConfirmationRefused(db, attachment.id, () =>
      complete(attachment.id, etags),
    );
    expect(failed.statusCode).toBe(500);
    expect((await attachmentRow(db, attachment.id))?.status).toBe('uploading');
    // The browser's retry of the same completion: without the file put back, UPLOAD_NOT_FOUND.
    const done = await complete(attachment.id, etags);
    expect(done.statusCode, done.body).toBe(200);
    const { url } = json<{ obj: { url: string } }>(done).obj;
    const downloaded = url.startsWith('http')
      ? Buffer.from(await (await fetch(url)).arrayBuffer())
      : (await app().inject({ method: 'GET', url })).rawPayload;
    expect(downloaded.equals(file)).toBe(true);
  });

  it('resumes after a reload from the parts sent; completing early is a 409', async () => {
    const file = stlOfParts(4);
    const { attachment } = await start(file);
    const first = await send(attachment.id, file, [1, 3]);
    const early = await complete(attachment.id, first);
    expect(early.statusCode).toBe(409);
    expect(early.json()).toMatchObject({ code: 'UPLOAD_PARTS_MISSING' });
    // The browser kept parts 1 and 3 with their ETags; it sends only 2 and 4 after the reload.
    const rest = await send(attachment.id, file, [2, 4]);
    const done = await complete(attachment.id, new Map([...first, ...rest]));
    expect(done.statusCode, done.body).toBe(200);
  });

  // Registered only for stores that check the parts named (not s3rver).
  if (store.checksNamedParts)
    it('a part named with an ETag the store never answered is missing', async () => {
      const file = stlOfParts(2);
      const { attachment } = await start(file);
      const etags = await send(attachment.id, file, [1]);
      etags.set(2, '"00000000000000000000000000000000"');
      const response = await complete(attachment.id, etags);
      expect(response.statusCode).toBe(409);
      expect(response.json()).toMatchObject({ code: 'UPLOAD_PARTS_MISSING' });
    });

  it('refuses part numbers outside the plan, duplicates and photos', async () => {
    const file = stlOfParts(2);
    const { attachment } = await start(file);
    for (const numbers of [[0], [3], [1, 3]]) {
      const response = await partUrls(attachment.id, numbers);
      expect(response.statusCode).toBe(400);
    }
    expect((await partUrls(attachment.id, [3])).json()).toMatchObject({
      code: 'UPLOAD_PART_INVALID',
    });
    const etags = await send(attachment.id, file, [1, 2]);
    const duplicate = await call(
      doctor,
      'POST',
      `/api/v1/attachment/resumable/${attachment.id}/complete`,
      {
        parts: [
          { partNumber: 1, etag: etags.get(1) },
          { partNumber: 1, etag: etags.get(1) },
          { partNumber: 2, etag: etags.get(2) },
        ],
      },
    );
    expect(duplicate.statusCode).toBe(400);
    const beyond = await complete(attachment.id, new Map([...etags, [3, etags.get(1)!]]));
    expect(beyond.statusCode).toBe(400);

    const photo = await call(doctor, 'POST', `/api/v1/attachment/resumable/${caseId}`, {
      filename: 'smile.jpg',
      filesize: 1000,
      attachment_name: 'photoProtocol.generic',
    });
    expect(photo.statusCode).toBe(400);
    expect(photo.json()).toMatchObject({ code: 'UNKNOWN_ATTACHMENT_KIND' });
  });

  it('only the uploader may continue, complete or abort; others get a 404', async () => {
    const file = stlOfParts(2);
    const { attachment } = await start(file);
    const etags = await send(attachment.id, file, [1, 2]);
    // Another doctor's clinic cannot see the case; the supervisor sees it but did not upload.
    for (const other of [clinic, supervisor]) {
      expect((await partUrls(attachment.id, [1], other)).statusCode).toBe(404);
      expect((await complete(attachment.id, etags, other)).statusCode).toBe(404);
      const abort = await call(other, 'DELETE', `/api/v1/attachment/resumable/${attachment.id}`);
      expect(abort.statusCode).toBe(404);
    }
    const elsewhere = await call(clinic, 'POST', `/api/v1/attachment/resumable/${caseId}`, {
      filename: 'scan.stl',
      filesize: 1000,
      attachment_name: 'exams.upperJawStl',
    });
    expect(elsewhere.statusCode).toBe(404);
    expect((await complete(attachment.id, etags)).statusCode).toBe(200);
  });

  it('abort removes the upload: its parts, its row, its URLs', async () => {
    const file = stlOfParts(2);
    const { attachment } = await start(file);
    await send(attachment.id, file, [1]);
    const row = (await attachmentRow(app().database.db, attachment.id))!;
    expect(await store.isOpen(row.storageKey!, row.uploadId!)).not.toBe(false);
    const aborted = await call(doctor, 'DELETE', `/api/v1/attachment/resumable/${attachment.id}`);
    expect(aborted.statusCode).toBe(200);
    expect(await attachmentRow(app().database.db, attachment.id)).toBeUndefined();
    expect(await store.isOpen(row.storageKey!, row.uploadId!)).not.toBe(true);
    expect((await partUrls(attachment.id, [2])).statusCode).toBe(404);
  });

  it('a file whose bytes are not its type is discarded on completion', async () => {
    const file = Buffer.alloc(store.partSize + 10, 0x41);
    const { attachment } = await start(file, 'series.zip', 'exams.dicom');
    const etags = await send(attachment.id, file, [1, 2]);
    const done = await complete(attachment.id, etags);
    expect(done.statusCode).toBe(422);
    expect(done.json()).toMatchObject({ code: 'FILE_CONTENT_MISMATCH' });
    expect(await attachmentRow(app().database.db, attachment.id)).toBeUndefined();
  });

  it('the cleanup job aborts multipart uploads left for a day', async () => {
    const file = stlOfParts(2);
    const { attachment } = await start(file);
    await send(attachment.id, file, [1]);
    const row = (await attachmentRow(app().database.db, attachment.id))!;
    await app()
      .database.db.update(attachments)
      .set({ createdAt: new Date(Date.now() - 25 * 3600_000) })
      .where(eq(attachments.id, attachment.id));
    await app().files.cleanup();
    expect(await attachmentRow(app().database.db, attachment.id)).toBeUndefined();
    expect(await store.isOpen(row.storageKey!, row.uploadId!)).not.toBe(true);
  });
}
