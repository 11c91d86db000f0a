import {
  REVIEW_REASONS,
  canMovePayment,
  type PaymentChangeCause,
  type PaymentStatus,
} from '@dentflow/domain';
import type { CaseEventMessage } from '../../adapters/events/case-events';
import type { DbOrTx } from '../../db/client';
import { AppError } from '../../http/app-error';
import { writeAudit } from '../audit';
import { recordCaseActivity, advancePaidCase, refreshCaseDerived } from '../cases';
import {
  hasOpenPaymentReview,
  insertPaymentReview,
  markServicesPaid,
  solvePaymentReviews,
  updateTransaction,
  type TransactionPatch,
  type TransactionRow,
} from './payments.repository';

/** A change's time: after the case's stored `modifiedAt`, so clients see the change. */
export const stampAfter = (previous: Date) =>
  new Date(Math.max(Date.now(), previous.getTime() + 1));

/** The reviews a confirmed payment ends: the staff work they asked for is done. */
const CONFIRMATION_REVIEWS = [
  REVIEW_REASONS.pixApproval,
  REVIEW_REASONS.receiptPendingApproval,
  REVIEW_REASONS.physicalCardApproval,
];

/**
 * Writes what happened to a transaction — one audit row and one case history row (`payment`) in
 * the caller's database transaction — and answers the message to publish after commit. Every row
 * names the transaction's total and currency, so the history can say how much it was about.
 */
export async function recordTransactionChange(
  tx: DbOrTx,
  t: Pick<TransactionRow, 'id' | 'caseId' | 'priceTotal' | 'currency'>,
  change: {
    action: string;
    actorId: number | null;
    now: Date;
    detail?: Record<string, unknown>;
  },
): Promise<CaseEventMessage> {
  const detail = {
    transactionId: t.id,
    change: change.action,
    total: t.priceTotal,
    currency: t.currency,
    ...change.detail,
  };
  await writeAudit(tx, {
    actorUserId: change.actorId,
    action: `transaction.${change.action}`,
    entity: 'transaction',
    entityId: t.id,
    details: detail,
  });
  const event = {
    caseId: t.caseId,
    actorId: change.actorId,
    action: 'payment',
    fromStatus: null,
    toStatus: null,
    detail,
  };
  const recorded = await recordCaseActivity(tx, event);
  return { ...event, detail: recorded.detail, at: change.now };
}

/** Opens a payment review on the transaction's case unless the same one is open already. */
export async function openPaymentReview(
  tx: DbOrTx,
  t: Pick<TransactionRow, 'id' | 'caseId'>,
  reasonId: number,
  now: Date,
): Promise<void> {
  if (await hasOpenPaymentReview(tx, t.id, reasonId)) return;
  await insertPaymentReview(tx, { caseId: t.caseId, transactionId: t.id, reasonId, at: now });
}

/**
 * One move of a transaction's payment status with everything it implies, in the caller's database
 * transaction with the case row locked: the services count as paid once paid or pre-paid; a
 * confirmed payment solves its approval reviews; money going back or disputed opens 'payment
 * issue'; audit and history rows; then the case moves to `execute` when it is now settled.
 * Refuses (409) a move the domain's status machine does not allow for this cause.
 */
export async function applyPaymentStatus(
  tx: DbOrTx,
  t: TransactionRow,
  to: PaymentStatus,
  options: {
    cause: PaymentChangeCause;
    actorId: number | null;
    now: Date;
    patch?: TransactionPatch;
    detail?: Record<string, unknown>;
  },
): Promise<CaseEventMessage[]> {
  const from = t.paymentStatus as PaymentStatus;
  if (!canMovePayment(from, to, options.cause)) throw new AppError(409, 'TRANSACTION_STATE');
  const { now, actorId } = options;
  await updateTransaction(tx, t.id, {
    ...options.patch,
    paymentStatus: to,
    modifiedAt: now,
    paidAt: to === 'paid' ? (t.paidAt ?? now) : t.paidAt,
  });
  if (to === 'paid' || to === 'pre_paid') await markServicesPaid(tx, t.id, now);
  if (to === 'paid') await solvePaymentReviews(tx, t.id, CONFIRMATION_REVIEWS, actorId, now);
  if (to === 'returned' || to === 'in_dispute') {
    await openPaymentReview(tx, t, REVIEW_REASONS.paymentIssue, now);
  }
  const messages = [
    await recordTransactionChange(tx, t, {
      action: 'status',
      actorId,
      now,
      detail: { from, to, cause: options.cause, ...options.detail },
    }),
  ];
  await refreshCaseDerived(tx, t.caseId, now);
  messages.push(...(await advancePaidCase(tx, t.caseId, actorId, now)));
  return messages;
}
