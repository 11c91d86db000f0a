import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  CASE_ACTIONS,
  caseDeadline,
  nextCaseStatus,
  type CaseAction,
  type CaseDetail,
  type CaseEvent,
} from '@dentflow/domain';
import {
  caseApi,
  FIXTURE_STATUSES,
  caseInStatus,
  codeOf,
  completeServiceData,
  createUser,
  demoSessions,
  objOf,
  type CaseSetup,
  VALIDATE_BILLED_LATER,
  speakEnglish,
  caseSetup,
} from './support/cases-fixtures';
import { json, startTestApp, type Session, type TestApp } from './support/test-app';

let t: TestApp;
let api: ReturnType<typeof caseApi>;
let s: Awaited<ReturnType<typeof demoSessions>>;
let setup: CaseSetup;

beforeAll(async () => {
  t = await startTestApp();
  api = caseApi(t.app);
  await speakEnglish(t.app, 'doctor');
  s = await demoSessions(t.app);
  setup = caseSetup(t.app, s);
});
afterAll(async () => {
  await t?.close();
});

const STATUSES = FIXTURE_STATUSES;

const get = async (session: Session, id: number) => objOf(await api(session, 'GET', `${id}/get`));
const history = async (id: number) =>
  objOf<CaseEvent[]>(await api(s.supervisor, 'GET', `${id}/history`));

/** The actor allowed to attempt each move, and the body it sends. */
async function attempt(action: CaseAction, id: number) {
  const detail = await get(s.supervisor, id);
  const actor: Record<CaseAction, Session> = {
    submit: s.doctor,
    validate: s.supervisor,
    // Staff may; the demo planner sees the case only once planner of it.
    requestApproval: s.supervisor,
    approve: s.doctor,
    requestModification: s.doctor,
    startPrint: s.supervisor,
    finish: s.supervisor,
    close: s.doctor,
    backToNew: s.doctor,
    cancel: s.doctor,
  };
  const body: Record<string, unknown> = { action };
  if (action === 'approve') {
    Object.assign(body, {
      password: 'Dentflow123',
      text: 'ok',
      serviceIds: detail.services.map((x) => x.id),
    });
  }
  if (action === 'requestModification') body.text = 'Please move implant 36';
  if (action === 'validate') Object.assign(body, VALIDATE_BILLED_LATER);
  return api(actor[action], 'POST', `${id}/move`, body);
}

describe('every action from every status: allowed, or 409 with nothing changed', () => {
  for (const status of STATUSES) {
    it(`from ${status}`, async () => {
      const refusedOn = await caseInStatus(setup, status);
      for (const action of CASE_ACTIONS) {
        const to = nextCaseStatus(status, action, { hasPrintableService: true, checksPass: true });
        if (to === null) {
          const before = await get(s.supervisor, refusedOn);
          const events = (await history(refusedOn)).length;
          const response = await attempt(action, refusedOn);
          expect(response.statusCode, `${action}`).toBe(409);
          expect(codeOf(response)).toBe('INVALID_TRANSITION');
          const after = await get(s.supervisor, refusedOn);
          expect(after.modifiedAt).toBe(before.modifiedAt);
          expect(after.caseStatus).toBe(status);
          expect((await history(refusedOn)).length).toBe(events);
        } else {
          const id = await caseInStatus(setup, status);
          const response = await attempt(action, id);
          expect(response.statusCode, `${action}: ${response.body}`).toBe(200);
          expect(objOf(response).caseStatus, action).toBe(to);
          const last = (await history(id)).at(-1)!;
          expect(last).toMatchObject({ action, fromStatus: status, toStatus: to });
        }
      }
    }, 60_000);
  }
});

describe('a role or relation that may not: 403, nothing changed', () => {
  it.each([
    ['submit', 'planner', 'execute'],
    ['validate', 'doctor', 'checkingout'],
    ['requestApproval', 'doctor', 'execute'],
    ['approve', 'admin', 'approve'],
    ['approve', 'supervisor', 'approve'],
    ['requestModification', 'planner', 'approve'],
    ['startPrint', 'doctor', 'finishing'],
    ['finish', 'doctor', 'print'],
    ['close', 'planner', 'finished'],
    ['backToNew', 'printer', 'finishing'],
    ['cancel', 'planner', 'execute'],
    ['submit', 'instructor', 'new'],
  ] as const)('%s by %s (case in %s)', async (action, who, status) => {
    const id = await caseInStatus(setup, status);
    const before = await get(s.supervisor, id);
    const response = await api(s[who], 'POST', `${id}/move`, {
      action,
      password: 'Dentflow123',
      text: 'x',
      serviceIds: before.services.map((x) => x.id),
    });
    expect(response.statusCode).toBe(403);
    expect(codeOf(response)).toBe('FORBIDDEN');
    expect((await get(s.supervisor, id)).modifiedAt).toBe(before.modifiedAt);
  });

  it('a planner who is not the case’s planner cannot request approval', async () => {
    const id = await caseInStatus(setup, 'execute');
    // Added as a case user: sees the case, but is not its planner.
    const other = await createUser(t.app, ['planner']);
    await api(s.supervisor, 'POST', `${id}/users`, {
      userId: other.profile.id,
      triggerNotification: true,
    });
    const response = await api(other, 'POST', `${id}/move`, { action: 'requestApproval' });
    expect(response.statusCode).toBe(403);
  });
});

