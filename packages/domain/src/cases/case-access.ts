import {
  isClinic,
  isInstructor,
  isPlanner,
  isPrinter,
  isSupervisor,
  type Role,
} from '../auth/roles';
import { isOneOf } from '../common/one-of';
import type { CASE_EXTRA_ACTIONS } from './case-api';
import { PLANNER_REVIEW_REASONS, isStaffReviewReason } from './case-review';
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
 * Who sees a case and what they may do on it. Pure, so the server authorizes and the
 * web shows buttons with the same function; the server's list SQL mirrors `caseRelation`
 * (docs/permissions.md holds the table).
 */

/**
 * Why a viewer sees a case, strongest first: staff (supervisor, admin) see all; the owner; the
 * planner of one of its services (while they hold the planner role); a case user (member, while
 * they hold the role their membership came from, if any); a printer (printer role), when the case
 * has a printable service and is in finishing, print or finished; the instructor (instructor role)
 * of the owner. A relation that comes from a role ends with the role, on the viewer's next request.
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

/**
 * The roles a case membership can come from. A planner set on a service, a partner added by the
 * owning clinic, or a planner, printer, partner or instructor added by staff is a case user
 * because of that role, and stops seeing the case when it loses the role.
 */
export const MEMBERSHIP_ROLES = [
  'planner',
  'printer',
  'partner',
  'instructor',
] as const satisfies readonly Role[];
export type MembershipRole = (typeof MEMBERSHIP_ROLES)[number];

/** One case user: who, and the role their membership comes from (null: from no role). */
export interface CaseMembership {
  userId: number;
  viaRole: MembershipRole | null;
}

/**
 * The role a membership granted now comes from, by the added user's stored roles: none for a
 * clinic or doctor (a colleague the case is shared with stays until removed, whatever their
 * roles), else their first of planner, printer, partner, instructor (someone added for their
 * work on the case), else none.
 */
export function membershipRoleOf(roles: readonly string[]): MembershipRole | null {
  if (roles.includes('clinic') || roles.includes('doctor')) return null;
  return MEMBERSHIP_ROLES.find((role) => roles.includes(role)) ?? null;
}

/** The member still holds the role their membership comes from (always, when it comes from none). */
export const membershipHolds = (member: CaseMembership, roles: readonly string[]) =>
  member.viaRole === null || roles.includes(member.viaRole);

export interface CaseVisibilityFacts {
  ownerId: number;
  caseStatus: string;
  /** Case users. */
  members: readonly CaseMembership[];
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
  if (isPlanner(viewer.roles) && facts.plannerIds.includes(viewer.userId)) return 'planner';
  const member = facts.members.find((m) => m.userId === viewer.userId);
  if (member && membershipHolds(member, viewer.roles)) return 'member';
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
  | 'openReview';

export interface CaseRecordFacts {
  caseStatus: string;
  caseArchived: boolean;
  /**
   * The case has a transaction that is not cancelled: services are then added only by an order
   * for the case (the shop), which pays them with a transaction of their own.
   */
  hasLiveTransaction?: boolean;
  /** Only the payment check fails: a supervisor may validate naming a reason. */
  onlyPaymentFails?: boolean;
}

/**
 * The statuses in which the owner may order more for the case (a new order with its own
 * transaction): any before 'finishing'. Past 'checkingout' it is a case upgrade: staff get the
 * 'case upgraded' review and the new services wait for their payment.
 */
export const ORDERABLE_CASE_STATUSES = [
  'new',
  'revision',
  'checkingout',
  'execute',
  'approve',
] as const satisfies readonly CaseStatus[];
export const mayOrderForCase = (status: string) => isOneOf(ORDERABLE_CASE_STATUSES, status);
/** An order for a case in these statuses is a case upgrade. */
export const isCaseUpgradeStatus = (status: string) => status === 'execute' || status === 'approve';

/**
 * Per-record rules for the operations beside moves. Archived cases are frozen except for
 * un-archiving. Edit (patient, address, observation, service data, removing services): the owner
 * while the case is broad 'new', staff at any time. Add a service: owner or staff while broad new
 * and no live transaction exists; order more (the shop, with its own transaction): the owner in
 * `ORDERABLE_CASE_STATUSES`. Validate unpaid services: staff in 'checkingout' when only the
 * payment check fails.
 * Archive / un-archive: owner or staff, by the domain's archive rules. Users and planner: staff.
 * Add (and remove) partners: the owner with the clinic role (which partners:
 * `mayAddCaseUser`, `mayRemoveCaseUser`). Open a review: staff or a planner (role) who is the
 * case's planner or member. Solving a review depends on the review: `maySolveReview`.
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
      return (owner || staff) && isBroadNew(record.caseStatus) && !record.hasLiveTransaction;
    case 'order':
      return owner && mayOrderForCase(record.caseStatus);
    case 'validateUnpaid':
      return staff && record.caseStatus === 'checkingout' && record.onlyPaymentFails === true;
    case 'manageUsers':
      return staff;
    case 'addPartner':
      // Admins are always 'staff', so the owner passing `isClinic` holds the clinic role itself.
      return owner && isClinic(viewer.roles);
    case 'openReview':
      return (
        staff || (isPlanner(viewer.roles) && (relation === 'planner' || relation === 'member'))
      );
  }
}

/**
 * Who closes an open review ('problem solved'), by its reason. A review with a staff reason (the
 * eight `REVIEW_REASONS`: payments, approvals, cancel requests, planning) is closed by staff;
 * the case's planner also closes 'planner not set' and 'planning deadline near'
 * (`PLANNER_REVIEW_REASONS`). A review without a reason (one staff or a planner opened for the
 * client, or the owner's modification request) is closed by the owner or staff. So a client can
 * no longer silence a payment issue. Archived cases are frozen.
 */
export function maySolveReview(
  viewer: CaseViewer,
  relation: CaseRelation | null,
  record: CaseRecordFacts,
  /** The review's reason; null when opened without one. */
  review: { reasonId: number | null },
): boolean {
  if (relation === null || isArchived(record)) return false;
  if (relation === 'staff') return true;
  if (!isStaffReviewReason(review.reasonId)) return relation === 'owner';
  return (
    relation === 'planner' &&
    isPlanner(viewer.roles) &&
    isOneOf(PLANNER_REVIEW_REASONS, review.reasonId)
  );
}

export interface CaseActionFacts extends CaseRecordFacts {
  /** A service is a printable product (finishing → print, else → finished). */
  hasPrintable: boolean;
  /** Every case check passes (validate). */
  checksPass: boolean;
  serviceCount: number;
  /** A covered service waits for its approval request (see `CaseMoveContext`). */
  hasServicesToRequest?: boolean;
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
  'order',
  'validateUnpaid',
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
    hasServicesToRequest: facts.hasServicesToRequest ?? false,
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
 * closed; the status itself for the others (cancelled included); null (in no list) for the legacy
 * 'archive' status, which reads as archived.
 */
export function caseListGroup(status: string): CaseListFilter | null {
  if (isBroadNew(status)) return 'new';
  if (status === 'finished' || status === 'closed') return 'finished';
  return isOneOf(CASE_LIST_FILTERS, status) ? status : null;
}
