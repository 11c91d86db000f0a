import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  REVIEW_REASONS,
  type CaseDetail,
  type CasePage,
  type PendingTransaction,
  type ReviewReasonKey,
} from '@dentflow/domain';
import {
  caseApi,
  caseInStatus,
  codeOf,
  createUser,
  demoSessions,
  objOf,
  type CaseSetup,
  caseSetup,
} from './support/cases-fixtures';
import { grantCapabilities, placeOrder, txCall } from './support/payments-fixtures';
import { json, startTestApp, type Session, type TestApp } from './support/test-app';

/**
 * Who closes a review ('problem solved'), by role and relation × reason: the domain's
 * `maySolveReview` through `POST /case/{id}/review/{reviewId}/solve`, and the case answer's
 * `canSolve` agreeing with it for every caller.
 */
let t: TestApp;
let api: ReturnType<typeof caseApi>;
let s: Awaited<ReturnType<typeof demoSessions>>;
let owner: Session;
/** A planner who is a case user of the case but plans none of its services. */
let memberPlanner: Session;
/** Another doctor: the case is hidden from them. */
let otherDoctor: Session;
/** checkingout, planned by the demo planner; `memberPlanner` added as a case user. */
let caseId: number;

beforeAll(async () => {
  t = await startTestApp();
  api = caseApi(t.app);
  s = await demoSessions(t.app);
  [owner, memberPlanner, otherDoctor] = await Promise.all([
    createUser(t.app, ['doctor'], { language: 'ptBR' }),
    createUser(t.app, ['planner']),
    createUser(t.app, ['doctor']),
  ]);
  const setup: CaseSetup = caseSetup(t.app, s, owner);
  caseId = await caseInStatus(setup, 'checkingout');
  const planned = await api(s.supervisor, 'POST', `${caseId}/planner`, {
    plannerId: s.planner.profile.id,
  });
  expect(planned.statusCode, planned.body).toBe(200);
  const member = await api(s.supervisor, 'POST', `${caseId}/users`, {
    userId: memberPlanner.profile.id,
    triggerNotification: false,
  });
  expect(member.statusCode, member.body).toBe(200);
}, 60_000);

afterAll(async () => {
  await t?.close();
});

/** A supervisor opens a review on the case: with a staff reason, or a free one (null). */
async function openReview(reason: ReviewReasonKey | null, id = caseId): Promise<number> {
  const opened = await api(s.supervisor, 'POST', `${id}/review`, {
    description: 'Please check',
    ...(reason ? { reasonId: REVIEW_REASONS[reason] } : {}),
  });
  expect(opened.statusCode, opened.body).toBe(200);
  return objOf(opened).reviews.at(-1)!.id;
}

const solve = (who: Session, reviewId: number, id = caseId) =>
  api(who, 'POST', `${id}/review/${reviewId}/solve`);

const reviewOf = async (reviewId: number, who: Session = s.supervisor) =>
  objOf<CaseDetail>(await api(who, 'GET', `${caseId}/get`)).reviews.find((r) => r.id === reviewId);

const ALL: (ReviewReasonKey | null)[] = [
  null,
  ...(Object.keys(REVIEW_REASONS) as ReviewReasonKey[]),
];

type Actor = 'owner' | 'planner' | 'memberPlanner' | 'supervisor' | 'admin' | 'otherDoctor';
const sessionOf = (actor: Actor): Session =>
  ({
    owner,
    planner: s.planner,
    memberPlanner,
    supervisor: s.supervisor,
    admin: s.admin,
    otherDoctor,
  })[actor];

/** actor → the reasons they may close (null: a free review); every other reason is refused. */
const MAY_SOLVE: Record<Exclude<Actor, 'otherDoctor'>, (ReviewReasonKey | null)[]> = {
  owner: [null],
  planner: ['plannerNotSet', 'planningDeadlineNear'],
  memberPlanner: [],
  supervisor: ALL,
  admin: ALL,
};

