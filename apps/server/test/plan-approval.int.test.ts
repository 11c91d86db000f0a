import { eq } from 'drizzle-orm';
import type { LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ApprovalRecord, Attachment } from '@dentflow/domain';
import { attachments } from '../src/db/schema';
import { approvablePlanningFiles } from '../src/modules/attachments';
import { caseApi, caseInStatus, codeOf, createUser, objOf } from './support/cases-fixtures';
import { createCase, postLocal, userIdOf, type Announced } from './support/storage-fixtures';
import { pdfText } from './support/pdf-text';
import { bearer, json, login, startTestApp, type Session, type TestApp } from './support/test-app';

/** Fixed plans whose SHA-256 comes from `printf '…' | sha256sum`. */
const PLAN_V1 = Buffer.from(
  'solid plan\nfacet normal 0 0 1\nouter loop\nvertex 0 0 0\nvertex 10 0 0\nvertex 0 10 0\nendloop\nendfacet\nendsolid plan\n',
);
const PLAN_V1_SHA256 = '98dbcf447eea123d96dbef93575b34d6132c848eb9164a689b5bf518e0e054d0';
const PLAN_V2 = Buffer.from(
  'solid plan\nfacet normal 0 0 1\nouter loop\nvertex 0 0 0\nvertex 12 0 0\nvertex 0 12 5\nendloop\nendfacet\nendsolid plan\n',
);
const PLAN_V2_SHA256 = '213e989bb083b96c6ed61246d6f8042b931124f09c875464275fd3328c5dec7e';

type FileAnswer = Attachment & { actions: string[] };

let t: TestApp;
let doctor: Session;
let planner: Session;
let supervisor: Session;
let printer: Session;
let otherDoctor: Session;
let caseId: number;

beforeAll(async () => {
  t = await startTestApp();
  [doctor, planner, supervisor, printer] = await Promise.all([
    login(t.app, 'doctor'),
    login(t.app, 'planner'),
    login(t.app, 'supervisor'),
    login(t.app, 'printer'),
  ]);
  otherDoctor = await createUser(t.app, ['client']);
  caseId = await caseInStatus(
    { app: t.app, owner: doctor, supervisor, planner, printer },
    'approve',
    { patient: { fname: 'Ana', lname: 'Paciente' } },
  );
});

afterAll(async () => {
  await t?.close();
});

const get = (session: Session | null, url: string) =>
  t.app.inject({ method: 'GET', url, headers: session ? bearer(session) : {} });

/** A planning upload through the local presigned POST, answering `replacesId` when given. */
async function uploadPlan(
  session: Session,
  filename: string,
  bytes: Buffer,
  replacesId?: number,
  onCase = caseId,
): Promise<LightMyRequestResponse | FileAnswer> {
  const created = await t.app.inject({
    method: 'POST',
    url: `/api/v1/attachment/createPostUrl/${onCase}`,
    headers: bearer(session),
    payload: {
      filename,
      filesize: bytes.length,
      attachment_name: 'planning',
      ...(replacesId === undefined ? {} : { replacesId }),
    },
  });
  if (created.statusCode !== 200) return created;
  const { upload, attachment } = json<{ obj: Announced }>(created).obj;
  expect((await postLocal(t.app, upload, bytes)).statusCode).toBe(204);
  const confirmed = await get(session, `/api/v1/attachment/uploadedSuccess/${attachment.id}`);
  expect(confirmed.statusCode).toBe(200);
  return json<{ obj: { attachment: FileAnswer } }>(confirmed).obj.attachment;
}

const mustUpload = async (...args: Parameters<typeof uploadPlan>) => {
  const answer = await uploadPlan(...args);
  if ('statusCode' in answer) throw new Error(`${answer.statusCode} ${answer.body}`);
  return answer;
};

const fileMove = (session: Session, id: number, move: string, text?: string) =>
  text === undefined
    ? get(session, `/api/v1/attachment/${id}/${move}`)
    : t.app.inject({
        method: 'POST',
        url: `/api/v1/attachment/${id}/${move}`,
        headers: bearer(session),
        payload: { text },
      });

const mustMove = async (session: Session, id: number, move: string, text?: string) => {
  const response = await fileMove(session, id, move, text);
  expect(response.statusCode, response.body).toBe(200);
  return json<{ obj: FileAnswer }>(response).obj;
};

const listFiles = async (session: Session) =>
  json<{ obj: { items: FileAnswer[] } }>(
    await get(session, `/api/v1/attachment/case/${caseId}/list`),
  ).obj.items;

const approvalsOf = async (session: Session) =>
  json<{ obj: { items: ApprovalRecord[] } }>(await get(session, `/api/v1/case/${caseId}/approvals`))
    .obj.items;

let v1: FileAnswer;
let v2: FileAnswer;
let record: ApprovalRecord;