describe('approve', () => {
  it('wrong password: 400 WRONG_PASSWORD, nothing changed', async () => {
    const id = await caseInStatus(setup, 'approve');
    const before = await get(s.doctor, id);
    const response = await api(s.doctor, 'POST', `${id}/move`, {
      action: 'approve',
      password: 'Wrong-password1',
      text: 'ok',
      serviceIds: before.services.map((x) => x.id),
    });
    expect(response.statusCode).toBe(400);
    expect(codeOf(response)).toBe('WRONG_PASSWORD');
    const after = await get(s.doctor, id);
    expect(after.caseStatus).toBe('approve');
    expect(after.modifiedAt).toBe(before.modifiedAt);
    expect(after.services.every((x) => x.approveAt === null)).toBe(true);
  });

  it('missing password, text or services: 400 with the fields', async () => {
    const id = await caseInStatus(setup, 'approve');
    const response = await api(s.doctor, 'POST', `${id}/move`, { action: 'approve' });
    expect(response.statusCode).toBe(400);
    const body = json<{ code: string; fields: Record<string, string> }>(response);
    expect(body.code).toBe('VALIDATION_ERROR');
    expect(Object.keys(body.fields).sort()).toEqual(['password', 'serviceIds', 'text']);
    expect(body.fields.password).toBe('This field is required');
    const tooLong = await api(s.doctor, 'POST', `${id}/move`, {
      action: 'approve',
      password: 'Dentflow123',
      text: 'x'.repeat(101),
      serviceIds: [1],
    });
    expect(tooLong.statusCode).toBe(400);
    expect((await get(s.doctor, id)).caseStatus).toBe('approve');
  });

  it('a service that is not pending approval: 400', async () => {
    const id = await caseInStatus(setup, 'approve');
    const response = await api(s.doctor, 'POST', `${id}/move`, {
      action: 'approve',
      password: 'Dentflow123',
      text: 'ok',
      serviceIds: [987654],
    });
    expect(response.statusCode).toBe(400);
    expect(json<{ fields: Record<string, string> }>(response).fields).toHaveProperty('serviceIds');
  });

  it('right password: approves the chosen services; the case moves on when none is pending', async () => {
    const id = await caseInStatus(setup, 'new');
    const combo = objOf(
      await api(s.doctor, 'POST', `${id}/services/add`, {
        productId: (await get(s.doctor, id)).services[0]!.productId,
      }),
    );
    // Two services now; fill the new one and go to approve.
    for (const x of combo.services) {
      await api(s.doctor, 'POST', `${id}/services/${x.id}/data`, {
        dataVersion: 3,
        data: completeServiceData(),
      });
    }
    await api(s.doctor, 'POST', `${id}/move`, { action: 'submit' });
    await api(s.supervisor, 'POST', `${id}/planner`, { plannerId: s.planner.profile.id });
    await api(s.supervisor, 'POST', `${id}/move`, VALIDATE_BILLED_LATER);
    const asked = objOf(await api(s.planner, 'POST', `${id}/move`, { action: 'requestApproval' }));
    expect(asked.services.every((x) => x.approveRequestAt !== null)).toBe(true);
    const [first, second] = asked.services;
    const one = objOf(
      await api(s.doctor, 'POST', `${id}/move`, {
        action: 'approve',
        password: 'Dentflow123',
        text: 'first',
        serviceIds: [first!.id],
      }),
    );
    expect(one.caseStatus).toBe('approve');
    expect(one.actions).toContain('approve');
    const two = objOf(
      await api(s.doctor, 'POST', `${id}/move`, {
        action: 'approve',
        password: 'Dentflow123',
        text: 'second',
        serviceIds: [second!.id],
      }),
    );
    expect(two.caseStatus).toBe('finishing');
    expect(two.services.every((x) => x.approveAt !== null)).toBe(true);
  });

  it('request modification needs a text and opens a review', async () => {
    const id = await caseInStatus(setup, 'approve');
    const empty = await api(s.doctor, 'POST', `${id}/move`, {
      action: 'requestModification',
      text: '  ',
    });
    expect(empty.statusCode).toBe(400);
    const done = objOf(
      await api(s.doctor, 'POST', `${id}/move`, { action: 'requestModification', text: 'Move 36' }),
    );
    expect(done.caseStatus).toBe('execute');
    expect(done.caseReview).toBe(true);
    expect(done.reviews.at(-1)).toMatchObject({ description: 'Move 36', solvedAt: null });
  });
});