describe('solving a review by role and relation × reason', () => {
  for (const [actor, allowed] of Object.entries(MAY_SOLVE) as [
    Exclude<Actor, 'otherDoctor'>,
    (ReviewReasonKey | null)[],
  ][]) {
    for (const reason of ALL) {
      const may = allowed.includes(reason);
      it(`${actor} on ${reason ?? 'a free review'}: ${may ? '200' : '403'}`, async () => {
        const reviewId = await openReview(reason);
        const who = sessionOf(actor);
        expect((await reviewOf(reviewId, who))?.canSolve).toBe(may);
        const response = await solve(who, reviewId);
        if (may) {
          expect(response.statusCode, response.body).toBe(200);
          const solved = objOf(response).reviews.find((r) => r.id === reviewId)!;
          expect(solved).toMatchObject({ solvedBy: { id: who.profile.id }, canSolve: false });
        } else {
          expect(response.statusCode, response.body).toBe(403);
          expect(codeOf(response)).toBe('FORBIDDEN');
          expect((await reviewOf(reviewId))?.solvedAt).toBeNull();
          // Staff close what the caller could not.
          expect((await solve(s.supervisor, reviewId)).statusCode).toBe(200);
        }
      });
    }
  }

  it('another doctor gets 404 for any review, like a missing case', async () => {
    for (const reason of [null, 'paymentIssue'] as const) {
      const reviewId = await openReview(reason);
      const response = await solve(otherDoctor, reviewId);
      expect(response.statusCode).toBe(404);
      expect(codeOf(response)).toBe('NOT_FOUND');
      expect((await reviewOf(reviewId))?.solvedAt).toBeNull();
      expect((await solve(s.supervisor, reviewId)).statusCode).toBe(200);
    }
  });

  it('a review that is missing, of another case or already solved answers 404', async () => {
    const reviewId = await openReview('plannerNotSet');
    expect((await solve(s.supervisor, 999_999)).statusCode).toBe(404);
    const other = await caseInStatus(
      { app: t.app, owner, supervisor: s.supervisor, planner: s.planner, printer: s.printer },
      'new',
    );
    expect((await solve(s.supervisor, reviewId, other)).statusCode).toBe(404);
    expect((await solve(s.supervisor, reviewId)).statusCode).toBe(200);
    expect((await solve(s.supervisor, reviewId)).statusCode).toBe(404);
  });
});

describe("a payment issue is staff's", () => {
  it("stays open and queued after the owner's refused attempt; solved by staff it no longer holds the case", async () => {
    const payer = await createUser(t.app, ['doctor'], { language: 'ptBR' });
    await grantCapabilities(t.app.database.db, payer.profile.id);
    const call = txCall(t.app);
    const { caseId: paidCase, transactionId } = await placeOrder(t.app, payer, 'physical', {
      complete: false,
    });
    // The card machine payment was not received (payment issue), then confirmed: the issue
    // stays open for a person to settle, so it is the only thing the queue holds it for.
    const flagged = await call(s.admin, 'POST', `${transactionId}/checkPhysicalPayment`, {
      confirm: false,
    });
    expect(flagged.statusCode, flagged.body).toBe(200);
    const confirmed = await call(s.admin, 'POST', `${transactionId}/checkPhysicalPayment`, {
      confirm: true,
    });
    expect(confirmed.statusCode, confirmed.body).toBe(200);
    const queued = async () =>
      json<{ obj: PendingTransaction[] }>(
        await call(s.supervisor, 'GET', '/api/v1/transactions/pending'),
      ).obj.find((p) => p.transaction.id === transactionId)?.waitingFor;
    expect(await queued()).toBe('paymentIssue');

    const seen = objOf(await api(payer, 'GET', `${paidCase}/get`));
    expect(seen.caseReview).toBe(true);
    const issue = seen.reviews.find(
      (r) => r.reasonId === REVIEW_REASONS.paymentIssue && r.solvedAt === null,
    )!;
    expect(issue.canSolve).toBe(false);
    const refused = await solve(payer, issue.id, paidCase);
    expect(refused.statusCode).toBe(403);
    expect(codeOf(refused)).toBe('FORBIDDEN');
    expect(await queued()).toBe('paymentIssue');
    expect(objOf(await api(payer, 'GET', `${paidCase}/get`)).caseReview).toBe(true);

    const solved = await solve(s.supervisor, issue.id, paidCase);
    expect(solved.statusCode, solved.body).toBe(200);
    expect(await queued()).toBeUndefined();
    const after = objOf(await api(payer, 'GET', `${paidCase}/get`));
    expect(after.caseReview).toBe(false);
    const listed = objOf<CasePage>(await api(payer, 'GET', 'list/new/0?pageSize=100'));
    expect(listed.items.find((item) => item.id === paidCase)?.review).toBe(false);
  });
});
