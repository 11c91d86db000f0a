import type { DbOrTx } from '../../db/client';
import { writeAudit, type AuditEntry } from '../audit';
import { updateCase } from './cases.repository';

/** A change of a case's status or archive flag, as the audit log keeps it. */
export interface CaseStatusChange {
  caseId: number;
  /** Null for automatic changes (a payment confirmed by the provider, a periodic job). */
  actorId: number | null;
  /** What caused it: a case action (`validate`, `archived`…), `checkout` or `payment`. */
  cause: string;
  from: string;
  to: string;
  archived?: boolean;
  ip?: string | null | undefined;
}

/**
 * Every change of case status writes an audit row, in the transaction
 * of the change; before and after are the status (and the archive flag when it changed).
 */
export async function auditCaseStatus(tx: DbOrTx, change: CaseStatusChange): Promise<void> {
  await writeAudit(tx, caseStatusAuditEntry(change));
}

/** `auditCaseStatus`'s row, for a write that sends it as its CTE (one statement for both). */
export function caseStatusAuditEntry(change: CaseStatusChange): AuditEntry {
  const archivedChanged = change.archived !== undefined;
  return {
    actorUserId: change.actorId,
    action: 'case.status',
    entity: 'case',
    entityId: change.caseId,
    details: {
      cause: change.cause,
      before: {
        caseStatus: change.from,
        ...(archivedChanged ? { archived: !change.archived } : {}),
      },
      after: { caseStatus: change.to, ...(archivedChanged ? { archived: change.archived } : {}) },
    },
    ip: change.ip ?? null,
  };
}

/**
 * A supervisor validated unpaid services (bill later): who, why, which services and what they
 * would cost, in the transaction of the validation.
 */
export function auditPaymentOverride(
  tx: DbOrTx,
  override: {
    caseId: number;
    actorId: number;
    ip?: string | null | undefined;
    reason: string;
    serviceIds: number[];
    unpaidAmount: number;
    currency: string;
  },
): Promise<void> {
  const { caseId, actorId, ip, ...details } = override;
  return writeAudit(tx, {
    actorUserId: actorId,
    action: 'case.paymentOverride',
    entity: 'case',
    entityId: caseId,
    details,
    ip: ip ?? null,
  });
}

/**
 * Another feature (checkout, a new transaction) moving a broad-'new' case to `checkingout`: the
 * status and its audit row; the caller's `refreshCaseDerived` brings the list group in step.
 */
export async function moveToCheckingOut(
  tx: DbOrTx,
  change: Omit<CaseStatusChange, 'to' | 'archived'>,
): Promise<void> {
  if (change.from === 'checkingout') return;
  await updateCase(tx, change.caseId, { caseStatus: 'checkingout' });
  await auditCaseStatus(tx, { ...change, to: 'checkingout' });
}
