import {
  allCaseChecksPass,
  failingCaseChecks,
  isPendingApproval,
  isServiceCovered,
  onlyPaymentFails,
  type CaseAction,
  type CaseMoveBody,
  type Currency,
} from '@dentflow/domain';
import type { DbOrTx } from '../../db/client';
import { AppError, validationError } from '../../http/app-error';
import { isoOrNull } from '../../http/envelope';
import type { CaseAccess } from './case-access.service';
import type { CaseServiceWithProduct } from './case-detail.repository';
import { applyValidation, unpaidAmountOf } from './case-lifecycle.service';
import { caseChecksOf, paymentFactsOf, type CaseCaller } from './case-rule-facts';
import { auditPaymentOverride } from './case-status-audit';
import {
  deferServicesPayment,
  insertCaseReview,
  updateCase,
  updateCaseService,
  type CaseRow,
} from './cases.repository';

/**
 * The status moves (`case/{id}/move`) as a table: for each action, the fields its body must
 * carry, and the effect it has besides the status change. The domain's `nextCaseStatus` decides
 * whether the move is allowed and where it leads; an action without an entry only moves.
 */

/** The fields a move's body lacks (answered 400 before the case is touched). */
type MissingFields = (body: CaseMoveBody, text: string) => Record<string, string>;

export const MOVE_REQUIRED_FIELDS: Partial<Record<CaseAction, MissingFields>> = {
  approve: (body, text) => {
    const fields: Record<string, string> = {};
    if (!body.password) fields.password = 'validation.required';
    if (!text) fields.text = 'validation.required';
    if (!body.serviceIds?.length) fields.serviceIds = 'validation.required';
    return fields;
  },
  requestModification: (_body, text): Record<string, string> =>
    text ? {} : { text: 'validation.required' },
};

/** What a move's effect works on: the case, locked in the move's transaction, and the request. */
export interface CaseMove {
  tx: DbOrTx;
  caller: CaseCaller;
  access: CaseAccess;
  caseId: number;
  row: CaseRow;
  services: readonly CaseServiceWithProduct[];
  body: CaseMoveBody;
  /** The body's text, trimmed. */
  text: string;
  now: Date;
  /** The history row's detail: an effect adds what it did. */
  detail: Record<string, unknown>;
}

/** A move's effect; 'stay' keeps the case in its status (the history row is written anyway). */
type MoveEffect = (move: CaseMove) => Promise<'stay' | void>;

export const MOVE_EFFECTS: Partial<Record<CaseAction, MoveEffect>> = {
  async validate({ tx, caller, caseId, row, services, body, now, detail }) {
    const checks = await caseChecksOf(tx, row, services);
    const override = body.paymentOverride;
    if (!allCaseChecksPass(checks)) {
      // Unpaid services are validated only on purpose: a supervisor names a reason.
      if (!override || !onlyPaymentFails(checks)) {
        throw new AppError(
          409,
          'CASE_CHECKS_FAILED',
          Object.fromEntries(
            failingCaseChecks(checks).map((key) => [`checks.${key}`, 'validation.invalid']),
          ),
        );
      }
      const deferred = services.filter((s) => checks.unpaidServiceIds.includes(s.id));
      await deferServicesPayment(
        tx,
        deferred.map((s) => s.id),
        { at: now, by: caller.userId, reason: override.reason },
      );
      const paymentOverride = {
        reason: override.reason,
        serviceIds: deferred.map((s) => s.id),
        unpaidAmount: await unpaidAmountOf(tx, deferred, row.caseCurrency as Currency),
        currency: row.caseCurrency,
      };
      await auditPaymentOverride(tx, {
        caseId,
        actorId: caller.userId,
        ip: caller.ip,
        ...paymentOverride,
      });
      detail.paymentOverride = paymentOverride;
    }
    Object.assign(detail, await applyValidation(tx, caseId, services, now));
  },

  async requestApproval({ tx, caller, access, services, now, detail }) {
    // Services not paid yet (an upgrade awaiting payment) are not planned or approved.
    const mine = services.filter(
      (s) =>
        s.approveAt === null &&
        (access.relation === 'staff' || s.plannerId === caller.userId) &&
        isServiceCovered(paymentFactsOf(s)),
    );
    if (mine.length === 0) throw new AppError(409, 'INVALID_TRANSITION');
    for (const s of mine) await updateCaseService(tx, s.id, { approveRequestAt: now });
    detail.serviceIds = mine.map((s) => s.id);
  },

  async approve({ tx, services, body, now, detail }) {
    const chosen = body.serviceIds ?? [];
    const pending = new Map(
      services
        .filter((s) =>
          isPendingApproval({
            approveRequestAt: isoOrNull(s.approveRequestAt),
            approveAt: isoOrNull(s.approveAt),
          }),
        )
        .map((s) => [s.id, s]),
    );
    if (!chosen.every((id) => pending.has(id))) {
      throw validationError({ serviceIds: 'validation.invalid' });
    }
    for (const id of chosen) await updateCaseService(tx, id, { approveAt: now });
    detail.serviceIds = chosen;
    // The case leaves 'approve' only when every service is approved (docs/decisions/011):
    // one still to be requested (planned later, or ordered and not paid yet) keeps it.
    const approved = new Set(chosen);
    if (services.some((s) => s.approveAt === null && !approved.has(s.id))) return 'stay';
  },

  async requestModification({ tx, caller, caseId, text, now }) {
    await insertCaseReview(tx, {
      caseId,
      reasonId: null,
      description: text,
      createdBy: caller.userId,
      createdAt: now,
    });
  },

  async finish({ tx, caseId, now }) {
    await updateCase(tx, caseId, { finishAt: now });
  },
};
