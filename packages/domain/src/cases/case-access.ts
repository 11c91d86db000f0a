import { isClinic, isInstructor, isPlanner, isPrinter, isSupervisor } from '../auth/roles';
import { isOneOf } from '../common/one-of';
import type { CASE_EXTRA_ACTIONS } from './case-api';
import {
  CASE_ACTION_ROLE_RULES,
  CASE_LIST_FILTERS,
  type CaseListFilter,
  allowedCaseMoves,
  canArchive,
  canUnarchive,
  isArchived,
  isBroadNew,
  type CaseAction,
  type CaseStatus,
} from './case-status';

/**
 * Issue 6 §3: who sees a case and what they may do on it. Pure, so the server authorizes and the
 * web shows buttons with the same function; the server's list SQL mirrors `caseRelation`
 * (docs/permissions.md holds the table).
 */

/**
 * Why a viewer sees a case, strongest first: staff (supervisor, admin) see all; the owner; the
 * planner of one of its services; a case user (member); a printer, when the case has a printable
 * service and is in finishing, print or finished; the instructor of the owner.
 */
export const CASE_RELATIONS = [
  'staff',
  'owner',
  'planner',
  'member',
  'printer',
  'instructor',
] as const;
export type CaseRelation = (typeof CASE_RELATIONS)[number];

/** The statuses in which printers see cases with a printable service. */
export const PRINTER_VISIBLE_STATUSES = [
  'finishing',
  'print',
  'finished',
] as const satisfies readonly CaseStatus[];

/** Relations that only read: members (partners, added doctors), printers, instructors. */
export const READ_ONLY_RELATIONS = [
  'member',
  'printer',
  'instructor',
] as const satisfies readonly CaseRelation[];
export const isReadOnlyRelation = (relation: CaseRelation) =>
  isOneOf(READ_ONLY_RELATIONS, relation);

export interface CaseViewer {
  userId: number;
  roles: readonly string[];
}

export interface CaseVisibilityFacts {
  ownerId: number;
  caseStatus: string;
  /** Case users. */
  memberIds: readonly number[];
  /** Planners set on its services. */
  plannerIds: readonly number[];
  /** A service is a printable product. */
  hasPrintable: boolean;
  /** The owner's instructor (profile capabilities), if any. */
  ownerInstructorId: number | null;
}

export const isCaseStaff = (viewer: CaseViewer) => isSupervisor(viewer.roles);

/** The viewer's relation to the case, or null when the case is hidden from them. */
export function caseRelation(viewer: CaseViewer, facts: CaseVisibilityFacts): CaseRelation | null {
  if (isCaseStaff(viewer)) return 'staff';
  if (facts.ownerId === viewer.userId) return 'owner';
  if (facts.plannerIds.includes(viewer.userId)) return 'planner';
  if (facts.memberIds.includes(viewer.userId)) return 'member';
  if (
    isPrinter(viewer.roles) &&
    facts.hasPrintable &&
    isOneOf(PRINTER_VISIBLE_STATUSES, facts.caseStatus)
  ) {
    return 'printer';
  }
  if (isInstructor(viewer.roles) && facts.ownerInstructorId === viewer.userId) return 'instructor';
  return null;
}

/**
 * The record rule of each move (on top of the role rule `CASE_ACTION_ROLE_RULES`): submit by the
 * owner or staff; approve and request modification by the owner only; request approval by the
 * case's planner or staff; start print and finish by the planner, a printer or staff; validate by
 * staff (its role rule); close, back to new and cancel by the owner or staff.
 */
const RECORD_RULES: Record<CaseAction, (relation: CaseRelation, viewer: CaseViewer) => boolean> = {
  submit: (r) => r === 'owner' || r === 'staff',
  validate: (r) => r === 'staff',
  requestApproval: (r) => r === 'planner' || r === 'staff',
  approve: (r) => r === 'owner',
  requestModification: (r) => r === 'owner',
  startPrint: (r, v) => r === 'planner' || r === 'staff' || isPrinter(v.roles),
  finish: (r, v) => r === 'planner' || r === 'staff' || isPrinter(v.roles),
  close: (r) => r === 'owner' || r === 'staff',
  backToNew: (r) => r === 'owner' || r === 'staff',
  cancel: (r) => r === 'owner' || r === 'staff',
};

