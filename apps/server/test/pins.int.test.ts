import { eq } from 'drizzle-orm';
import type { LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ChatPage, Pin, PinList } from '@dentflow/domain';
import { attachments, chatMessages, notifications, planPins } from '../src/db/schema';
import {
  caseApi,
  caseInStatus,
  codeOf,
  createUser,
  demoSessions,
  insertPublicAttachment,
  objOf,
} from './support/cases-fixtures';
import { bearer, startTestApp, type Session, type TestApp } from './support/test-app';

/**
 * Pins on planning models on real PostgreSQL: who sees, drops, resolves and reopens them, the
 * chat message each pin posts (its channel, its `pin` link, its notifications), bad bodies and
 * files that take no pins.
 */
let t: TestApp;
let u: Record<string, Session>;
let caseId: number;
/** STL planning files of the case: published (the client sees it) and private (lab only). */
let published: number;
let unpublished: number;
let zipPlan: number;
let examStl: number;

const body = {
  point: [1.25, -3.5, 8],
  normal: [0, 0.6, 0.8],
  camera: { position: [0, -40, 90], target: [0, 0, 4] },
  note: 'Implant 36 too close to the nerve',
};

const call = (session: Session, method: 'GET' | 'POST', url: string, payload?: object) =>
  t.app.inject({
    method,
    url: `/api/v1/${url}`,
    headers: bearer(session),
    ...(payload ? { payload } : {}),
  });

async function must<T>(pending: Promise<LightMyRequestResponse>): Promise<T> {
  const response = await pending;
  if (response.statusCode !== 200) throw new Error(`${response.statusCode} ${response.body}`);
  return objOf<T>(response);
}

const dropPin = (session: Session, attachmentId: number, patch: object = {}) =>
  must<Pin>(call(session, 'POST', `attachment/${attachmentId}/pins`, { ...body, ...patch }));

const planningFile = (status: string, filename = 'plan.stl') =>
  insertPublicAttachment(t.app.database.db, caseId, u.planner!.profile.id, {
    bucketName: 'planning',
    status,
    filename,
    mimetype: filename.endsWith('.stl') ? 'model/stl' : 'application/zip',
  });

beforeAll(async () => {
  t = await startTestApp();
  const demo = await demoSessions(t.app);
  u = { ...demo, otherDoctor: await createUser(t.app, ['doctor']) };
  caseId = await caseInStatus(
    {
      app: t.app,
      owner: u.doctor!,
      supervisor: u.supervisor!,
      planner: u.planner!,
      printer: u.printer!,
    },
    'approve',
  );
  const added = await caseApi(t.app)(u.supervisor!, 'POST', `${caseId}/users`, {
    userId: u.partner!.profile.id,
    triggerNotification: true,
  });
  expect(added.statusCode, added.body).toBe(200);
  published = await planningFile('publish');
  unpublished = await planningFile('private');
  zipPlan = await planningFile('publish', 'plan.zip');
  examStl = await insertPublicAttachment(t.app.database.db, caseId, u.doctor!.profile.id, {
    bucketName: 'exams',
    attachmentType: 'upperJawStl',
    filename: 'upper.stl',
    mimetype: 'model/stl',
  });
});
afterAll(async () => {
  await t?.close();
});

