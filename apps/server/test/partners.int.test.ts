import { and, eq } from 'drizzle-orm';
import type { LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CaseDetail, PartnerLink } from '@dentflow/domain';
import { auditLog, users } from '../src/db/schema';
import { caseApi, codeOf, createUser, objOf } from './support/cases-fixtures';
import { bearer, json, login, startTestApp, type Session, type TestApp } from './support/test-app';

let t: TestApp;
let admin: Session;
let supervisor: Session;
let doctor: Session;
let planner: Session;
let clinic: Session;
let otherClinic: Session;
let partner: Session;
let otherPartner: Session;
beforeAll(async () => {
  t = await startTestApp();
  admin = await login(t.app, 'admin');
  supervisor = await login(t.app, 'supervisor');
  doctor = await login(t.app, 'doctor');
  planner = await login(t.app, 'planner');
  clinic = await createUser(t.app, ['clinic']);
  otherClinic = await createUser(t.app, ['clinic']);
  partner = await createUser(t.app, ['partner']);
  otherPartner = await createUser(t.app, ['partner']);
});
afterAll(async () => {
  await t?.close();
});

type Method = 'GET' | 'POST' | 'DELETE';
const call = (session: Session | null, method: Method, url: string, payload?: object) =>
  t.app.inject({
    method,
    url: `/api/v1/partners${url}`,
    headers: session ? bearer(session) : {},
    ...(payload ? { payload } : {}),
  });
const obj = <T>(response: LightMyRequestResponse): T => json<{ obj: T }>(response).obj;
const idOf = (session: Session) => session.profile.id;

async function link(clinicUser: Session, partnerUser: Session): Promise<PartnerLink> {
  const response = await call(admin, 'POST', '/link', {
    clinicId: idOf(clinicUser),
    partnerId: idOf(partnerUser),
  });
  expect(response.statusCode, response.body).toBe(200);
  return obj<PartnerLink>(response);
}

const partnerIds = (links: PartnerLink[]) => links.map((l) => l.partner.id).sort();

describe('who may call the partner routes', () => {
  it('refuses doctors, planners, partners and supervisors (403) and anonymous callers (401)', async () => {
    const existing = await link(otherClinic, otherPartner);
    const routes: [Method, string, object?][] = [
      ['GET', ''],
      ['POST', '/link', { clinicId: idOf(clinic), partnerId: idOf(partner) }],
      ['DELETE', `/link/${existing.id}`],
    ];
    for (const [method, url, payload] of routes) {
      for (const session of [doctor, planner, partner]) {
        expect((await call(session, method, url, payload)).statusCode).toBe(403);
      }
      expect((await call(null, method, url, payload)).statusCode).toBe(401);
    }
    // A supervisor reads nothing here either: the list is for clinics and admins.
    expect((await call(supervisor, 'POST', '/link', routes[1]![2])).statusCode).toBe(403);
    expect((await call(supervisor, 'DELETE', `/link/${existing.id}`)).statusCode).toBe(403);
    // A clinic does not manage links.
    expect((await call(clinic, 'POST', '/link', routes[1]![2])).statusCode).toBe(403);
    expect((await call(clinic, 'DELETE', `/link/${existing.id}`)).statusCode).toBe(403);
  });
});

