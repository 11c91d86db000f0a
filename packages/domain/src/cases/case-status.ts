import { isDoctor, isPlanner, isPrinter, isSupervisor } from '../auth/roles';
import { isOneOf } from '../common/one-of';

/**
 * Case status machine. Statuses in step order, the broad 'new' and 'closed' groups, the
 * allowed moves, and archiving as a separate, reversible flag.
 */
export const CASE_STATUSES = [
  'new',
  'checkingout',
  'execute',
  'approve',
  'finishing',
  'print',
  'finished',
  'revision',
  'closed',
  'cancelled',
  'archive',
] as const;
export type CaseStatus = (typeof CASE_STATUSES)[number];

export const isCaseStatus = (value: unknown): value is CaseStatus => isOneOf(CASE_STATUSES, value);

/**
 * The case-list filters of `/cases/{filter}`, one sidebar quick link each, in step order, then
 * 'cancelled': a cancelled case that is not archived is listed there, so no case falls out of
 * every list.
 */
export const CASE_LIST_FILTERS = [
  'new',
  'checkingout',
  'execute',
  'approve',
  'finishing',
  'print',
  'finished',
  'cancelled',
] as const;
export type CaseListFilter = (typeof CASE_LIST_FILTERS)[number];
export const DEFAULT_CASE_LIST_FILTER: CaseListFilter = 'new';

export const isCaseListFilter = (value: unknown): value is CaseListFilter =>
  isOneOf(CASE_LIST_FILTERS, value);

/** Filters whose sidebar link shows only while they hold a case (most users never cancel one). */
export const CASE_LIST_FILTERS_HIDDEN_WHEN_EMPTY = [
  'cancelled',
] as const satisfies readonly CaseListFilter[];

/** The sidebar shows the filter's link: always, or for 'cancelled' while its count is above 0. */
export const showsCaseListLink = (filter: CaseListFilter, count: number | undefined) =>
  !isOneOf(CASE_LIST_FILTERS_HIDDEN_WHEN_EMPTY, filter) || (count ?? 0) > 0;

/** 'New' in the broad sense: new, revision or checkingout. */
export const BROAD_NEW_STATUSES = [
  'new',
  'revision',
  'checkingout',
] as const satisfies readonly CaseStatus[];
/** Closed: finished or closed. */
export const CLOSED_STATUSES = ['finished', 'closed'] as const satisfies readonly CaseStatus[];

export const isBroadNew = (status: string) => isOneOf(BROAD_NEW_STATUSES, status);
export const isClosedStatus = (status: string) => isOneOf(CLOSED_STATUSES, status);

/**
 * The statuses a list filter shows. 'new' is the broad sense (so a case being checked out shows
 * in both the new and checkingout lists); 'finished' shows closed cases too; the others
 * (cancelled included) match their own status.
 */
export function statusesForFilter(filter: CaseListFilter): CaseStatus[] {
  if (filter === 'new') return [...BROAD_NEW_STATUSES];
  if (filter === 'finished') return [...CLOSED_STATUSES];
  return [filter];
}

export const matchesCaseFilter = (status: string, filter: CaseListFilter) =>
  (statusesForFilter(filter) as string[]).includes(status);

export interface CaseStepContext {
  /**
   * The flag that makes 'finished' step 7: the case has a print step (a printable service), so
   * print is step 6 and finished comes after it; without one, finished is step 6.
   */
  hasPrintStep: boolean;
}

/**
 * Step numbers: new 1, checkingout 2, execute 3, approve 4, finishing 5, print 6, finished 6 or
 * 7 with the flag. Revision counts as step 1 (it is broad 'new'); closed as the finished step;
 * cancelled and the legacy 'archive' status have no step.
 */
export function caseStep(
  status: string,
  context: CaseStepContext = { hasPrintStep: false },
): number | null {
  switch (status) {
    case 'new':
    case 'revision':
      return 1;
    case 'checkingout':
      return 2;
    case 'execute':
      return 3;
    case 'approve':
      return 4;
    case 'finishing':
      return 5;
    case 'print':
      return 6;
    case 'finished':
    case 'closed':
      return context.hasPrintStep ? 7 : 6;
    default:
      return null;
  }
}

/** The moves a case can make. Archiving is not a status move; see archive rules below. */
export const CASE_ACTIONS = [
  'submit',
  'validate',
  'requestApproval',
  'approve',
  'requestModification',
  'startPrint',
  'finish',
  'close',
  'backToNew',
  'cancel',
] as const;
export type CaseAction = (typeof CASE_ACTIONS)[number];

export interface CaseMoveContext {
  /** The case has a printable service: finishing goes to print, else straight to finished. */
  hasPrintableService: boolean;
  /** Archived cases are frozen until un-archived. */
  archived?: boolean;
  /** All case checks pass (see case-checks.ts); required to validate a checkout. */
  checksPass?: boolean;
  /**
   * A covered service waits for its approval request (one planned later than the others, or an
   * order added to the case and paid while it is in 'approve').
   */
  hasServicesToRequest?: boolean;
}

interface MoveRule {
  action: CaseAction;
  from: readonly CaseStatus[];
  to: CaseStatus;
  when?: (context: CaseMoveContext) => boolean;
}

