import { and, eq, sql } from 'drizzle-orm';
import type { LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  DEFAULT_EMAIL_NOTIFICATIONS,
  NOTIFICATION_TYPES,
  emptyCaseNotificationDetails,
  type CaseDetail,
  type CaseListFilter,
  type CaseNotificationStatus,
  type CasePage,
  type LastNotifications,
  type NotificationPage,
  type NotificationView,
} from '@dentflow/domain';
import type { CaseEventMessage } from '../src/adapters/events/case-events';
import { caseEvents, mailOutbox, notifications } from '../src/db/schema';
import { recordCaseActivity } from '../src/modules/cases/case-activity';
import { notifyCaseUsers, publishNotifications } from '../src/modules/notifications/notify';
import {
  caseApi,
  codeOf,
  completeServiceData,
  createUser,
  insertRequiredFiles,
  VALIDATE_BILLED_LATER,
  objOf,
  productIdByCode,
} from './support/cases-fixtures';
import { samplePng, uploadFile } from './support/storage-fixtures';
import { bearer, json, startTestApp, type Session, type TestApp } from './support/test-app';

let t: TestApp;
let owner: Session;
let memberOn: Session;
let memberOff: Session;
let planner: Session;
let supervisor: Session;
let stranger: Session;
let caseId: number;
let attachmentId: number;
const published: CaseEventMessage[] = [];

const db = () => t.app.database.db;
const api = (session: Session | null, method: 'GET' | 'POST', url: string, payload?: unknown) =>
  t.app.inject({
    method,
    url: `/api/v1/${url}`,
    headers: session ? bearer(session) : {},
    ...(payload !== undefined ? { payload: payload as object } : {}),
  });
const obj = <T>(response: LightMyRequestResponse): T => {
  if (response.statusCode !== 200) throw new Error(`${response.statusCode} ${response.body}`);
  return json<{ obj: T }>(response).obj;
};

/** The notification rows of a user on the test case, oldest first. */
const rowsOf = (session: Session, ofCase = caseId) =>
  db()
    .select()
    .from(notifications)
    .where(and(eq(notifications.userId, session.profile.id), eq(notifications.caseId, ofCase)))
    .orderBy(notifications.id);
const typesOf = async (session: Session) => (await rowsOf(session)).map((row) => row.eventType);
const countAll = async () =>
  (
    await db()
      .select({ n: sql<number>`count(*)::int` })
      .from(notifications)
  )[0]!.n;
const general = (session: Session) =>
  session.profile.dataGeneral as { email: string; displayName: string };
const mailsTo = (session: Session) =>
  db()
    .select()
    .from(mailOutbox)
    .where(eq(mailOutbox.recipient, general(session).email))
    .orderBy(mailOutbox.id);

async function move(session: Session, action: string) {
  const body = action === 'validate' ? VALIDATE_BILLED_LATER : { action };
  return caseApi(t.app)(session, 'POST', `${caseId}/move`, body);
}

beforeAll(async () => {
  t = await startTestApp();
  [owner, memberOn, memberOff, planner, supervisor, stranger] = await Promise.all([
    createUser(t.app, ['doctor']),
    createUser(t.app, ['doctor'], { language: 'ptBR' }),
    createUser(t.app, ['doctor']),
    createUser(t.app, ['planner']),
    createUser(t.app, ['supervisor']),
    createUser(t.app, ['doctor']),
  ]);
  t.app.caseEvents.on((event) => {
    published.push(event);
  });

  // A case with data and a client file, two case users (one without notifications).
  const cases = caseApi(t.app);
  const created = objOf(
    await cases(owner, 'POST', 'new', { patient: { fname: 'Ana', lname: 'Lima' } }),
  );
  caseId = created.id;
  const productId = await productIdByCode(db(), 'MFG-GUIDE');
  const withService = objOf(await cases(owner, 'POST', `${caseId}/services/add`, { productId }));
  for (const service of withService.services) {
    objOf(
      await cases(owner, 'POST', `${caseId}/services/${service.id}/data`, {
        dataVersion: 3,
        data: completeServiceData(),
      }),
    );
  }
  await insertRequiredFiles(db(), caseId, owner.profile.id);
  for (const [user, triggerNotification] of [
    [memberOn, true],
    [memberOff, false],
  ] as const) {
    objOf(
      await cases(supervisor, 'POST', `${caseId}/users`, {
        userId: user.profile.id,
        triggerNotification,
      }),
    );
  }
}, 60_000);

