import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { attachments, caseEvents, cases } from '../src/db/schema';
import {
  announce,
  attachmentRow,
  createCase,
  samplePng,
  sampleStl,
  uploadFile,
  userIdOf,
} from './support/storage-fixtures';
import { bearer, json, login, startTestApp, type Session, type TestApp } from './support/test-app';

let t: TestApp;
let doctor: Session;
let clinic: Session;
let planner: Session;
let supervisor: Session;
let printer: Session;
/** Category 3, in execution, planned by the demo planner. */
let workCase: number;
/** Category 2, new. */
let newCase: number;

beforeAll(async () => {
  t = await startTestApp();
  [doctor, clinic, planner, supervisor, printer] = (await Promise.all(
    ['doctor', 'clinic', 'planner', 'supervisor', 'printer'].map((name) => login(t.app, name)),
  )) as [Session, Session, Session, Session, Session];
  const db = t.app.database.db;
  const ownerId = await userIdOf(db, 'doctor');
  const plannerId = await userIdOf(db, 'planner');
  workCase = await createCase(db, { ownerId, categoryId: 3, plannerId, status: 'execute' });
  newCase = await createCase(db, { ownerId, categoryId: 2, plannerId, status: 'new' });
});

afterAll(async () => {
  await t?.close();
});

const call = (session: Session, method: 'GET' | 'POST' | 'DELETE', url: string, payload?: object) =>
  t.app.inject({ method, url: `/api/v1/attachment/${url}`, headers: bearer(session), payload });
const codeOf = (response: { json(): unknown }) => (response.json() as { code: string }).code;
const listOf = async (session: Session, caseId: number) =>
  json<{
    obj: {
      items: { id: number; status: string; actions: string[] }[];
      slots: { labelKey: string; canUpload: boolean }[];
    };
  }>(await call(session, 'GET', `case/${caseId}/list`)).obj;

describe('input files: the owner while the case is new', () => {
  it('the owner uploads and deletes; a required file leaves its slot empty', async () => {
    const png = await samplePng();
    const { attachment } = await uploadFile(
      t.app,
      doctor,
      newCase,
      'photoProtocol.naturalSmile',
      'smile.png',
      png,
    );
    expect(attachment.required).toBe(true);
    let list = await listOf(doctor, newCase);
    expect(list.items.find((item) => item.id === attachment.id)?.actions).toEqual(['delete']);
    expect(list.slots.map((slot) => slot.labelKey)).not.toContain('photoProtocol.naturalSmile');

    const row = await attachmentRow(t.app.database.db, attachment.id);
    const path = join(t.dataDir, 'files', ...row!.storageKey!.split('/'));
    expect(existsSync(path)).toBe(true);

    // Other people on or off the case may not delete it.
    expect((await call(clinic, 'DELETE', `${attachment.id}/delete`)).statusCode).toBe(404);
    expect(codeOf(await call(planner, 'DELETE', `${attachment.id}/delete`))).toBe('FORBIDDEN');

    const deleted = await call(doctor, 'DELETE', `${attachment.id}/delete`);
    expect(deleted.statusCode).toBe(200);
    expect(json(deleted)).toEqual({ obj: { deleted: true, emptySlot: true } });
    expect(existsSync(path)).toBe(false);
    const after = await attachmentRow(t.app.database.db, attachment.id);
    expect(after?.deletedAt).not.toBeNull();
    expect(after?.storageKey).toBeNull();
    list = await listOf(doctor, newCase);
    expect(list.items.map((item) => item.id)).not.toContain(attachment.id);
    expect(list.slots).toContainEqual({
      bucketName: 'photoProtocol',
      attachmentType: 'naturalSmile',
      labelKey: 'photoProtocol.naturalSmile',
      canUpload: true,
    });
    expect((await call(doctor, 'GET', `${attachment.id}/get`)).statusCode).toBe(404);
    const events = await t.app.database.db
      .select({ action: caseEvents.action })
      .from(caseEvents)
      .where(eq(caseEvents.caseId, newCase));
    expect(events.map((e) => e.action)).toEqual(['attachmentAdded', 'attachmentDeleted']);
  });

  it.each([
    ['the owner, planning', () => doctor, () => newCase, 'planning', 'FORBIDDEN'],
    ['the planner, photos', () => planner, () => newCase, 'photoProtocol.generic', 'FORBIDDEN'],
    ['the owner, case in execution', () => doctor, () => workCase, 'exams.generic', 'FORBIDDEN'],
    ['a printer off the case', () => printer, () => newCase, 'photoProtocol.generic', 'NOT_FOUND'],
  ])('%s → refused', async (_name, who, caseOf, kind, code) => {
    const response = await announce(t.app, who(), caseOf(), {
      filename: kind === 'planning' ? 'plan.stl' : 'x.png',
      filesize: 100,
      attachment_name: kind,
    });
    expect(codeOf(response)).toBe(code);
    const rows = await t.app.database.db
      .select({ id: attachments.id })
      .from(attachments)
      .where(and(eq(attachments.caseId, caseOf()), eq(attachments.status, 'uploading')));
    expect(rows).toEqual([]);
  });
});

