import type { LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CaseDetail, CasePage } from '@dentflow/domain';
import { caseApi, codeOf, createUser, objOf } from './support/cases-fixtures';
import { bearer, login, startTestApp, type Session, type TestApp } from './support/test-app';

/**
 * From the case's side: the owning clinic adds and removes its linked partners on the
 * case's Users tab (`can` carries 'addPartner'); nobody else but staff touches case users.
 */

let t: TestApp;
let api: ReturnType<typeof caseApi>;
let admin: Session;
let supervisor: Session;
let doctor: Session;
let planner: Session;
let clinic: Session;
let otherClinic: Session;
let partner: Session;
let unlinked: Session;
beforeAll(async () => {
  t = await startTestApp();
  api = caseApi(t.app);
  admin = await login(t.app, 'admin');
  supervisor = await login(t.app, 'supervisor');
  doctor = await login(t.app, 'doctor');
  planner = await login(t.app, 'planner');
  clinic = await createUser(t.app, ['clinic']);
  otherClinic = await createUser(t.app, ['clinic']);
  partner = await createUser(t.app, ['partner']);
  unlinked = await createUser(t.app, ['partner']);
  await link(clinic, partner);
  // Linked to another clinic: does not count for `clinic`.
  await link(otherClinic, unlinked);
});
afterAll(async () => {
  await t?.close();
});

const idOf = (session: Session) => session.profile.id;

async function link(clinicUser: Session, partnerUser: Session): Promise<void> {
  const response = await t.app.inject({
    method: 'POST',
    url: '/api/v1/partners/link',
    headers: bearer(admin),
    payload: { clinicId: idOf(clinicUser), partnerId: idOf(partnerUser) },
  });
  expect(response.statusCode, response.body).toBe(200);
}

const must = (response: LightMyRequestResponse) => {
  expect(response.statusCode, response.body).toBe(200);
  return objOf(response);
};

const openCase = async (owner: Session) =>
  must(await api(owner, 'POST', 'new', { patient: { fname: 'Ana', lname: 'Lima' } })).id;

const addUser = (session: Session, caseId: number, userId: number, triggerNotification = true) =>
  api(session, 'POST', `${caseId}/users`, { userId, triggerNotification });
const removeUser = (session: Session, caseId: number, userId: number) =>
  api(session, 'DELETE', `${caseId}/users/${userId}`);

const listIds = async (session: Session) =>
  objOf<CasePage>(await api(session, 'GET', 'list/new/0?pageSize=100')).items.map((c) => c.id);

describe('the owning clinic adds a linked partner', () => {
  it('the partner then sees the case (get and list) and is a member with the chosen notification', async () => {
    const caseId = await openCase(clinic);
    expect((await api(partner, 'GET', `${caseId}/get`)).statusCode).toBe(404);
    expect(await listIds(partner)).not.toContain(caseId);

    const added = must(await addUser(clinic, caseId, idOf(partner), false));
    expect(added.users).toEqual([
      expect.objectContaining({ userId: idOf(partner), triggerNotification: false }),
    ]);
    expect(added.can).toContain('addPartner');

    const seen = await api(partner, 'GET', `${caseId}/get`);
    expect(seen.statusCode).toBe(200);
    expect(objOf(seen)).toMatchObject({ id: caseId, readOnly: true });
    expect(await listIds(partner)).toContain(caseId);
  });

  it('refuses an unlinked partner and a non-partner (403), and adds nothing', async () => {
    const caseId = await openCase(clinic);
    for (const userId of [idOf(unlinked), idOf(doctor), idOf(planner)]) {
      const refused = await addUser(clinic, caseId, userId);
      expect(refused.statusCode, String(userId)).toBe(403);
      expect(codeOf(refused)).toBe('FORBIDDEN');
    }
    expect(must(await api(clinic, 'GET', `${caseId}/get`)).users).toEqual([]);
    expect((await api(unlinked, 'GET', `${caseId}/get`)).statusCode).toBe(404);
  });

  it('refuses a doctor owner (403), another clinic (404) and a planner (404 hidden, 403 as member)', async () => {
    const doctorCase = await openCase(doctor);
    expect((await addUser(doctor, doctorCase, idOf(partner))).statusCode).toBe(403);

    const caseId = await openCase(clinic);
    // The other clinic shares no case: the case is hidden from it, even with its own partner.
    expect((await addUser(otherClinic, caseId, idOf(unlinked))).statusCode).toBe(404);
    expect((await addUser(planner, caseId, idOf(partner))).statusCode).toBe(404);
    must(await addUser(supervisor, caseId, idOf(planner)));
    const asMember = await addUser(planner, caseId, idOf(partner));
    expect(asMember.statusCode).toBe(403);
    expect(codeOf(asMember)).toBe('FORBIDDEN');
    expect((await api(partner, 'GET', `${caseId}/get`)).statusCode).toBe(404);
  });
});