describe('two concurrent moves of one case', () => {
  it('exactly one wins, the other gets 409', async () => {
    for (let round = 0; round < 4; round += 1) {
      const id = await caseInStatus(setup, 'new');
      const responses = await Promise.all([
        api(s.doctor, 'POST', `${id}/move`, { action: 'submit' }),
        api(s.supervisor, 'POST', `${id}/move`, { action: 'submit' }),
        api(s.doctor, 'POST', `${id}/move`, { action: 'submit' }),
      ]);
      const codes = responses.map((r) => r.statusCode).sort();
      expect(codes).toEqual([200, 409, 409]);
      expect((await history(id)).filter((e) => e.action === 'submit')).toHaveLength(1);
    }
  });

  it('a save and a move at once: serialized, a save never lands on a move it had not seen', async () => {
    const id = await caseInStatus(setup, 'new');
    const { modifiedAt } = await get(s.doctor, id);
    const [moved, saved] = await Promise.all([
      // Submit keeps the case broad 'new', so the owner could still edit it.
      api(s.doctor, 'POST', `${id}/move`, { action: 'submit' }),
      api(s.doctor, 'POST', `${id}/set`, { modifiedAt, observation: 'changed' }),
    ]);
    // The move needs no modifiedAt: it always succeeds. The save succeeds only when it took the
    // row lock first (then the history shows it before the submit); otherwise it is stale.
    expect(moved.statusCode).toBe(200);
    const actions = (await history(id)).map((event) => event.action);
    const after = await get(s.doctor, id);
    expect(after.caseStatus).toBe('checkingout');
    if (saved.statusCode === 200) {
      expect(after.observation).toBe('changed');
      expect(actions.lastIndexOf('updated')).toBeLessThan(actions.lastIndexOf('submit'));
    } else {
      expect(saved.statusCode).toBe(409);
      expect(codeOf(saved)).toBe('CASE_CHANGED');
      expect(after.observation).not.toBe('changed');
    }
  });

  it('two saves from the same read: exactly one wins', async () => {
    const id = await caseInStatus(setup, 'new');
    const { modifiedAt } = await get(s.doctor, id);
    const results = await Promise.all(
      ['first', 'second'].map((observation) =>
        api(s.doctor, 'POST', `${id}/set`, { modifiedAt, observation }),
      ),
    );
    expect(results.map((r) => r.statusCode).sort()).toEqual([200, 409]);
  });
});

describe('archive', () => {
  it('only finished, closed or cancelled cases; frozen while archived; un-archive', async () => {
    const working = await caseInStatus(setup, 'execute');
    const early = await api(s.doctor, 'POST', `${working}/archive`);
    expect(early.statusCode).toBe(409);
    expect(codeOf(early)).toBe('INVALID_TRANSITION');

    const id = await caseInStatus(setup, 'finished');
    expect((await api(s.planner, 'POST', `${id}/archive`)).statusCode).toBe(403);
    const archived = objOf(await api(s.doctor, 'POST', `${id}/archive`));
    expect(archived).toMatchObject({ caseArchived: true, actions: [], can: ['unarchive'] });
    const again = await api(s.doctor, 'POST', `${id}/archive`);
    expect(again.statusCode).toBe(409);

    const frozen = await api(s.doctor, 'POST', `${id}/move`, { action: 'close' });
    expect(frozen.statusCode).toBe(409);
    expect(codeOf(frozen)).toBe('CASE_ARCHIVED');
    const review = await api(s.supervisor, 'POST', `${id}/review`, { description: 'x' });
    expect(review.statusCode).toBe(409);

    const restored = objOf(await api(s.doctor, 'POST', `${id}/unarchive`));
    expect(restored).toMatchObject({ caseArchived: false, caseStatus: 'finished' });
    expect((await api(s.doctor, 'POST', `${id}/unarchive`)).statusCode).toBe(409);
    expect((await history(id)).slice(-2).map((e) => e.action)).toEqual(['archived', 'unarchived']);
  });
});

describe('validate', () => {
  it('names the failing checks and changes nothing', async () => {
    const id = await caseInStatus(setup, 'new');
    const detail = await get(s.doctor, id);
    await api(s.doctor, 'POST', `${id}/services/${detail.services[0]!.id}/data`, {
      dataVersion: 3,
      data: { ...(detail.services[0]!.data as object), terms: { checked: false } },
    });
    await api(s.doctor, 'POST', `${id}/move`, { action: 'submit' });
    const before = await get(s.supervisor, id);
    expect(before.actions).not.toContain('validate');
    const response = await api(s.supervisor, 'POST', `${id}/move`, { action: 'validate' });
    expect(response.statusCode).toBe(409);
    const body = json<{ code: string; fields: Record<string, string> }>(response);
    expect(body.code).toBe('CASE_CHECKS_FAILED');
    expect(Object.keys(body.fields)).toEqual(['checks.services', 'checks.transactions']);
    expect((await get(s.supervisor, id)).modifiedAt).toBe(before.modifiedAt);
  });

  it('sets the deadline from the largest manufacture time in business days', async () => {
    const id = await caseInStatus(setup, 'execute');
    const detail: CaseDetail = await get(s.supervisor, id);
    const validate = (await history(id)).find((e) => e.action === 'validate')!;
    expect(detail.deadlineAt).toBe(
      caseDeadline(
        new Date(validate.at),
        detail.services.map((x) => x.manufactureTime),
      ).toISOString(),
    );
  });
});
