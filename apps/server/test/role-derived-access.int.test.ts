import type { LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  caseListGroup,
  type CaseCounts,
  type CaseListFilter,
  type CasePage,
} from '@dentflow/domain';
import {
  caseApi,
  caseInStatus,
  createUser,
  insertPublicAttachment,
  objOf,
  type CaseSetup,
} from './support/cases-fixtures';
import { sampleStl, uploadFile } from './support/storage-fixtures';
import { bearer, json, login, startTestApp, type Session, type TestApp } from './support/test-app';

/**
 * Relations that come from a role end with the role, on the next request: the planner of a
 * service, a printer, the owner's instructor, and case users added for their role (a planner, a
 * partner, a printer, an instructor). After an admin removes the role, the same session gets 404
 * on the case, its files and its chat, and the lists and counts leave it out; a colleague added as
 * a member (membership from no role) keeps it. docs/permissions.md "Who sees a case".
 */

let t: TestApp;
let api: ReturnType<typeof caseApi>;
let admin: Session;
let supervisor: Session;
let owner: Session;

beforeAll(async () => {
  t = await startTestApp();
  api = caseApi(t.app);
  admin = await login(t.app, 'admin');
  supervisor = await login(t.app, 'supervisor');
  owner = await createUser(t.app, ['doctor']);
});
afterAll(async () => {
  await t?.close();
});

const idOf = (session: Session) => session.profile.id;

const must = (response: LightMyRequestResponse) => {
  expect(response.statusCode, response.body).toBe(200);
  return response;
};

/** The admin sets the user's roles through the users API. */
async function setRoles(user: Session, roles: string[]): Promise<void> {
  must(
    await t.app.inject({
      method: 'POST',
      url: `/api/v1/users/${idOf(user)}/set`,
      headers: bearer(admin),
      payload: { roles },
    }),
  );
}

const setup = (planner: Session, printer: Session): CaseSetup => ({
  app: t.app,
  owner,
  supervisor,
  planner,
  printer,
});

const attachmentCall = (session: Session, method: 'GET' | 'DELETE', url: string) =>
  t.app.inject({ method, url: `/api/v1/attachment/${url}`, headers: bearer(session) });

/** What the user can reach of the case: get, its list and count, its files, its chat. */
async function reach(session: Session, caseId: number, files: { publicId: number }) {
  const get = await api(session, 'GET', `${caseId}/get`);
  // The filter of the case as staff see it, so a hidden case is looked for in the right list.
  const filter = caseListGroup(objOf(await api(supervisor, 'GET', `${caseId}/get`)).caseStatus);
  const page = objOf<CasePage>(
    await api(session, 'GET', `list/${filter as CaseListFilter}/0?pageSize=100`),
  );
  const counts = objOf<CaseCounts>(await api(session, 'GET', 'counts'));
  return {
    get: get.statusCode,
    listed: page.items.some((item) => item.id === caseId),
    // The list's total and the sidebar count agree with what the list holds.
    countAgrees: counts[filter as CaseListFilter] === page.total,
    history: (await api(session, 'GET', `${caseId}/history`)).statusCode,
    files: (await attachmentCall(session, 'GET', `case/${caseId}/list`)).statusCode,
    download: (await attachmentCall(session, 'GET', `${files.publicId}/download`)).statusCode,
    chat: (
      await t.app.inject({
        method: 'GET',
        url: `/api/v1/case/${caseId}/chat`,
        headers: bearer(session),
      })
    ).statusCode,
    post: (
      await t.app.inject({
        method: 'POST',
        url: `/api/v1/case/${caseId}/chat/3`,
        headers: bearer(session),
        payload: { text: 'Still here?' },
      })
    ).statusCode,
  };
}

/** The user's notifications about the case. */
async function notificationsOf(session: Session, caseId: number): Promise<number> {
  const response = await t.app.inject({
    method: 'GET',
    url: '/api/v1/notification/list/0',
    headers: bearer(session),
  });
  const { items } = json<{ obj: { items: { caseId: number | null }[] } }>(must(response)).obj;
  return items.filter((note) => note.caseId === caseId).length;
}

/** A message on the public channel (it notifies the case's people who may read it). */
async function say(session: Session, caseId: number): Promise<void> {
  must(
    await t.app.inject({
      method: 'POST',
      url: `/api/v1/case/${caseId}/chat/3`,
      headers: bearer(session),
      payload: { text: `at ${Date.now()}` },
    }),
  );
}