describe('plan versions', () => {
  it('a planning upload keeps the SHA-256 of its stored bytes; publishing names who', async () => {
    v1 = await mustUpload(planner, 'guide.stl', PLAN_V1);
    expect(v1).toMatchObject({
      version: 1,
      chainId: v1.id,
      previousVersionId: null,
      sha256: PLAN_V1_SHA256,
      publishedAt: null,
      supersededAt: null,
    });
    const published = await mustMove(planner, v1.id, 'publish');
    expect(published.publishedBy).toEqual({ id: planner.profile.id, name: expect.any(String) });
    expect(published.publishedAt).not.toBeNull();
    await mustMove(doctor, v1.id, 'request4Change', 'Move the implant 1 mm');
  });

  it('refuses a replacesId of another case, an input upload or a file that does not exist', async () => {
    const db = t.app.database.db;
    const otherCase = await createCase(db, { ownerId: await userIdOf(db, 'doctor') });
    const elsewhere = await mustUpload(supervisor, 'other.stl', PLAN_V1, undefined, otherCase);
    await mustMove(supervisor, elsewhere.id, 'publish');
    for (const replacesId of [elsewhere.id, 2_000_000_000]) {
      const refused = (await uploadPlan(
        planner,
        'v2.stl',
        PLAN_V2,
        replacesId,
      )) as LightMyRequestResponse;
      expect(refused.statusCode).toBe(400);
      expect(json<{ fields: object }>(refused).fields).toEqual({ replacesId: expect.any(String) });
    }
    const input = await t.app.inject({
      method: 'POST',
      url: `/api/v1/attachment/createPostUrl/${caseId}`,
      headers: bearer(supervisor),
      payload: { filename: 'a.stl', filesize: 90, attachment_name: 'exams', replacesId: v1.id },
    });
    expect(input.statusCode).toBe(400);
  });

  it('a new upload answering the change becomes v2 of the chain; one answer at a time', async () => {
    v2 = await mustUpload(planner, 'guide-v2.stl', PLAN_V2, v1.id);
    expect(v2).toMatchObject({
      version: 2,
      chainId: v1.id,
      previousVersionId: v1.id,
      sha256: PLAN_V2_SHA256,
    });
    const second = (await uploadPlan(
      planner,
      'again.stl',
      PLAN_V2,
      v1.id,
    )) as LightMyRequestResponse;
    expect(second.statusCode).toBe(400);
  });

  it('publishing v2 supersedes v1, which stays listed and offers no action', async () => {
    await mustMove(planner, v2.id, 'publish');
    const files = await listFiles(doctor);
    const old = files.find((file) => file.id === v1.id)!;
    expect(old.supersededAt).not.toBeNull();
    expect(old.status).toBe('request_change');
    expect(old.justification).toBe('Move the implant 1 mm');
    expect(old.actions).toEqual([]);
    expect(old.url).not.toBeNull();
    expect(files.find((file) => file.id === v2.id)?.actions).toEqual(
      expect.arrayContaining(['approve', 'requestChange']),
    );
    expect((await listFiles(planner)).find((file) => file.id === v1.id)?.actions).toEqual([]);
  });

  it('superseded files refuse every action', async () => {
    expect(codeOf(await fileMove(doctor, v1.id, 'cancelRequest4Change'))).toBe(
      'ATTACHMENT_ACTION_NOT_ALLOWED',
    );
    expect(codeOf(await fileMove(supervisor, v1.id, 'cancelRequest4Change'))).toBe(
      'ATTACHMENT_ACTION_NOT_ALLOWED',
    );
    const deleted = await t.app.inject({
      method: 'DELETE',
      url: `/api/v1/attachment/${v1.id}/delete`,
      headers: bearer(planner),
    });
    expect(deleted.statusCode).toBe(409);
  });
});