describe('planning files: planner publishes, owner approves or asks for a change', () => {
  let planId: number;

  it('the assigned planner uploads a private planning file that the client does not see', async () => {
    const { attachment } = await uploadFile(
      t.app,
      planner,
      workCase,
      'planning',
      'guide.stl',
      sampleStl(30),
    );
    planId = attachment.id;
    expect(attachment.status).toBe('private');
    expect((await listOf(doctor, workCase)).items.map((i) => i.id)).not.toContain(planId);
    expect((await call(doctor, 'GET', `${planId}/get`)).statusCode).toBe(404);
    expect((await call(doctor, 'GET', `${planId}/download`)).statusCode).toBe(404);
    const planners = await listOf(planner, workCase);
    expect(planners.items.find((i) => i.id === planId)?.actions).toEqual(['publish', 'delete']);
  });

  it('the history names the private file to staff and its planner, not to the client', async () => {
    const fileNamesIn = async (session: Session) => {
      const response = await t.app.inject({
        method: 'GET',
        url: `/api/v1/case/${workCase}/history`,
        headers: bearer(session),
      });
      const events = json<{ obj: { action: string; detail: Record<string, unknown> }[] }>(response);
      return events.obj
        .filter((e) => e.action === 'attachmentAdded' && e.detail.attachmentId === planId)
        .map((e) => e.detail.fileName ?? null);
    };
    expect(await fileNamesIn(planner)).toEqual(['guide.stl']);
    expect(await fileNamesIn(supervisor)).toEqual(['guide.stl']);
    expect(await fileNamesIn(doctor)).toEqual([null]);
  });

  it('only staff publish', async () => {
    expect((await call(doctor, 'GET', `${planId}/publish`)).statusCode).toBe(404);
    expect((await call(clinic, 'GET', `${planId}/publish`)).statusCode).toBe(404);
    const published = await call(planner, 'GET', `${planId}/publish`);
    expect(published.statusCode).toBe(200);
    expect(json<{ obj: { status: string } }>(published).obj.status).toBe('publish');
    expect(codeOf(await call(planner, 'GET', `${planId}/publish`))).toBe(
      'ATTACHMENT_ACTION_NOT_ALLOWED',
    );
  });

  it('the owner sees it with approve and request change; others still get 404', async () => {
    const item = (await listOf(doctor, workCase)).items.find((i) => i.id === planId);
    expect(item?.actions).toEqual(['approve', 'requestChange']);
    expect(codeOf(await call(doctor, 'GET', `${planId}/unpublish`))).toBe('FORBIDDEN');
    expect(codeOf(await call(planner, 'GET', `${planId}/approve`))).toBe('FORBIDDEN');
    for (const path of ['get', 'download', 'approve']) {
      expect((await call(clinic, 'GET', `${planId}/${path}`)).statusCode).toBe(404);
    }
  });

  it('the owner asks for a change (text required), which opens the inputs again, then cancels', async () => {
    const empty = await call(doctor, 'POST', `${planId}/request4Change`, { text: '  ' });
    expect(empty.statusCode).toBe(400);
    const asked = await call(doctor, 'POST', `${planId}/request4Change`, {
      text: 'Move implant 36 distally',
    });
    expect(asked.statusCode).toBe(200);
    expect(json<{ obj: object }>(asked).obj).toMatchObject({
      status: 'request_change',
      justification: 'Move implant 36 distally',
      actions: ['cancelChangeRequest'],
    });
    // A change was requested: the owner may send new inputs although the case is in execution.
    const { attachment } = await uploadFile(
      t.app,
      doctor,
      workCase,
      'exams.upperJawStl',
      'upper-new.stl',
      sampleStl(4),
    );
    expect(attachment.status).toBe('public');

    const cancelled = await call(doctor, 'GET', `${planId}/cancelRequest4Change`);
    expect(json<{ obj: { status: string } }>(cancelled).obj.status).toBe('publish');
  });

  it('the owner approves; a supervisor may still ask for a change and delete', async () => {
    const approved = await call(doctor, 'GET', `${planId}/approve`);
    expect(json<{ obj: { status: string; actions: string[] } }>(approved).obj).toMatchObject({
      status: 'approved',
      actions: ['requestChange'],
    });
    const staff = json<{ obj: { actions: string[] } }>(
      await call(supervisor, 'GET', `${planId}/get`),
    ).obj;
    expect(staff.actions).toEqual(['requestChange', 'delete']);
    const events = await t.app.database.db
      .select({ action: caseEvents.action, from: caseEvents.fromStatus, to: caseEvents.toStatus })
      .from(caseEvents)
      .where(eq(caseEvents.caseId, workCase));
    expect(events.map((e) => `${e.action}:${e.from ?? ''}>${e.to ?? ''}`)).toEqual([
      'attachmentAdded:>private',
      'attachmentPublished:private>publish',
      'attachmentChangeRequested:publish>request_change',
      'attachmentAdded:>public',
      'attachmentChangeRequestCancelled:request_change>publish',
      'attachmentApproved:publish>approved',
    ]);
  });

  it('a supervisor uploads anywhere, publishes, unpublishes and deletes', async () => {
    const { attachment } = await uploadFile(
      t.app,
      supervisor,
      workCase,
      'planning',
      'plan.png',
      await samplePng(),
    );
    for (const [path, status] of [
      ['publish', 'publish'],
      ['unpublish', 'private'],
    ] as const) {
      const response = await call(supervisor, 'GET', `${attachment.id}/${path}`);
      expect(json<{ obj: { status: string } }>(response).obj.status).toBe(status);
    }
    const deleted = await call(supervisor, 'DELETE', `${attachment.id}/delete`);
    expect(json(deleted)).toEqual({ obj: { deleted: true, emptySlot: false } });
  });
});