afterAll(async () => {
  await t?.close();
});

describe('notifications from case events', () => {
  it('creating a case, its data and its users notify nobody', async () => {
    expect(await countAll()).toBe(0);
  });

  it('a file added notifies the case users with trigger on, never the one who added it', async () => {
    const { attachment } = await uploadFile(
      t.app,
      owner,
      caseId,
      'photoProtocol.generic',
      'smile.png',
      await samplePng(),
    );
    attachmentId = attachment.id;
    const [row] = await rowsOf(memberOn);
    expect(row).toMatchObject({
      eventType: NOTIFICATION_TYPES.fileAdded,
      resourceId: attachmentId,
      path: `/case/${caseId}?tab=attachments`,
      actorId: owner.profile.id,
      viewedAt: null,
    });
    expect(await typesOf(owner)).toEqual([]);
    expect(await typesOf(memberOff)).toEqual([]);
    expect(await typesOf(planner)).toEqual([]);
    expect(await countAll()).toBe(1);
  });

  it('a refused move creates none', async () => {
    const before = await countAll();
    const refused = await move(memberOff, 'requestApproval');
    expect(refused.statusCode).toBe(403);
    const invalid = await move(owner, 'finish');
    expect([403, 409]).toContain(invalid.statusCode);
    expect(await countAll()).toBe(before);
  });

  it('a change that rolls back leaves no notification (same transaction)', async () => {
    const before = await countAll();
    await expect(
      db().transaction(async (tx) => {
        const recorded = await recordCaseActivity(tx, {
          caseId,
          actorId: owner.profile.id,
          action: 'attachmentAdded',
          toStatus: 'public',
          detail: { attachmentId },
        });
        expect(recorded.notified).toEqual([memberOn.profile.id]);
        throw new Error('rolled back');
      }),
    ).rejects.toThrow('rolled back');
    expect(await countAll()).toBe(before);
    const history = await db().select().from(caseEvents).where(eq(caseEvents.caseId, caseId));
    expect(history.filter((e) => e.action === 'attachmentAdded')).toHaveLength(1);
  });

  it('moves and the planner notify the right users with the right types', async () => {
    objOf<CaseDetail>(await move(owner, 'submit'));
    objOf<CaseDetail>(
      await caseApi(t.app)(supervisor, 'POST', `${caseId}/planner`, {
        plannerId: planner.profile.id,
      }),
    );
    objOf<CaseDetail>(await move(supervisor, 'validate'));
    objOf<CaseDetail>(await move(planner, 'requestApproval'));

    const { fileAdded, statusChanged, plannerAssigned, pendingApproval } = NOTIFICATION_TYPES;
    expect(await typesOf(owner)).toEqual([plannerAssigned, statusChanged, pendingApproval]);
    expect(await typesOf(memberOn)).toEqual([
      fileAdded,
      statusChanged,
      plannerAssigned,
      statusChanged,
      pendingApproval,
    ]);
    // The planner joins at assignment, and is not told of their own request.
    expect(await typesOf(planner)).toEqual([plannerAssigned, statusChanged]);
    expect(await typesOf(memberOff)).toEqual([]);
    expect(await typesOf(supervisor)).toEqual([]);
    const [assigned] = (await rowsOf(owner)).filter((r) => r.eventType === plannerAssigned);
    expect(assigned).toMatchObject({
      actorId: supervisor.profile.id,
      path: `/case/${caseId}?tab=general`,
    });
  });

  it('publishes the recipients in the event message, never in the stored history', async () => {
    const assigned = published.find((e) => e.caseId === caseId && e.action === 'plannerSet');
    expect(assigned?.detail.notificationType).toBe(NOTIFICATION_TYPES.plannerAssigned);
    expect([...(assigned?.detail.notified as number[])].sort()).toEqual(
      [owner.profile.id, memberOn.profile.id, planner.profile.id].sort(),
    );
    const created = published.find((e) => e.caseId === caseId && e.action === 'created');
    expect(created?.detail).not.toHaveProperty('notified');
    const [stored] = await db()
      .select()
      .from(caseEvents)
      .where(and(eq(caseEvents.caseId, caseId), eq(caseEvents.action, 'plannerSet')));
    expect(stored?.detail).not.toHaveProperty('notified');
  });
});