describe('links', () => {
  it('an admin links and unlinks with audit rows; a clinic sees only its own links', async () => {
    const created = await link(clinic, partner);
    expect(created.clinic).toMatchObject({ id: idOf(clinic) });
    expect(created.partner.id).toBe(idOf(partner));
    expect(created.partner.email).toContain('@');
    // Linking the same pair again answers the same link and writes no second row.
    expect((await link(clinic, partner)).id).toBe(created.id);
    await link(otherClinic, partner);

    const own = obj<PartnerLink[]>(await call(clinic, 'GET', ''));
    expect(own.map((l) => l.id)).toEqual([created.id]);
    // A clinic cannot peek at another clinic's links through the filter.
    const peek = obj<PartnerLink[]>(await call(clinic, 'GET', `?clinicId=${idOf(otherClinic)}`));
    expect(peek.map((l) => l.id)).toEqual([created.id]);

    const all = obj<PartnerLink[]>(await call(admin, 'GET', ''));
    expect(all.length).toBeGreaterThanOrEqual(3);
    const filtered = obj<PartnerLink[]>(await call(admin, 'GET', `?clinicId=${idOf(otherClinic)}`));
    expect(filtered.every((l) => l.clinic.id === idOf(otherClinic))).toBe(true);
    expect(partnerIds(filtered)).toEqual([idOf(otherPartner), idOf(partner)].sort());

    const db = t.app.database.db;
    const linkRows = await db
      .select()
      .from(auditLog)
      .where(and(eq(auditLog.entity, 'clinic_partner'), eq(auditLog.entityId, String(created.id))));
    expect(linkRows).toHaveLength(1);
    expect(linkRows[0]).toMatchObject({ action: 'partner.link', actorUserId: idOf(admin) });
    expect(linkRows[0]!.details).toMatchObject({
      after: { clinicId: idOf(clinic), partnerId: idOf(partner) },
    });

    const removed = await call(admin, 'DELETE', `/link/${created.id}`);
    expect(removed.statusCode).toBe(200);
    expect(obj<PartnerLink[]>(await call(clinic, 'GET', ''))).toEqual([]);
    const unlinkRows = await db
      .select()
      .from(auditLog)
      .where(and(eq(auditLog.action, 'partner.unlink'), eq(auditLog.entityId, String(created.id))));
    expect(unlinkRows).toHaveLength(1);
    expect(unlinkRows[0]!.details).toMatchObject({
      before: { clinicId: idOf(clinic), partnerId: idOf(partner) },
      after: null,
    });
    // Unlinking again: the link is gone.
    expect((await call(admin, 'DELETE', `/link/${created.id}`)).statusCode).toBe(404);
  });

  it('refuses bad input with translated 400s', async () => {
    const unverified = await createUser(t.app, ['partner']);
    const deleted = await createUser(t.app, ['partner']);
    const db = t.app.database.db;
    await db
      .update(users)
      .set({ verifiedAt: null })
      .where(eq(users.id, idOf(unverified)));
    await db
      .update(users)
      .set({ deletedAt: new Date() })
      .where(eq(users.id, idOf(deleted)));

    const cases: [object, string][] = [
      [{ clinicId: idOf(partner), partnerId: idOf(otherPartner) }, 'clinicId'],
      [{ clinicId: idOf(clinic), partnerId: idOf(doctor) }, 'partnerId'],
      [{ clinicId: idOf(clinic), partnerId: idOf(unverified) }, 'partnerId'],
      [{ clinicId: idOf(clinic), partnerId: idOf(deleted) }, 'partnerId'],
      [{ clinicId: idOf(clinic), partnerId: 2_000_000_000 }, 'partnerId'],
      [{ clinicId: 'x', partnerId: idOf(partner) }, 'clinicId'],
      [{ clinicId: idOf(clinic) }, 'partnerId'],
      [{ clinicId: -1, partnerId: idOf(partner) }, 'clinicId'],
    ];
    for (const [payload, field] of cases) {
      const response = await call(admin, 'POST', '/link', payload);
      expect(response.statusCode, JSON.stringify(payload)).toBe(400);
      const body = json<{ code: string; error: string; fields: Record<string, string> }>(response);
      expect(body.code).toBe('VALIDATION_ERROR');
      expect(Object.keys(body.fields)).toContain(field);
      expect(body.error).toBeTruthy();
    }
    expect((await call(admin, 'GET', '?clinicId=abc')).statusCode).toBe(400);
    expect((await call(admin, 'DELETE', '/link/abc')).statusCode).toBe(400);
    expect((await call(admin, 'DELETE', '/link/2000000000')).statusCode).toBe(404);
  });
});

describe('adding a partner to a case', () => {
  it('a clinic adds only its linked partners to its own case; the partner then sees it', async () => {
    const api = caseApi(t.app);
    const ownClinic = await createUser(t.app, ['clinic']);
    const linked = await createUser(t.app, ['partner']);
    const unlinked = await createUser(t.app, ['partner']);
    await link(ownClinic, linked);
    const created = await api(ownClinic, 'POST', 'new', {
      patient: { fname: 'Ana', lname: 'Lima' },
    });
    expect(created.statusCode, created.body).toBe(200);
    const caseId = objOf(created).id;
    const add = (session: Session, userId: number) =>
      api(session, 'POST', `${caseId}/users`, { userId, triggerNotification: false });

    const refused = await add(ownClinic, idOf(unlinked));
    expect(refused.statusCode).toBe(403);
    expect(codeOf(refused)).toBe('FORBIDDEN');
    // Linked to another clinic does not count.
    const foreign = await createUser(t.app, ['partner']);
    await link(otherClinic, foreign);
    expect((await add(ownClinic, idOf(foreign))).statusCode).toBe(403);
    // Only partners: a clinic does not add a doctor.
    expect((await add(ownClinic, idOf(doctor))).statusCode).toBe(403);
    // The partner did not see the case before.
    expect((await api(linked, 'GET', `${caseId}/get`)).statusCode).toBe(404);

    const added = await add(ownClinic, idOf(linked));
    expect(added.statusCode, added.body).toBe(200);
    const seen = await api(linked, 'GET', `${caseId}/get`);
    expect(seen.statusCode).toBe(200);
    expect(objOf<CaseDetail>(seen).id).toBe(caseId);

    // A supervisor may add any partner.
    expect((await add(supervisor, idOf(unlinked))).statusCode).toBe(200);
    expect((await api(unlinked, 'GET', `${caseId}/get`)).statusCode).toBe(200);
  });

  it('another clinic with the same linked partner cannot add it to a case it does not own', async () => {
    const api = caseApi(t.app);
    const shared = await createUser(t.app, ['partner']);
    await link(clinic, shared);
    await link(otherClinic, shared);
    const created = await api(clinic, 'POST', 'new', { patient: { fname: 'Rui', lname: 'Maia' } });
    const caseId = objOf(created).id;
    const response = await api(otherClinic, 'POST', `${caseId}/users`, {
      userId: idOf(shared),
      triggerNotification: false,
    });
    expect(response.statusCode).toBe(404);
  });
});