describe('the owning clinic removes a partner', () => {
  it('the partner no longer sees the case (404, gone from its list)', async () => {
    const caseId = await openCase(clinic);
    must(await addUser(clinic, caseId, idOf(partner)));
    expect(await listIds(partner)).toContain(caseId);

    const removed = must(await removeUser(clinic, caseId, idOf(partner)));
    expect(removed.users).toEqual([]);
    expect((await api(partner, 'GET', `${caseId}/get`)).statusCode).toBe(404);
    expect(await listIds(partner)).not.toContain(caseId);
    // Gone already: nothing to remove.
    expect((await removeUser(clinic, caseId, idOf(partner))).statusCode).toBe(404);
  });

  it('removes only partners: a member who is not a partner stays (403)', async () => {
    const caseId = await openCase(clinic);
    must(await addUser(supervisor, caseId, idOf(doctor)));
    const refused = await removeUser(clinic, caseId, idOf(doctor));
    expect(refused.statusCode).toBe(403);
    expect(codeOf(refused)).toBe('FORBIDDEN');
    expect((await api(doctor, 'GET', `${caseId}/get`)).statusCode).toBe(200);
    // A partner the supervisor added, unlinked from this clinic, is still the clinic's to remove.
    must(await addUser(supervisor, caseId, idOf(unlinked)));
    must(await removeUser(clinic, caseId, idOf(unlinked)));
    expect((await api(unlinked, 'GET', `${caseId}/get`)).statusCode).toBe(404);
    // Staff still remove anyone.
    must(await removeUser(supervisor, caseId, idOf(doctor)));
    expect((await api(doctor, 'GET', `${caseId}/get`)).statusCode).toBe(404);
  });

  it('refuses the partner itself, a doctor owner, another clinic and a planner', async () => {
    const caseId = await openCase(clinic);
    must(await addUser(clinic, caseId, idOf(partner)));
    expect((await removeUser(partner, caseId, idOf(partner))).statusCode).toBe(403);
    expect((await removeUser(otherClinic, caseId, idOf(partner))).statusCode).toBe(404);
    expect((await removeUser(planner, caseId, idOf(partner))).statusCode).toBe(404);

    const doctorCase = await openCase(doctor);
    must(await addUser(supervisor, doctorCase, idOf(partner)));
    expect((await removeUser(doctor, doctorCase, idOf(partner))).statusCode).toBe(403);
    expect((await api(partner, 'GET', `${doctorCase}/get`)).statusCode).toBe(200);
  });
});

describe('an archived case', () => {
  it('is frozen for the clinic: adding and removing answer 409 CASE_ARCHIVED', async () => {
    const caseId = await openCase(clinic);
    must(await addUser(clinic, caseId, idOf(partner)));
    must(await api(clinic, 'POST', `${caseId}/move`, { action: 'cancel' }));
    const archived = must(await api(clinic, 'POST', `${caseId}/archive`));
    expect(archived.can).not.toContain('addPartner');

    const second = await createUser(t.app, ['partner']);
    await link(clinic, second);
    const add = await addUser(clinic, caseId, idOf(second));
    expect(add.statusCode).toBe(409);
    expect(codeOf(add)).toBe('CASE_ARCHIVED');
    const remove = await removeUser(clinic, caseId, idOf(partner));
    expect(remove.statusCode).toBe(409);
    expect(codeOf(remove)).toBe('CASE_ARCHIVED');
    expect((await api(partner, 'GET', `${caseId}/get`)).statusCode).toBe(200);
    expect((await api(second, 'GET', `${caseId}/get`)).statusCode).toBe(404);
  });
});

describe('can', () => {
  it('carries addPartner only for the owner clinic', async () => {
    const caseId = await openCase(clinic);
    must(await addUser(clinic, caseId, idOf(partner)));
    const canOf = async (session: Session, id = caseId) =>
      objOf<CaseDetail>(await api(session, 'GET', `${id}/get`)).can;

    expect(await canOf(clinic)).toContain('addPartner');
    for (const session of [partner, supervisor, admin]) {
      expect(await canOf(session)).not.toContain('addPartner');
    }
    const doctorCase = await openCase(doctor);
    expect(await canOf(doctor, doctorCase)).not.toContain('addPartner');
  });
});