describe('GET /notification/getStatus/{caseId}', () => {
  const status = async (session: Session) =>
    obj<CaseNotificationStatus>(await api(session, 'GET', `notification/getStatus/${caseId}`));

  it('counts the caller’s unseen notifications per type', async () => {
    expect(await status(owner)).toEqual({
      caseId,
      unseen: 3,
      trigger: true,
      details: { ...emptyCaseNotificationDetails(), event_7: 1, event_9: 1, event_6: 1 },
    });
    expect(await status(memberOn)).toEqual({
      caseId,
      unseen: 5,
      trigger: true,
      details: {
        ...emptyCaseNotificationDetails(),
        event_2: 1,
        event_7: 1,
        event_9: 2,
        event_6: 1,
      },
    });
    expect(await status(memberOff)).toEqual({
      caseId,
      unseen: 0,
      trigger: false,
      details: emptyCaseNotificationDetails(),
    });
    // Staff see the case without being a case user.
    expect((await status(supervisor)).trigger).toBe(false);
  });

  it('the case list shows each caller the same unseen count on the case', async () => {
    const caseStatus = obj<{ caseStatus: CaseListFilter }>(
      await api(owner, 'GET', `case/${caseId}/get`),
    ).caseStatus;
    for (const session of [owner, memberOn, memberOff]) {
      const page = obj<CasePage>(await api(session, 'GET', `case/list/${caseStatus}/0`));
      const preview = page.items.find((item) => item.id === caseId);
      expect(preview?.unseen).toBe((await status(session)).unseen);
    }
  });

  it('answers 404 for a hidden or missing case, 400 for a bad id, 401 without a token', async () => {
    const hidden = await api(stranger, 'GET', `notification/getStatus/${caseId}`);
    expect(hidden.statusCode).toBe(404);
    expect(codeOf(hidden)).toBe('NOT_FOUND');
    expect((await api(owner, 'GET', 'notification/getStatus/999999')).statusCode).toBe(404);
    for (const bad of ['abc', '0', '-1', '1.5', '99999999999']) {
      expect((await api(owner, 'GET', `notification/getStatus/${bad}`)).statusCode).toBe(400);
    }
    expect((await api(null, 'GET', `notification/getStatus/${caseId}`)).statusCode).toBe(401);
  });
});

describe('GET /notification/case/{caseId}', () => {
  it('answers the caller’s notifications of the case, newest first, then marks them seen', async () => {
    const before = obj<LastNotifications>(await api(memberOn, 'GET', 'notification/last5'));
    const items = obj<NotificationView[]>(
      await api(memberOn, 'GET', `notification/case/${caseId}`),
    );
    expect(items.map((n) => n.eventType)).toEqual([23, 9, 7, 9, 2]);
    expect(items.every((n) => n.viewedAt === null)).toBe(true);
    expect(items[4]).toMatchObject({
      caseId,
      icon: 'paperclip',
      resourceId: attachmentId,
      actor: { id: owner.profile.id },
      patient: { fname: 'Ana', lname: 'Lima' },
    });
    const after = obj<CaseNotificationStatus>(
      await api(memberOn, 'GET', `notification/getStatus/${caseId}`),
    );
    expect(after.unseen).toBe(0);
    expect(after.details).toEqual(emptyCaseNotificationDetails());
    const last = obj<LastNotifications>(await api(memberOn, 'GET', 'notification/last5'));
    expect(last.unseen).toBe(before.unseen - 5);
    expect(last.items.every((n) => n.viewedAt !== null)).toBe(true);
    // Only the caller's: the owner's stay unseen.
    expect((await rowsOf(owner)).every((r) => r.viewedAt === null)).toBe(true);
  });

  it('answers 404 for a hidden case and 400 for a bad id', async () => {
    expect((await api(stranger, 'GET', `notification/case/${caseId}`)).statusCode).toBe(404);
    expect((await api(owner, 'GET', 'notification/case/abc')).statusCode).toBe(400);
  });
});