describe('a pin on a published planning file', () => {
  let pin: Pin;

  it('the case owner drops it: the answer carries the pin as stored, its author and version', async () => {
    pin = await dropPin(u.doctor!, published);
    expect(pin).toMatchObject({
      attachmentId: published,
      caseId,
      version: 1,
      author: { id: u.doctor!.profile.id },
      note: body.note,
      point: body.point,
      normal: body.normal,
      camera: body.camera,
      resolvedAt: null,
      resolvedBy: null,
    });
    expect(pin.chatMessageId).toEqual(expect.any(Number));
  });

  it('its note is a message of the public channel carrying the pin, and notifies the planner', async () => {
    const page = await must<ChatPage>(call(u.planner!, 'GET', `case/${caseId}/chat/3`));
    const message = page.items.find((item) => item.id === pin.chatMessageId);
    expect(message).toMatchObject({
      text: body.note,
      channel: 3,
      author: { id: u.doctor!.profile.id },
      pin: { id: pin.id, attachmentId: published },
    });
    const notified = await t.app.database.db
      .select({ userId: notifications.userId })
      .from(notifications)
      .where(eq(notifications.resourceId, pin.chatMessageId!));
    expect(notified.map((row) => row.userId)).toContain(u.planner!.profile.id);
    expect(notified.map((row) => row.userId)).not.toContain(u.doctor!.profile.id);
    // The doctor reads it too (a message without a pin says so with null).
    const own = await must<ChatPage>(call(u.doctor!, 'GET', `case/${caseId}/chat/3`));
    expect(own.items.find((item) => item.id === pin.chatMessageId)?.pin?.id).toBe(pin.id);
  });

  it('everyone who sees the file lists it; another doctor gets 404 like a missing file', async () => {
    for (const who of ['doctor', 'planner', 'supervisor', 'admin', 'partner', 'instructor']) {
      const list = await must<PinList>(call(u[who]!, 'GET', `attachment/${published}/pins`));
      expect(
        list.items.map((item) => item.id),
        who,
      ).toEqual([pin.id]);
    }
    const hidden = await call(u.otherDoctor!, 'GET', `attachment/${published}/pins`);
    const missing = await call(u.otherDoctor!, 'GET', 'attachment/2147483000/pins');
    expect(hidden.statusCode).toBe(404);
    expect(hidden.body).toBe(missing.body);
    expect(
      (await call(u.otherDoctor!, 'POST', `attachment/${published}/pins`, body)).statusCode,
    ).toBe(404);
    expect((await call(u.otherDoctor!, 'POST', `pin/${pin.id}/resolve`)).statusCode).toBe(404);
  });

  it('the planner resolves it, resolving again changes nothing, the owner reopens it', async () => {
    const resolved = await must<Pin>(call(u.planner!, 'POST', `pin/${pin.id}/resolve`));
    expect(resolved.resolvedBy).toEqual({
      id: u.planner!.profile.id,
      name: (u.planner!.profile.dataGeneral as { displayName: string }).displayName,
    });
    expect(resolved.resolvedAt).not.toBeNull();
    const again = await must<Pin>(call(u.supervisor!, 'POST', `pin/${pin.id}/resolve`));
    expect(again.resolvedBy?.id).toBe(u.planner!.profile.id);
    expect(again.resolvedAt).toBe(resolved.resolvedAt);
    const reopened = await must<Pin>(call(u.doctor!, 'POST', `pin/${pin.id}/reopen`));
    expect(reopened).toMatchObject({ resolvedAt: null, resolvedBy: null });
  });

  it('members, printers and instructors read pins but neither drop nor resolve them', async () => {
    for (const who of ['partner', 'instructor']) {
      const dropped = await call(u[who]!, 'POST', `attachment/${published}/pins`, body);
      expect(dropped.statusCode, who).toBe(403);
      expect((await call(u[who]!, 'POST', `pin/${pin.id}/resolve`)).statusCode, who).toBe(403);
    }
  });

  it('planners and staff drop pins too', async () => {
    for (const who of ['planner', 'supervisor', 'admin']) {
      const dropped = await dropPin(u[who]!, published, { note: `From ${who}` });
      expect(dropped.author.id).toBe(u[who]!.profile.id);
    }
  });
});