const SEES = {
  get: 200,
  listed: true,
  countAgrees: true,
  history: 200,
  files: 200,
  // A redirect to the short-lived signed link.
  download: 302,
  chat: 200,
  post: 200,
};
const HIDDEN = {
  get: 404,
  listed: false,
  countAgrees: true,
  history: 404,
  files: 404,
  download: 404,
  chat: 404,
  post: 404,
};

describe('the planner of a service', () => {
  it('loses the case, its files and its chat with the planner role, and gets them back with it', async () => {
    const planner = await createUser(t.app, ['planner']);
    const printer = await createUser(t.app, ['printer']);
    const caseId = await caseInStatus(setup(planner, printer), 'execute');
    const publicId = await insertPublicAttachment(t.app.database.db, caseId, idOf(owner));
    const { attachment: plan } = await uploadFile(
      t.app,
      planner,
      caseId,
      'planning',
      'plan.stl',
      sampleStl(),
    );
    expect(await reach(planner, caseId, { publicId })).toMatchObject(SEES);

    // Still a doctor: the planner assignment and the membership it added both end.
    await setRoles(planner, ['doctor']);
    expect(await reach(planner, caseId, { publicId })).toMatchObject(HIDDEN);
    const announce = await t.app.inject({
      method: 'POST',
      url: `/api/v1/attachment/createPostUrl/${caseId}`,
      headers: bearer(planner),
      payload: { filename: 'plan2.stl', filesize: 184, attachment_name: 'planning' },
    });
    expect(announce.statusCode).toBe(404);
    expect((await attachmentCall(planner, 'GET', `${plan.id}/get`)).statusCode).toBe(404);
    expect((await attachmentCall(planner, 'GET', `${plan.id}/download`)).statusCode).toBe(404);
    expect((await attachmentCall(planner, 'GET', `${plan.id}/publish`)).statusCode).toBe(404);
    expect((await attachmentCall(planner, 'DELETE', `${plan.id}/delete`)).statusCode).toBe(404);
    expect(
      (await api(planner, 'POST', `${caseId}/move`, { action: 'requestApproval' })).statusCode,
    ).toBe(404);

    // The assignment itself is kept: with the role back, the planner works on the case again.
    await setRoles(planner, ['planner']);
    expect(await reach(planner, caseId, { publicId })).toMatchObject(SEES);
    const published = await attachmentCall(planner, 'GET', `${plan.id}/publish`);
    expect(published.statusCode, published.body).toBe(200);
  });
});

describe('the archive search', () => {
  it('leaves out the archived cases of a planner without the role, and of a former partner member', async () => {
    const planner = await createUser(t.app, ['planner']);
    const printer = await createUser(t.app, ['printer']);
    const partner = await createUser(t.app, ['partner']);
    const caseId = await caseInStatus(setup(planner, printer), 'finished');
    must(
      await api(supervisor, 'POST', `${caseId}/users`, {
        userId: idOf(partner),
        triggerNotification: false,
      }),
    );
    must(await api(owner, 'POST', `${caseId}/archive`));
    const archived = async (session: Session) =>
      objOf<CasePage>(await api(session, 'GET', 'archive/0?pageSize=100')).items.some(
        (item) => item.id === caseId,
      );
    expect(await archived(planner)).toBe(true);
    expect(await archived(partner)).toBe(true);

    await setRoles(planner, ['doctor']);
    await setRoles(partner, ['clinic']);
    expect(await archived(planner)).toBe(false);
    expect(await archived(partner)).toBe(false);
    expect(await archived(owner)).toBe(true);
  });
});

describe('printers', () => {
  it('a printer loses printable cases and the cases they were added to with the printer role', async () => {
    const planner = await createUser(t.app, ['planner']);
    const printer = await createUser(t.app, ['printer']);
    const printing = await caseInStatus(setup(planner, printer), 'print', {
      productCode: 'MFG-GUIDE',
    });
    const added = await caseInStatus(setup(planner, printer), 'new');
    must(
      await api(supervisor, 'POST', `${added}/users`, {
        userId: idOf(printer),
        triggerNotification: true,
      }),
    );
    const printingFile = await insertPublicAttachment(t.app.database.db, printing, idOf(owner));
    const addedFile = await insertPublicAttachment(t.app.database.db, added, idOf(owner));
    expect(await reach(printer, printing, { publicId: printingFile })).toMatchObject(SEES);
    expect(await reach(printer, added, { publicId: addedFile })).toMatchObject(SEES);

    await setRoles(printer, ['partner']);
    expect(await reach(printer, printing, { publicId: printingFile })).toMatchObject(HIDDEN);
    expect(await reach(printer, added, { publicId: addedFile })).toMatchObject(HIDDEN);
  });
});