describe('frozen files and cases take nothing', () => {
  it('a frozen file refuses every action, even to a supervisor', async () => {
    const { attachment } = await uploadFile(
      t.app,
      planner,
      workCase,
      'planning',
      'frozen.stl',
      sampleStl(2),
    );
    await t.app.database.db
      .update(attachments)
      .set({ freeze: true })
      .where(eq(attachments.id, attachment.id));
    for (const session of [planner, supervisor]) {
      const response = await call(session, 'GET', `${attachment.id}/publish`);
      expect(codeOf(response)).toBe('ATTACHMENT_ACTION_NOT_ALLOWED');
    }
    expect(codeOf(await call(supervisor, 'DELETE', `${attachment.id}/delete`))).toBe(
      'ATTACHMENT_ACTION_NOT_ALLOWED',
    );
  });

  it('an archived case takes no upload and no move', async () => {
    const db = t.app.database.db;
    const archived = await createCase(db, {
      ownerId: await userIdOf(db, 'doctor'),
      status: 'new',
      categoryId: 8,
    });
    const { attachment } = await uploadFile(
      t.app,
      doctor,
      archived,
      'photoProtocol.generic',
      'a.png',
      await samplePng(),
    );
    await db.update(cases).set({ caseArchived: true }).where(eq(cases.id, archived));
    const refused = await announce(t.app, supervisor, archived, {
      filename: 'b.png',
      filesize: 10,
      attachment_name: 'photoProtocol.generic',
    });
    expect(codeOf(refused)).toBe('ATTACHMENT_ACTION_NOT_ALLOWED');
    expect(codeOf(await call(doctor, 'DELETE', `${attachment.id}/delete`))).toBe(
      'ATTACHMENT_ACTION_NOT_ALLOWED',
    );
    expect((await listOf(doctor, archived)).items[0]?.actions).toEqual([]);
  });
});
