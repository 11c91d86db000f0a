import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CaseEvent } from '@dentflow/domain';
import {
  caseApi,
  caseInStatus,
  createUser,
  demoSessions,
  objOf,
  type CaseSetup,
  caseSetup,
} from './support/cases-fixtures';
import { samplePng, uploadFile } from './support/storage-fixtures';
import { json, startTestApp, type Session, type TestApp } from './support/test-app';

/**
 * The Users tab's calls: a supervisor adds any user (planner, printer, doctor, partner), switches
 * their notifications by adding them again, and removes them; the owning doctor and the members
 * may do none of it. The history names the member and the file an event is about.
 */
let t: TestApp;
let api: ReturnType<typeof caseApi>;
let s: Awaited<ReturnType<typeof demoSessions>>;
let owner: Session;
let caseId: number;
let setup: CaseSetup;

beforeAll(async () => {
  t = await startTestApp();
  api = caseApi(t.app);
  s = await demoSessions(t.app);
  owner = await createUser(t.app, ['doctor']);
  setup = caseSetup(t.app, s, owner);
  caseId = await caseInStatus(setup, 'execute');
});

afterAll(async () => {
  await t?.close();
});

const membersOf = async () =>
  objOf(await api(s.supervisor, 'GET', `${caseId}/get`)).users.map((member) => ({
    userId: member.userId,
    triggerNotification: member.triggerNotification,
  }));

describe('case members', () => {
  it('a supervisor adds a printer, a doctor and a partner, switches notifications and removes', async () => {
    const doctor = await createUser(t.app, ['doctor']);
    for (const [user, notify] of [
      [s.printer, true],
      [doctor, false],
      [s.partner, true],
    ] as const) {
      const added = await api(s.supervisor, 'POST', `${caseId}/users`, {
        userId: user.profile.id,
        triggerNotification: notify,
      });
      expect(added.statusCode, added.body).toBe(200);
    }
    expect(await membersOf()).toEqual(
      expect.arrayContaining([
        { userId: s.printer.profile.id, triggerNotification: true },
        { userId: doctor.profile.id, triggerNotification: false },
        { userId: s.partner.profile.id, triggerNotification: true },
      ]),
    );

    // Adding a member again switches their notifications; nobody is added twice.
    const switched = await api(s.supervisor, 'POST', `${caseId}/users`, {
      userId: s.partner.profile.id,
      triggerNotification: false,
    });
    expect(switched.statusCode, switched.body).toBe(200);
    const members = await membersOf();
    expect(members.filter((m) => m.userId === s.partner.profile.id)).toEqual([
      { userId: s.partner.profile.id, triggerNotification: false },
    ]);

    const doctorName = objOf(await api(s.supervisor, 'GET', `${caseId}/get`)).users.find(
      (member) => member.userId === doctor.profile.id,
    )?.displayName;
    expect(doctorName).toBeTruthy();
    const removed = await api(s.supervisor, 'DELETE', `${caseId}/users/${doctor.profile.id}`);
    expect(removed.statusCode, removed.body).toBe(200);
    expect((await membersOf()).map((m) => m.userId)).not.toContain(doctor.profile.id);
    expect((await api(doctor, 'GET', `${caseId}/get`)).statusCode).toBe(404);

    // The history names who was added and removed, and says the switch was only a switch.
    const history = json<{ obj: CaseEvent[] }>(await api(owner, 'GET', `${caseId}/history`)).obj;
    expect(history).toContainEqual(
      expect.objectContaining({
        action: 'userNotificationsSet',
        detail: expect.objectContaining({
          userId: s.partner.profile.id,
          triggerNotification: false,
          userName: expect.any(String),
        }),
      }),
    );
    expect(
      history.filter((e) => e.action === 'userAdded' && e.detail.userId === s.partner.profile.id),
    ).toHaveLength(1);
    expect(history).toContainEqual(
      expect.objectContaining({
        action: 'userRemoved',
        detail: expect.objectContaining({
          userId: doctor.profile.id,
          userName: doctorName,
        }),
      }),
    );
  });

  it('the owning doctor and a member may not add, switch or remove members (403)', async () => {
    const outsider = await createUser(t.app, ['doctor']);
    for (const session of [owner, s.printer]) {
      for (const [method, url, payload] of [
        ['POST', `${caseId}/users`, { userId: outsider.profile.id, triggerNotification: true }],
        ['POST', `${caseId}/users`, { userId: s.partner.profile.id, triggerNotification: true }],
        ['DELETE', `${caseId}/users/${s.partner.profile.id}`, undefined],
      ] as const) {
        const response = await api(session, method, url, payload);
        expect(response.statusCode, `${String(session.profile.nickName)} ${method} ${url}`).toBe(
          403,
        );
      }
    }
    // Nothing changed.
    expect(await membersOf()).toContainEqual({
      userId: s.partner.profile.id,
      triggerNotification: false,
    });
    expect((await membersOf()).map((m) => m.userId)).not.toContain(outsider.profile.id);
  });

  it('a file event in the history names the file', async () => {
    const fresh = await caseInStatus(setup, 'new');
    const { attachment } = await uploadFile(
      t.app,
      owner,
      fresh,
      'photoProtocol.generic',
      'smile-front.png',
      await samplePng(),
    );
    const history = json<{ obj: CaseEvent[] }>(await api(owner, 'GET', `${fresh}/history`)).obj;
    expect(history).toContainEqual(
      expect.objectContaining({
        action: 'attachmentAdded',
        detail: expect.objectContaining({
          attachmentId: attachment.id,
          fileName: 'smile-front.png',
        }),
      }),
    );
  });
});