describe('instructors', () => {
  it("the owner's instructor and an instructor added to a case lose them with the instructor role", async () => {
    const instructor = await createUser(t.app, ['instructor']);
    const student = await createUser(t.app, ['doctor'], { instructorId: idOf(instructor) });
    const planner = await createUser(t.app, ['planner']);
    const printer = await createUser(t.app, ['printer']);
    const studentCase = await caseInStatus({ ...setup(planner, printer), owner: student }, 'new');
    const added = await caseInStatus(setup(planner, printer), 'new');
    must(
      await api(supervisor, 'POST', `${added}/users`, {
        userId: idOf(instructor),
        triggerNotification: true,
      }),
    );
    const studentFile = await insertPublicAttachment(t.app.database.db, studentCase, idOf(student));
    const addedFile = await insertPublicAttachment(t.app.database.db, added, idOf(owner));
    expect(await reach(instructor, studentCase, { publicId: studentFile })).toMatchObject(SEES);
    expect(await reach(instructor, added, { publicId: addedFile })).toMatchObject(SEES);

    await setRoles(instructor, ['doctor']);
    expect(await reach(instructor, studentCase, { publicId: studentFile })).toMatchObject(HIDDEN);
    expect(await reach(instructor, added, { publicId: addedFile })).toMatchObject(HIDDEN);
  });
});

describe('partners', () => {
  it('a partner added by the clinic loses the case with the partner role, even as a doctor; nobody notifies them', async () => {
    const clinic = await createUser(t.app, ['clinic']);
    const partner = await createUser(t.app, ['partner', 'doctor']);
    must(
      await t.app.inject({
        method: 'POST',
        url: '/api/v1/partners/link',
        headers: bearer(admin),
        payload: { clinicId: idOf(clinic), partnerId: idOf(partner) },
      }),
    );
    const planner = await createUser(t.app, ['planner']);
    const printer = await createUser(t.app, ['printer']);
    const caseId = await caseInStatus({ ...setup(planner, printer), owner: clinic }, 'new');
    must(
      await api(clinic, 'POST', `${caseId}/users`, {
        userId: idOf(partner),
        triggerNotification: true,
      }),
    );
    const publicId = await insertPublicAttachment(t.app.database.db, caseId, idOf(clinic));
    expect(await reach(partner, caseId, { publicId })).toMatchObject(SEES);

    await setRoles(partner, ['doctor']);
    expect(await reach(partner, caseId, { publicId })).toMatchObject(HIDDEN);
    // The clinic's messages notify the case users who still see the case: not the former partner.
    const noted = await notificationsOf(partner, caseId);
    await say(clinic, caseId);
    expect(await notificationsOf(partner, caseId)).toBe(noted);
    await setRoles(partner, ['partner', 'doctor']);
    await say(clinic, caseId);
    expect(await notificationsOf(partner, caseId)).toBe(noted + 1);
  });
});

describe('membership that comes from no role', () => {
  it('a doctor added by staff keeps the case whatever their roles become', async () => {
    const colleague = await createUser(t.app, ['doctor']);
    const planner = await createUser(t.app, ['planner']);
    const printer = await createUser(t.app, ['printer']);
    const caseId = await caseInStatus(setup(planner, printer), 'new');
    must(
      await api(supervisor, 'POST', `${caseId}/users`, {
        userId: idOf(colleague),
        triggerNotification: true,
      }),
    );
    const publicId = await insertPublicAttachment(t.app.database.db, caseId, idOf(owner));
    expect(await reach(colleague, caseId, { publicId })).toMatchObject(SEES);
    for (const roles of [['clinic'], ['partner'], ['planner']]) {
      await setRoles(colleague, roles);
      expect(await reach(colleague, caseId, { publicId }), roles.join()).toMatchObject(SEES);
    }
  });
});
