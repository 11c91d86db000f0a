import { mkdtempSync, rmSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { eq, sql } from 'drizzle-orm';
import type { FastifyInstance, LightMyRequestResponse } from 'fastify';
import S3rver from 's3rver';
import sharp from 'sharp';
import type { Db } from '../../src/db/client';
import { attachments, caseServices, cases, patients, products, users } from '../../src/db/schema';
import { bearer, json, type Session } from './test-app';

/** The id of a demo account by its nickname (admin, doctor, planner...). */
export async function userIdOf(db: Db, nickName: string): Promise<number> {
  const [row] = await db.select({ id: users.id }).from(users).where(eq(users.nickName, nickName));
  if (!row) throw new Error(`no user ${nickName}`);
  return row.id;
}

/** A case of `owner` with one service of `categoryId` (planned by `plannerId`, if given). */
export async function createCase(
  db: Db,
  options: {
    ownerId: number;
    status?: string;
    archived?: boolean;
    categoryId?: number;
    plannerId?: number | null;
    jaw?: 'upper' | 'lower' | 'both';
  },
): Promise<number> {
  const [patient] = await db
    .insert(patients)
    .values({ fname: 'Ana', lname: 'Teste' })
    .returning({ id: patients.id });
  const [row] = await db
    .insert(cases)
    .values({
      ownerId: options.ownerId,
      patientId: patient!.id,
      caseStatus: options.status ?? 'new',
      listGroup: 'new',
      caseArchived: options.archived ?? false,
      caseCurrency: 'BRL',
    })
    .returning({ id: cases.id });
  const [product] = await db.select({ id: products.id }).from(products).limit(1);
  await db.insert(caseServices).values({
    caseId: row!.id,
    productId: product!.id,
    productCategoryId: options.categoryId ?? 8,
    plannerId: options.plannerId ?? null,
    data: options.jaw ? { jaw: options.jaw } : null,
  });
  return row!.id;
}

export async function attachmentRow(db: Db, id: number) {
  const [row] = await db.select().from(attachments).where(eq(attachments.id, id));
  return row;
}

/**
 * Runs `run` while the confirmation of attachment `id` fails in the database (its update to a
 * confirmed status raises, as a database that goes away would), after the file was moved.
 */
export async function withConfirmationRefused<T>(db: Db, id: number, run: () => Promise<T>) {
  await db.execute(
    sql.raw(`
    create or replace function test_refuse_confirmation() returns trigger language plpgsql as $$
    begin
      if new.id = ${id} and new.status <> 'uploading' then
        raise exception 'refused by the test';
      end if;
      return new;
    end $$;
    create trigger test_refuse_confirmation before update on attachments
      for each row execute function test_refuse_confirmation();`),
  );
  try {
    return await run();
  } finally {
    await db.execute(sql.raw('drop trigger test_refuse_confirmation on attachments'));
  }
}

/** A PNG of `side` pixels. */
export const samplePng = (side = 8) =>
  sharp({
    create: { width: side, height: side, channels: 3, background: { r: 200, g: 80, b: 40 } },
  })
    .png()
    .toBuffer();

export const sampleJpeg = (side = 8) =>
  sharp({
    create: { width: side, height: side, channels: 3, background: { r: 20, g: 80, b: 240 } },
  })
    .jpeg()
    .toBuffer();

/** A binary STL of `triangles` facets (80-byte header, uint32 count, 50 bytes per triangle). */
export function sampleStl(triangles = 12): Buffer {
  const buffer = Buffer.alloc(84 + 50 * triangles);
  buffer.write('dentflow test', 0, 'latin1');
  buffer.writeUInt32LE(triangles, 80);
  for (let i = 0; i < triangles; i++) buffer.writeFloatLE(i, 84 + 50 * i + 12);
  return buffer;
}

/** A minimal DICOM Part 10 file (128-byte preamble + DICM). */
export function sampleDicom(): Buffer {
  const buffer = Buffer.alloc(256);
  buffer.write('DICM', 128, 'latin1');
  return buffer;
}

/** A multipart body for `inject` built by the platform's own FormData encoder. */
export async function multipartBody(fields: Record<string, string>, file?: Buffer, name = 'f') {
  const form = new FormData();
  for (const [key, value] of Object.entries(fields)) form.append(key, value);
  if (file) form.append('file', new Blob([file]), name);
  const response = new Response(form);
  return {
    payload: Buffer.from(await response.arrayBuffer()),
    headers: { 'content-type': response.headers.get('content-type')! },
  };
}

export interface Announced {
  attachment: { id: number; status: string; url: string | null; [key: string]: unknown };
  upload: { url: string; fields: Record<string, string> };
}

/** createPostUrl for a case file. */
export function announce(
  app: FastifyInstance,
  session: Session,
  caseId: number,
  body: { filename: string; filesize: number; attachment_name: string; mimetype?: string },
): Promise<LightMyRequestResponse> {
  return app.inject({
    method: 'POST',
    url: `/api/v1/attachment/createPostUrl/${caseId}`,
    headers: bearer(session),
    payload: body,
  });
}

/** Posts a file to a local presigned POST through `inject`. */
export async function postLocal(
  app: FastifyInstance,
  upload: Announced['upload'],
  file: Buffer,
  fields: Record<string, string> = upload.fields,
) {
  const { payload, headers } = await multipartBody(fields, file);
  return app.inject({ method: 'POST', url: upload.url, payload, headers });
}

/**
 * createPostUrl, the multipart POST, uploadedSuccess: the whole local upload. Returns the
 * confirmed attachment (throws on any unexpected status).
 */
export async function uploadFile(
  app: FastifyInstance,
  session: Session,
  caseId: number,
  attachmentName: string,
  filename: string,
  file: Buffer,
) {
  const created = await announce(app, session, caseId, {
    filename,
    filesize: file.length,
    attachment_name: attachmentName,
  });
  if (created.statusCode !== 200)
    throw new Error(`createPostUrl ${created.statusCode} ${created.body}`);
  const { upload, attachment } = json<{ obj: Announced }>(created).obj;
  const posted = await postLocal(app, upload, file);
  if (posted.statusCode !== 204) throw new Error(`upload ${posted.statusCode} ${posted.body}`);
  const confirmed = await app.inject({
    method: 'GET',
    url: `/api/v1/attachment/uploadedSuccess/${attachment.id}`,
    headers: bearer(session),
  });
  if (confirmed.statusCode !== 200)
    throw new Error(`confirm ${confirmed.statusCode} ${confirmed.body}`);
  return json<{ obj: { attachment: Announced['attachment']; url: string } }>(confirmed).obj;
}

export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as AddressInfo;
      server.close(() => resolve(port));
    });
  });
}

/** s3rver on a random port in a temp folder with one bucket. */
export async function startS3rver(bucket = 'dentflow-test') {
  const directory = mkdtempSync(join(tmpdir(), 'dentflow-s3rver-'));
  const port = await freePort();
  const server = new S3rver({
    port,
    address: '127.0.0.1',
    silent: true,
    directory,
    configureBuckets: [{ name: bucket, configs: [] }],
  });
  await server.run();
  return {
    endpoint: `http://127.0.0.1:${port}`,
    bucket,
    env: {
      S3_BUCKET: bucket,
      S3_ENDPOINT: `http://127.0.0.1:${port}`,
      S3_REGION: 'us-east-1',
      S3_ACCESS_KEY_ID: 'S3RVER',
      S3_SECRET_ACCESS_KEY: 'S3RVER',
      S3_FORCE_PATH_STYLE: 'true',
    },
    async close() {
      await server.close();
      rmSync(directory, { recursive: true, force: true });
    },
  };
}