describe('GET /notification/markAllRead', () => {
  it('marks every notification of the caller seen, once', async () => {
    expect(obj<{ updated: number }>(await api(owner, 'GET', 'notification/markAllRead'))).toEqual({
      updated: 3,
    });
    expect(obj<LastNotifications>(await api(owner, 'GET', 'notification/last5')).unseen).toBe(0);
    expect(obj<{ updated: number }>(await api(owner, 'GET', 'notification/markAllRead'))).toEqual({
      updated: 0,
    });
    // Another user's stay as they were.
    expect((await rowsOf(planner)).every((r) => r.viewedAt === null)).toBe(true);
    expect((await api(null, 'GET', 'notification/markAllRead')).statusCode).toBe(401);
  });
});

describe('last5 and list paging', () => {
  let reader: Session;
  let readerCase: number;

  beforeAll(async () => {
    reader = await createUser(t.app, ['doctor']);
    readerCase = objOf(
      await caseApi(t.app)(reader, 'POST', 'new', { patient: { fname: 'Rui', lname: 'Paz' } }),
    ).id;
    // 25 notifications to the reader (the case owner), one transaction each.
    for (let i = 1; i <= 25; i++) {
      await db().transaction((tx) =>
        notifyCaseUsers(tx, {
          caseId: readerCase,
          eventType: NOTIFICATION_TYPES.archived,
          actorId: supervisor.profile.id,
          resourceId: i,
          path: `/case/${readerCase}?tab=general`,
        }),
      );
    }
  });

  it('last5: the newest five and the unseen count', async () => {
    const last = obj<LastNotifications>(await api(reader, 'GET', 'notification/last5'));
    expect(last.unseen).toBe(25);
    expect(last.items.map((n) => n.resourceId)).toEqual([25, 24, 23, 22, 21]);
    expect(last.items[0]).toMatchObject({
      caseId: readerCase,
      eventType: NOTIFICATION_TYPES.archived,
      icon: 'archive',
      actor: { id: supervisor.profile.id },
      patient: { fname: 'Rui', lname: 'Paz' },
      viewedAt: null,
    });
  });

  it('list/{page}: 20 a page, newest first, page 0 by default', async () => {
    const first = obj<NotificationPage>(await api(reader, 'GET', 'notification/list/0'));
    expect(first).toMatchObject({ total: 25, page: 0, pageSize: 20, unseen: 25 });
    expect(first.items).toHaveLength(20);
    expect(first.items[0]!.resourceId).toBe(25);
    const second = obj<NotificationPage>(await api(reader, 'GET', 'notification/list/1'));
    expect(second.items.map((n) => n.resourceId)).toEqual([5, 4, 3, 2, 1]);
    expect(second.page).toBe(1);
    const byDefault = obj<NotificationPage>(await api(reader, 'GET', 'notification/list'));
    expect(byDefault.items.map((n) => n.id)).toEqual(first.items.map((n) => n.id));
    const beyond = obj<NotificationPage>(await api(reader, 'GET', 'notification/list/2'));
    expect(beyond.items).toEqual([]);
    expect(beyond.total).toBe(25);
  });

  it('list refuses a bad page and shows nobody else’s notifications', async () => {
    for (const bad of ['-1', 'abc', '1.5', '1000001']) {
      const response = await api(reader, 'GET', `notification/list/${bad}`);
      expect(response.statusCode).toBe(400);
      expect(codeOf(response)).toBe('VALIDATION_ERROR');
    }
    const theirs = obj<NotificationPage>(await api(stranger, 'GET', 'notification/list/0'));
    expect(theirs).toMatchObject({ total: 0, unseen: 0, items: [] });
    expect((await api(null, 'GET', 'notification/list/0')).statusCode).toBe(401);
    expect((await api(null, 'GET', 'notification/last5')).statusCode).toBe(401);
  });
});

describe('notifyCaseUsers', () => {
  it('filters by mayReceive, skips the actor and mails no chat type', async () => {
    const mailsBefore = (await mailsTo(memberOn)).length;
    const recipients = await db().transaction((tx) =>
      notifyCaseUsers(tx, {
        caseId,
        eventType: NOTIFICATION_TYPES.publicChatMessage,
        actorId: planner.profile.id,
        resourceId: 77,
        path: `/case/${caseId}?tab=chat&channel=3`,
        mayReceive: (user) => user.roles.includes('doctor'),
      }),
    );
    expect(recipients.sort()).toEqual([owner.profile.id, memberOn.profile.id].sort());
    const [chat] = (await rowsOf(memberOn)).filter((r) => r.resourceId === 77);
    // Chat comes as a digest: not mailed one by one, so not marked sent.
    expect(chat).toMatchObject({ eventType: 3, sentAt: null });
    expect(await mailsTo(memberOn)).toHaveLength(mailsBefore);
  });

  it('publishNotifications tells each recipient’s room', () => {
    const sent: { userId: number; type: string; eventType: number }[] = [];
    publishNotifications(
      {
        live: {
          toUser: (userId, event) =>
            sent.push({
              userId,
              type: event.type,
              eventType: event.type === 'notification.created' ? event.eventType : 0,
            }),
          toCase: () => undefined,
          toChannel: () => undefined,
          recheckAccess: async () => undefined,
        },
      },
      caseId,
      [1, 2],
      3,
    );
    expect(sent).toEqual([
      { userId: 1, type: 'notification.created', eventType: 3 },
      { userId: 2, type: 'notification.created', eventType: 3 },
    ]);
  });
});