/** The viewer's role and relation allow the move (the status is checked separately). */
export function mayAttemptCaseAction(
  action: CaseAction,
  viewer: CaseViewer,
  relation: CaseRelation | null,
): boolean {
  if (relation === null) return false;
  // Staff may submit on a client's behalf although the role rule names clinics and doctors.
  const roleAllows =
    CASE_ACTION_ROLE_RULES[action](viewer.roles) || (action === 'submit' && relation === 'staff');
  return roleAllows && RECORD_RULES[action](relation, viewer);
}

export type CaseExtraAction = (typeof CASE_EXTRA_ACTIONS)[number];

/** Things done on a case besides status moves, authorized by `mayOnCase`. */
export type CaseOperation =
  | CaseExtraAction
  /** Fill a service's data (like edit). */
  | 'serviceData'
  /** Add or remove case users, set the planner. */
  | 'manageUsers'
  | 'openReview'
  | 'solveReview';

export interface CaseRecordFacts {
  caseStatus: string;
  caseArchived: boolean;
}

/**
 * Per-record rules for the operations beside moves. Archived cases are frozen except for
 * un-archiving. Edit (patient, address, observation, service data, removing services): the owner
 * while the case is broad 'new', staff at any time. Add a service: owner or staff while broad new.
 * Archive / un-archive: owner or staff, by the domain's archive rules. Users and planner: staff.
 * Add (and remove) partners: the owner with the clinic role (issue 11 §3; which partners:
 * `mayAddCaseUser`, `mayRemoveCaseUser`). Open a review: staff or a planner (role) who is the
 * case's planner or member. Solve: staff or the owner.
 */
export function mayOnCase(
  operation: CaseOperation,
  viewer: CaseViewer,
  relation: CaseRelation | null,
  record: CaseRecordFacts,
): boolean {
  if (relation === null) return false;
  const staff = relation === 'staff';
  const owner = relation === 'owner';
  if (operation === 'unarchive') return (owner || staff) && canUnarchive(record);
  if (isArchived(record)) return false;
  switch (operation) {
    case 'archive':
      return (owner || staff) && canArchive(record);
    // The transactions' part of changing the currency is `mayChangeCaseCurrency`.
    case 'edit':
    case 'serviceData':
    case 'changeCurrency':
      return staff || (owner && isBroadNew(record.caseStatus));
    case 'addService':
      return (owner || staff) && isBroadNew(record.caseStatus);
    case 'manageUsers':
      return staff;
    case 'addPartner':
      // Admins are always 'staff', so the owner passing `isClinic` holds the clinic role itself.
      return owner && isClinic(viewer.roles);
    case 'openReview':
      return (
        staff || (isPlanner(viewer.roles) && (relation === 'planner' || relation === 'member'))
      );
    case 'solveReview':
      return staff || owner;
  }
}

export interface CaseActionFacts extends CaseRecordFacts {
  /** A service is a printable product (finishing → print, else → finished). */
  hasPrintable: boolean;
  /** Every case check passes (validate). */
  checksPass: boolean;
  serviceCount: number;
}

export interface AvailableCaseActions {
  /** The status moves this viewer may make now. */
  actions: CaseAction[];
  /** The other operations the case view offers. */
  can: CaseExtraAction[];
}

const EXTRA_ACTIONS: readonly CaseExtraAction[] = [
  'archive',
  'unarchive',
  'edit',
  'addService',
  'addPartner',
];

/** The moves and extra actions a viewer with this relation may make on the case now. */
export function availableCaseActions(
  viewer: CaseViewer,
  relation: CaseRelation | null,
  facts: CaseActionFacts,
): AvailableCaseActions {
  const moves = allowedCaseMoves(facts.caseStatus, {
    hasPrintableService: facts.hasPrintable,
    archived: isArchived(facts),
    checksPass: facts.checksPass && facts.serviceCount > 0,
  });
  const actions = [...new Set(moves.map((move) => move.action))].filter((action) =>
    mayAttemptCaseAction(action, viewer, relation),
  );
  const can = EXTRA_ACTIONS.filter((operation) => mayOnCase(operation, viewer, relation, facts));
  return { actions, can };
}

/**
 * The list a status belongs to in the broad sense, stored as `cases.list_group` so a list reads
 * its page from one index: 'new' for new, revision and checkingout; 'finished' for finished and
 * closed; the status itself for the others; null (in no list) for cancelled and legacy 'archive'.
 */
export function caseListGroup(status: string): CaseListFilter | null {
  if (isBroadNew(status)) return 'new';
  if (status === 'finished' || status === 'closed') return 'finished';
  return isOneOf(CASE_LIST_FILTERS, status) ? status : null;
}
