import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { randomToken } from '../src/security/tokens';
import { insertPublicAttachment } from './support/cases-fixtures';
import {
  createCase,
  sampleStl,
  startS3rver,
  uploadFile,
  userIdOf,
} from './support/storage-fixtures';
import {
  bearer,
  captureLog,
  json,
  login,
  startTestApp,
  type CapturedLog,
  type Session,
  type TestApp,
} from './support/test-app';

/**
 * Signed download links live 5 minutes at most, on both stores, and no link, signature or token
 * reaches the log: the request log redacts token path segments and query values; headers and
 * bodies are never logged.
 */
describe('local store', () => {
  let t: TestApp;
  let log: CapturedLog;
  let doctor: Session;
  let caseId: number;

  beforeAll(async () => {
    log = captureLog();
    t = await startTestApp({ LOG_LEVEL: 'debug' }, { logStream: log.stream });
    doctor = await login(t.app, 'doctor');
    caseId = await createCase(t.app.database.db, {
      ownerId: await userIdOf(t.app.database.db, 'doctor'),
      categoryId: 1,
    });
  });
  afterAll(async () => {
    await t?.close();
  });

  it('a link works for 5 minutes, then is refused', async () => {
    vi.useFakeTimers({ toFake: ['Date'] });
    try {
      const issuedAt = Date.now();
      const { url } = await uploadFile(
        t.app,
        doctor,
        caseId,
        'exams.upperJawStl',
        'a.stl',
        sampleStl(),
      );
      const token = new URL(url, 'http://x').searchParams.get('t')!;
      const grant = JSON.parse(Buffer.from(token.split('.')[0]!, 'base64url').toString()) as {
        expiresAt: number;
      };
      expect(grant.expiresAt - issuedAt).toBeGreaterThan(0);
      expect(grant.expiresAt - issuedAt).toBeLessThanOrEqual(300_000 + 1_000);

      vi.setSystemTime(issuedAt + 290_000);
      expect((await t.app.inject({ method: 'GET', url })).statusCode).toBe(200);
      vi.setSystemTime(issuedAt + 301_000 + 1_000);
      const late = await t.app.inject({ method: 'GET', url });
      expect(late.statusCode).toBe(403);
      expect(json(late)).toMatchObject({ code: 'INVALID_TOKEN' });
    } finally {
      vi.useRealTimers();
    }
  });

  it('neither the link, its signature nor any token reaches the log', async () => {
    const stl = sampleStl(40);
    const uploaded = await uploadFile(t.app, doctor, caseId, 'exams.lowerJawStl', 'b.stl', stl);
    const id = uploaded.attachment.id;
    const got = await t.app.inject({
      method: 'GET',
      url: `/api/v1/attachment/${id}/get`,
      headers: bearer(doctor),
    });
    const link = json<{ obj: { url: string } }>(got).obj.url;
    const redirect = await t.app.inject({
      method: 'GET',
      url: `/api/v1/attachment/${id}/download`,
      headers: bearer(doctor),
    });
    expect(redirect.statusCode).toBe(302);
    const location = redirect.headers.location as string;
    for (const url of [uploaded.url, link, location]) {
      const downloaded = await t.app.inject({ method: 'GET', url });
      expect(downloaded.statusCode).toBe(200);
      expect(downloaded.rawPayload.equals(stl)).toBe(true);
    }
    // The refresh token travels in a body, the access token in a header.
    const refreshed = await t.app.inject({
      method: 'POST',
      url: '/api/v1/auth/refresh_token',
      payload: { refresh_token: doctor.refreshToken },
    });
    expect(refreshed.statusCode).toBe(200);
    const renewed = json<{ obj: { accessToken: string; refreshToken: string } }>(refreshed).obj;
    // Token routes: the web's mailed links (served by the app) and the invitation preview.
    const pathTokens = [randomToken(), randomToken(), randomToken(), randomToken()];
    await t.app.inject({ method: 'GET', url: `/resetPassword/${pathTokens[0]}` });
    await t.app.inject({ method: 'GET', url: `/verify/${pathTokens[1]}` });
    await t.app.inject({ method: 'GET', url: `/api/v1/students/invitations/${pathTokens[2]}` });
    await t.app.inject({ method: 'GET', url: `/register?invite=${pathTokens[3]}` });

    const logged = log.lines.join('\n');
    // The requests were logged, with their shape.
    expect(logged).toContain('/api/v1/storage/download?t=[redacted]');
    expect(logged).toContain('/resetPassword/[redacted]');
    expect(logged).toContain('/api/v1/students/invitations/[redacted]');
    const secrets = [uploaded.url, link, location]
      .map((url) => new URL(url, 'http://x').searchParams.get('t')!)
      .flatMap((token) => [token, ...token.split('.')])
      .concat(doctor.accessToken, doctor.refreshToken, renewed.accessToken, renewed.refreshToken)
      .concat(pathTokens);
    for (const secret of secrets) expect(logged).not.toContain(secret);
  });
});

describe('S3 store', () => {
  let s3: Awaited<ReturnType<typeof startS3rver>>;
  let t: TestApp;
  let log: CapturedLog;

  beforeAll(async () => {
    s3 = await startS3rver();
    log = captureLog();
    t = await startTestApp({ ...s3.env, LOG_LEVEL: 'debug' }, { logStream: log.stream });
  });
  afterAll(async () => {
    await t?.close();
    await s3?.close();
  });

  it('a presigned GET lives 5 minutes at most, and its signature is not logged', async () => {
    const db = t.app.database.db;
    const doctor = await login(t.app, 'doctor');
    const caseId = await createCase(db, { ownerId: doctor.profile.id, categoryId: 1 });
    const storageKey = `cases/${caseId}/s3link`;
    await t.app.files.storage.put(storageKey, Buffer.from('scan'), 'model/stl');
    const id = await insertPublicAttachment(db, caseId, doctor.profile.id, {
      storageKey,
      bucketName: 'exams',
      attachmentType: 'upperJawStl',
      filename: 'scan.stl',
      mimetype: 'model/stl',
    });
    const got = await t.app.inject({
      method: 'GET',
      url: `/api/v1/attachment/${id}/get`,
      headers: bearer(doctor),
    });
    expect(got.statusCode, got.body).toBe(200);
    const url = new URL(json<{ obj: { url: string } }>(got).obj.url);
    expect(url.origin).toBe(s3.endpoint);
    const expires = Number(url.searchParams.get('X-Amz-Expires'));
    expect(expires).toBeGreaterThan(0);
    expect(expires).toBeLessThanOrEqual(300);
    expect((await fetch(url)).status).toBe(200);

    const redirect = await t.app.inject({
      method: 'GET',
      url: `/api/v1/attachment/${id}/download`,
      headers: bearer(doctor),
    });
    const location = new URL(redirect.headers.location as string);
    const logged = log.lines.join('\n');
    for (const signed of [url, location]) {
      expect(logged).not.toContain(signed.searchParams.get('X-Amz-Signature')!);
      expect(logged).not.toContain(signed.search);
    }
  });
});