describe('email preferences: /profile/notifications', () => {
  it('answers the defaults until the user chooses', async () => {
    const prefs = obj<{ eventTypes: number[] }>(await api(planner, 'GET', 'profile/notifications'));
    expect(prefs.eventTypes).toEqual([...DEFAULT_EMAIL_NOTIFICATIONS].sort((a, b) => a - b));
    expect((await api(null, 'GET', 'profile/notifications')).statusCode).toBe(401);
  });

  it('saves a choice, sorted and without duplicates', async () => {
    const saved = obj<{ eventTypes: number[] }>(
      await api(memberOn, 'POST', 'profile/notifications', { eventTypes: [9, 2, 2] }),
    );
    expect(saved.eventTypes).toEqual([2, 9]);
    expect(
      obj<{ eventTypes: number[] }>(await api(memberOn, 'GET', 'profile/notifications')),
    ).toEqual({ eventTypes: [2, 9] });
    expect(
      obj<{ eventTypes: number[] }>(
        await api(stranger, 'POST', 'profile/notifications', { eventTypes: [] }),
      ),
    ).toEqual({ eventTypes: [] });
  });

  it('refuses bad input with 400', async () => {
    for (const body of [
      { eventTypes: [99] },
      { eventTypes: [2, 1] },
      { eventTypes: 'x' },
      { eventTypes: 9 },
      { eventTypes: [2.5] },
      { eventTypes: ['2'] },
      {},
    ]) {
      const response = await api(memberOn, 'POST', 'profile/notifications', body);
      expect(response.statusCode, JSON.stringify(body)).toBe(400);
      expect(codeOf(response)).toBe('VALIDATION_ERROR');
    }
    expect(
      obj<{ eventTypes: number[] }>(await api(memberOn, 'GET', 'profile/notifications')),
    ).toEqual({ eventTypes: [2, 9] });
    expect((await api(null, 'POST', 'profile/notifications', { eventTypes: [] })).statusCode).toBe(
      401,
    );
  });

  it('a chosen non-chat type enqueues one mail per recipient who chose it', async () => {
    // memberOn chose files (2); the owner and the planner keep the defaults (no files).
    const before = {
      member: (await mailsTo(memberOn)).length,
      planner: (await mailsTo(planner)).length,
      owner: (await mailsTo(owner)).length,
    };
    // The owner may no longer add files once the case is planned; a supervisor may.
    await uploadFile(
      t.app,
      supervisor,
      caseId,
      'photoProtocol.generic',
      'more.png',
      await samplePng(9),
    );
    const mails = await mailsTo(memberOn);
    expect(mails).toHaveLength(before.member + 1);
    expect(mails.at(-1)).toMatchObject({
      template: 'notification',
      language: 'ptBR',
      params: {
        eventType: NOTIFICATION_TYPES.fileAdded,
        caseId,
        patientName: 'Ana Lima',
        actorName: general(supervisor).displayName,
        path: `/case/${caseId}?tab=attachments`,
      },
    });
    expect(await mailsTo(planner)).toHaveLength(before.planner);
    expect(await mailsTo(owner)).toHaveLength(before.owner);
    const files = (await rowsOf(memberOn)).filter((r) => r.eventType === 2);
    expect(files.at(-1)!.sentAt).not.toBeNull();
    const plannerFiles = (await rowsOf(planner)).filter((r) => r.eventType === 2);
    expect(plannerFiles).toHaveLength(1);
    expect(plannerFiles[0]!.sentAt).toBeNull();
  });
});