/**
 * The spec's moves. Where it is silent, decisions (documented in docs/domain.md):
 * - request modification returns the plan to the planner (approve → execute);
 * - back to new: an unpaid checkout returns to 'new'; a case already in work returns to
 *   'revision' (broad 'new': the client edits it and submits again);
 * - finishing goes to print only with a printable service, otherwise straight to finished;
 * - cancel is possible until the plan is delivered for approval (broad new or execute);
 * - in 'approve', services still waiting for their request (planned later, or ordered and paid
 *   while the case was there) are requested without leaving 'approve'; the case leaves it only
 *   when every service is approved.
 */
const MOVES: readonly MoveRule[] = [
  { action: 'submit', from: ['new', 'revision'], to: 'checkingout' },
  { action: 'validate', from: ['checkingout'], to: 'execute', when: (c) => c.checksPass !== false },
  { action: 'requestApproval', from: ['execute'], to: 'approve' },
  {
    action: 'requestApproval',
    from: ['approve'],
    to: 'approve',
    when: (c) => c.hasServicesToRequest === true,
  },
  { action: 'approve', from: ['approve'], to: 'finishing' },
  { action: 'requestModification', from: ['approve'], to: 'execute' },
  { action: 'startPrint', from: ['finishing'], to: 'print', when: (c) => c.hasPrintableService },
  { action: 'finish', from: ['finishing'], to: 'finished', when: (c) => !c.hasPrintableService },
  { action: 'finish', from: ['print'], to: 'finished' },
  { action: 'close', from: ['finished'], to: 'closed' },
  { action: 'backToNew', from: ['checkingout'], to: 'new' },
  { action: 'backToNew', from: ['execute', 'approve', 'finishing'], to: 'revision' },
  { action: 'cancel', from: ['new', 'revision', 'checkingout', 'execute'], to: 'cancelled' },
];

export interface CaseMove {
  action: CaseAction;
  to: CaseStatus;
}

/** Every move allowed from a status in a context. */
export function allowedCaseMoves(from: string, context: CaseMoveContext): CaseMove[] {
  if (context.archived) return [];
  return MOVES.filter((rule) => isOneOf(rule.from, from) && (rule.when?.(context) ?? true)).map(
    ({ action, to }) => ({ action, to }),
  );
}

export function canTransition(from: string, to: string, context: CaseMoveContext): boolean {
  return allowedCaseMoves(from, context).some((move) => move.to === to);
}

/** The status an action leads to, or null when the action is not allowed from `from`. */
export function nextCaseStatus(
  from: string,
  action: CaseAction,
  context: CaseMoveContext,
): CaseStatus | null {
  return allowedCaseMoves(from, context).find((move) => move.action === action)?.to ?? null;
}

/** Approving needs the user's password. */
export const actionNeedsPassword = (action: CaseAction) => action === 'approve';

type Roles = readonly string[];
/**
 * Which roles may attempt each move (the spec leaves it "not shown"; this is the product's
 * choice). Per-record access — owner, case member, assigned planner — is the server's check.
 */
export const CASE_ACTION_ROLE_RULES: Record<CaseAction, (roles: Roles) => boolean> = {
  submit: isDoctor,
  validate: isSupervisor,
  requestApproval: isPlanner,
  approve: isDoctor,
  requestModification: isDoctor,
  startPrint: (roles) => isPlanner(roles) || isPrinter(roles),
  finish: (roles) => isPlanner(roles) || isPrinter(roles),
  close: (roles) => isSupervisor(roles) || isDoctor(roles),
  backToNew: (roles) => isSupervisor(roles) || isDoctor(roles),
  cancel: (roles) => isSupervisor(roles) || isDoctor(roles),
};

export const mayPerformCaseAction = (action: CaseAction, roles: Roles) =>
  CASE_ACTION_ROLE_RULES[action](roles);

/** The statuses a case may be archived in, so the statuses the archive search filters by. */
export const ARCHIVABLE_STATUSES = [
  'finished',
  'closed',
  'cancelled',
] as const satisfies readonly CaseStatus[];
export type ArchivableStatus = (typeof ARCHIVABLE_STATUSES)[number];

/**
 * Archive is a separate flag: finished or closed cases (and cancelled ones) can be
 * archived, and archived cases can be un-archived. The legacy 'archive' status reads as archived.
 */
export function canArchive(caseRecord: { caseStatus: string; caseArchived: boolean }): boolean {
  return !isArchived(caseRecord) && isOneOf(ARCHIVABLE_STATUSES, caseRecord.caseStatus);
}

export const canUnarchive = (caseRecord: { caseStatus: string; caseArchived: boolean }) =>
  isArchived(caseRecord);

export const isArchived = (caseRecord: { caseStatus: string; caseArchived: boolean }) =>
  caseRecord.caseArchived || caseRecord.caseStatus === 'archive';

/** Un-archiving clears the flag; a legacy 'archive' status becomes 'closed'. */
export function unarchive<T extends { caseStatus: string; caseArchived: boolean }>(
  caseRecord: T,
): T {
  return {
    ...caseRecord,
    caseArchived: false,
    caseStatus: caseRecord.caseStatus === 'archive' ? 'closed' : caseRecord.caseStatus,
  };
}