describe('a pin on a private planning file', () => {
  it('goes to the internal channel; the doctor sees neither the pins nor the message', async () => {
    const pin = await dropPin(u.planner!, unpublished, { note: 'Internal: check the sleeve' });
    const internal = await must<ChatPage>(call(u.supervisor!, 'GET', `case/${caseId}/chat/4`));
    expect(internal.items.find((item) => item.id === pin.chatMessageId)?.pin).toEqual({
      id: pin.id,
      attachmentId: unpublished,
    });
    const publicPage = await must<ChatPage>(call(u.doctor!, 'GET', `case/${caseId}/chat/3`));
    expect(publicPage.items.map((item) => item.id)).not.toContain(pin.chatMessageId);
    expect((await call(u.doctor!, 'GET', `case/${caseId}/chat/4`)).statusCode).toBe(403);
    expect((await call(u.doctor!, 'GET', `attachment/${unpublished}/pins`)).statusCode).toBe(404);
    expect((await call(u.doctor!, 'POST', `attachment/${unpublished}/pins`, body)).statusCode).toBe(
      404,
    );
    expect((await call(u.doctor!, 'POST', `pin/${pin.id}/resolve`)).statusCode).toBe(404);
    const [row] = await t.app.database.db
      .select({ channel: chatMessages.channel, pinId: chatMessages.pinId })
      .from(chatMessages)
      .where(eq(chatMessages.id, pin.chatMessageId!));
    expect(row).toEqual({ channel: 4, pinId: pin.id });
  });
});

describe('files that take no pins', () => {
  it.each([
    ['a planning file that is not an STL', () => zipPlan],
    ['an STL that is not a planning file', () => examStl],
  ])('%s → 409 PIN_FILE_NOT_PINNABLE, nothing written', async (_name, file) => {
    const before = await t.app.database.db.select({ id: planPins.id }).from(planPins);
    const response = await call(u.doctor!, 'POST', `attachment/${file()}/pins`, body);
    expect(response.statusCode).toBe(409);
    expect(codeOf(response)).toBe('PIN_FILE_NOT_PINNABLE');
    const after = await t.app.database.db.select({ id: planPins.id }).from(planPins);
    expect(after).toHaveLength(before.length);
  });
});

describe('a pin on an earlier version of the plan', () => {
  it('takes no new pin (409), while its open pins can still be resolved', async () => {
    const earlier = await planningFile('publish', 'plan-v1.stl');
    const pin = await dropPin(u.doctor!, earlier);
    // A later version was published: this one is read-only now.
    await t.app.database.db
      .update(attachments)
      .set({ supersededAt: new Date() })
      .where(eq(attachments.id, earlier));
    const refused = await call(u.doctor!, 'POST', `attachment/${earlier}/pins`, body);
    expect(refused.statusCode).toBe(409);
    expect(codeOf(refused)).toBe('ATTACHMENT_ACTION_NOT_ALLOWED');
    const resolved = await must<Pin>(call(u.planner!, 'POST', `pin/${pin.id}/resolve`));
    expect(resolved.resolvedAt).not.toBeNull();
  });
});

describe('bad bodies', () => {
  const fieldsOf = (response: LightMyRequestResponse) =>
    Object.keys(response.json<{ fields?: Record<string, string> }>().fields ?? {});

  it.each([
    ['an empty note', { note: '  ' }, 'note'],
    ['a note of 501 characters', { note: 'x'.repeat(501) }, 'note'],
    ['a normal that is not unit length', { normal: [0, 0, 3] }, 'normal'],
    ['a point out of bounds', { point: [1e9, 0, 0] }, 'point.0'],
    ['a point of two numbers', { point: [1, 2] }, 'point'],
    ['a camera without target', { camera: { position: [0, 0, 1] } }, 'camera.target'],
  ])('%s → 400 on its field', async (_name, patch, field) => {
    const response = await call(u.doctor!, 'POST', `attachment/${published}/pins`, {
      ...body,
      ...patch,
    });
    expect(response.statusCode, response.body).toBe(400);
    expect(codeOf(response)).toBe('VALIDATION_ERROR');
    expect(fieldsOf(response)).toContain(field);
  });

  it('an id that is no id → 400', async () => {
    expect((await call(u.doctor!, 'POST', 'pin/abc/resolve')).statusCode).toBe(400);
  });
});
