import { isOneOf } from '../common/one-of';
import { transactionRelation } from '../payments/transaction-permissions';
import type { CaseProductionAction } from './case-production';
import { isBroadNew } from './case-status';

/** The tabs of the case page, in their order. */
export const CASE_TABS = [
  'general',
  'attachments',
  'chat',
  'users',
  'transactions',
  'production',
  'history',
] as const;
export type CaseTab = (typeof CASE_TABS)[number];

export const isCaseTab = (value: unknown): value is CaseTab => isOneOf(CASE_TABS, value);

/**
 * The tabs a viewer may use on a case: a tab whose calls would refuse them is not shown.
 * Transactions: whoever sees the case's transactions (`transactionRelation` — staff and the
 * owner; planners, printers, members, partners and instructors never do). Production: whoever
 * may read the production sheet (`productionActions` holds 'productionSheet'). Everyone who sees
 * the case uses the others.
 */
export function caseTabsFor(
  viewer: { userId: number; roles: readonly string[] },
  kase: {
    ownerId: number;
    productionActions: readonly CaseProductionAction[];
  },
): CaseTab[] {
  const seesTransactions =
    transactionRelation(viewer, { payerId: kase.ownerId, caseOwnerId: kase.ownerId }) !== null;
  const readsProduction = kase.productionActions.includes('productionSheet');
  return CASE_TABS.filter(
    (tab) =>
      (tab !== 'transactions' || seesTransactions) && (tab !== 'production' || readsProduction),
  );
}

/**
 * Why a case's data can no longer be changed on the case page, or null while it is open to
 * inputs (broad 'new'): planning, approval, finishing and print are in progress; a cancelled case
 * is cancelled; a finished, closed or archived one is finished — never "in progress".
 */
export type CaseEditLock = 'inProgress' | 'finished' | 'cancelled';

const IN_PROGRESS_STATUSES = ['execute', 'approve', 'finishing', 'print'] as const;

export function caseEditLock(status: string): CaseEditLock | null {
  if (isBroadNew(status)) return null;
  if (isOneOf(IN_PROGRESS_STATUSES, status)) return 'inProgress';
  if (status === 'cancelled') return 'cancelled';
  return 'finished';
}
