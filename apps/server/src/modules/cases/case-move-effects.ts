import {
  allCaseChecksPass,
  failingCaseChecks,
  isPendingApproval,
  isServiceCovered,
  onlyPaymentFails,
  type CaseAction,
  type CaseMoveBody,
  type Currency,
  type Language,
} from '@dentflow/domain';
import type { DbOrTx } from '../../db/client';
import { AppError, validationError } from '../../http/app-error';
import { isoOrNull } from '../../http/envelope';
import type { CaseAccess } from './case-access.service';
import { listCaseServices, type CaseServiceWithProduct } from './case-detail.repository';
import { applyValidation, unpaidAmountOf } from './case-lifecycle.service';
import { caseChecksOf, paymentFactsOf, type CaseCaller } from './case-rule-facts';
import { auditPaymentOverride } from './case-status-audit';
import {
  deferServicesPayment,
  findPatientName,
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

/** What the approval record of an `approve` move is made of (decision 028). */
export interface ApprovalInput {
  caseId: number;
  ownerId: number;
  approverId: number;
  /** The request's language: the record's when the owner's is unknown. */
  approverLanguage: Language;
  /** The client address, as audit rows record it. */
  address: string;
  text: string;
  at: Date;
  patientName: string;
  /** The approved services with their names in a language (the record's). */
  servicesIn(language: Language): Promise<{ id: number; name: string }[]>;
}

/**
 * The port through which the approvals module records an approval inside the move's
 * transaction: it sits above cases (it reads the case's files and access), so it is passed in
 * when the app is composed.
 */
export interface ApprovalRecorder {
  /** Before the transaction: the slow part (hashing files stored before hashes were kept). */
  prepare(caseId: number): Promise<void>;
  /** In the move's transaction; answers what the history row links to. */
  record(
    tx: DbOrTx,
    input: ApprovalInput,
  ): Promise<{ approvalId: number; certificateCode: string }>;
}

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
  language: Language;
  approvals: ApprovalRecorder | null;
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

  async approve(move) {
    const { tx, services, body, now, detail } = move;
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
    if (move.approvals) {
      const { approvalId, certificateCode } = await move.approvals.record(tx, {
        caseId: move.caseId,
        ownerId: move.row.ownerId,
        approverId: move.caller.userId,
        approverLanguage: move.language,
        address: move.caller.ip ?? '',
        text: move.text,
        at: now,
        patientName: await findPatientName(tx, move.row.patientId),
        servicesIn: async (language) =>
          (await listCaseServices(tx, move.caseId, language))
            .filter((s) => chosen.includes(s.id))
            .map((s) => ({ id: s.id, name: s.productName })),
      });
      // The history links to the certificate (docs/decisions/028).
      Object.assign(detail, { approvalId, certificateCode });
    }
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