describe('approval record', () => {
  it('approving the case records the current versions with their SHA-256', async () => {
    const api = caseApi(t.app);
    const current = objOf(await api(doctor, 'GET', `${caseId}/get`));
    const moved = await api(doctor, 'POST', `${caseId}/move`, {
      action: 'approve',
      password: 'Dentflow123',
      text: 'Aprovado conforme a versão 2',
      serviceIds: current.services.map((s) => s.id),
    });
    expect(moved.statusCode, moved.body).toBe(200);
    const items = await approvalsOf(doctor);
    expect(items).toHaveLength(1);
    record = items[0]!;
    expect(record).toMatchObject({
      caseId,
      approver: { id: doctor.profile.id },
      text: 'Aprovado conforme a versão 2',
      // The demo doctor, the case's owner, reads Portuguese.
      language: 'ptBR',
      address: '127.0.0.1',
      files: [
        {
          attachmentId: v2.id,
          chainId: v1.id,
          version: 2,
          fileName: 'guide-v2.stl',
          size: PLAN_V2.length,
          sha256: PLAN_V2_SHA256,
        },
      ],
      services: current.services.map((s) => ({ id: s.id, name: expect.any(String) })),
    });
    expect(record.certificateCode).toMatch(/^([0-9A-HJKMNP-TV-Z]{4}-){5}[0-9A-HJKMNP-TV-Z]{4}$/);

    const history = json<{ obj: { action: string; detail: Record<string, unknown> }[] }>(
      await get(doctor, `/api/v1/case/${caseId}/history`),
    ).obj;
    expect(history.find((event) => event.action === 'approve')?.detail).toMatchObject({
      approvalId: record.id,
      certificateCode: record.certificateCode,
    });
  });

  it('a later version changes nothing the record says', async () => {
    await mustMove(doctor, v2.id, 'request4Change', 'One more change');
    const v3 = await mustUpload(planner, 'guide-v3.stl', PLAN_V1, v2.id);
    await mustMove(planner, v3.id, 'publish');
    expect(v3.version).toBe(3);
    expect(await approvalsOf(doctor)).toEqual([record]);
  });

  it('the certificate is a PDF with the hashes, the approver and the code', async () => {
    const response = await get(doctor, `/api/v1/approval/${record.id}/certificate`);
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toBe('application/pdf');
    expect(response.headers['content-disposition']).toMatch(/^attachment; filename=/);
    expect(response.rawPayload.subarray(0, 5).toString()).toBe('%PDF-');
    const text = await pdfText(response.rawPayload);
    expect(text).toContain(PLAN_V2_SHA256);
    expect(text).toContain(record.approver.name);
    expect(text).toContain(record.certificateCode);
    expect(text).toContain('Certificado de aprovação');
    expect(text).toContain('Ana Paciente');
    expect(text).toContain(`/certificate/${record.certificateCode}`);
  });

  it('another doctor gets 404 on the records and the certificate', async () => {
    for (const url of [
      `/api/v1/case/${caseId}/approvals`,
      `/api/v1/approval/${record.id}/certificate`,
    ]) {
      const response = await get(otherDoctor, url);
      expect(response.statusCode).toBe(404);
      expect(codeOf(response)).toBe('NOT_FOUND');
    }
    expect((await get(otherDoctor, '/api/v1/approval/2000000000/certificate')).statusCode).toBe(
      404,
    );
  });

  it('the public check answers a match with the hashes only, or 404', async () => {
    const matched = await get(null, `/api/v1/certificate/${record.certificateCode}`);
    expect(matched.statusCode).toBe(200);
    expect(json<{ obj: unknown }>(matched).obj).toEqual({
      match: true,
      approvedAt: record.approvedAt,
      files: [{ version: 2, sha256: PLAN_V2_SHA256 }],
    });
    for (const secret of ['Ana', 'Paciente', record.approver.name, 'guide', record.text]) {
      expect(matched.body).not.toContain(secret);
    }
    const typed = record.certificateCode.toLowerCase().replace(/-/g, ' ');
    expect((await get(null, `/api/v1/certificate/${encodeURIComponent(typed)}`)).statusCode).toBe(
      200,
    );
    for (const code of ['0000-0000-0000-0000-0000-0000', 'not-a-code']) {
      const missing = await get(null, `/api/v1/certificate/${code}`);
      expect(missing.statusCode).toBe(404);
      expect(codeOf(missing)).toBe('CERTIFICATE_NOT_FOUND');
    }
  });

  it('a file stored before hashes were kept is hashed when an approval needs it', async () => {
    const db = t.app.database.db;
    const v3 = (await listFiles(planner)).find((file) => file.version === 3)!;
    await db.update(attachments).set({ contentSha256: null }).where(eq(attachments.id, v3.id));
    const files = await approvablePlanningFiles(db, t.app.files.storage, caseId);
    expect(files.map((file) => [file.version, file.sha256])).toEqual([[3, PLAN_V1_SHA256]]);
    const [row] = await db.select().from(attachments).where(eq(attachments.id, v3.id));
    expect(row?.contentSha256).toBe(PLAN_V1_SHA256);
  });

  it('taking the newest version back puts the one it replaced in force again', async () => {
    const v3 = (await listFiles(planner)).find((file) => file.version === 3)!;
    const v2Before = (await listFiles(planner)).find((file) => file.id === v2.id)!;
    expect(v2Before.supersededAt).not.toBeNull();
    await mustMove(planner, v3.id, 'unpublish');
    const v2After = (await listFiles(doctor)).find((file) => file.id === v2.id)!;
    expect(v2After.supersededAt).toBeNull();
    expect(v2After.actions).toContain('cancelChangeRequest');
    // Published again, it supersedes v2 once more; the record still says v2.
    await mustMove(planner, v3.id, 'publish');
    expect(
      (await listFiles(doctor)).find((file) => file.id === v2.id)?.supersededAt,
    ).not.toBeNull();
    expect(await approvalsOf(doctor)).toEqual([record]);
  });

  it("the approver's data export lists the approval, and no one else's", async () => {
    const exported = async (session: Session) =>
      json<{ approvals: { id: number; certificateCode: string; address: string }[] }>(
        await get(session, '/api/v1/profile/export'),
      ).approvals;
    expect(await exported(doctor)).toEqual([
      expect.objectContaining({
        id: record.id,
        certificateCode: record.certificateCode,
        address: '127.0.0.1',
      }),
    ]);
    expect(await exported(otherDoctor)).toEqual([]);
  });
});
