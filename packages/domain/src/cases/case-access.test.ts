import { describe, expect, it } from 'vitest';
import { ROLES } from '../auth/roles';
import {
  CASE_RELATIONS,
  availableCaseActions,
  caseListGroup,
  caseRelation,
  isReadOnlyRelation,
  membershipHolds,
  membershipRoleOf,
  mayAttemptCaseAction,
  mayOnCase,
  maySolveReview,
  type CaseMembership,
  type CaseOperation,
  type MembershipRole,
  type CaseRelation,
  type CaseVisibilityFacts,
} from './case-access';
import { REVIEW_REASONS } from './case-review';
import { CASE_ACTIONS, CASE_STATUSES, allowedCaseMoves, type CaseAction } from './case-status';

const ME = 7;
const OTHER = 99;
const base: CaseVisibilityFacts = {
  ownerId: OTHER,
  caseStatus: 'new',
  members: [],
  plannerIds: [],
  hasPrintable: false,
  ownerInstructorId: null,
};

const via = (userId: number, viaRole: MembershipRole): CaseMembership => ({ userId, viaRole });
const colleague = (userId: number): CaseMembership => ({ userId, viaRole: null });

describe('membershipRoleOf', () => {
  it.each([
    [['doctor'], null],
    [['clinic'], null],
    [['doctor', 'planner'], null],
    [['clinic', 'partner'], null],
    [['planner'], 'planner'],
    [['printer'], 'printer'],
    [['partner'], 'partner'],
    [['instructor'], 'instructor'],
    [['printer', 'planner'], 'planner'],
    [['instructor', 'partner'], 'partner'],
    [['supervisor'], null],
    [[], null],
  ] as const)('%j → %s', (roles, expected) => {
    expect(membershipRoleOf(roles)).toBe(expected);
  });
});

describe('membershipHolds', () => {
  it.each([
    [null, [], true],
    [null, ['partner'], true],
    ['partner', ['partner'], true],
    ['partner', ['doctor'], false],
    ['partner', [], false],
    ['planner', ['planner', 'doctor'], true],
    // The stored role itself: admin is staff anyway, the planner membership is not admin's.
    ['planner', ['admin'], false],
  ] as const)('via %s with %j → %s', (viaRole, roles, holds) => {
    expect(membershipHolds({ userId: ME, viaRole }, roles)).toBe(holds);
  });
});

describe('caseRelation', () => {
  type Row = [string, string[], Partial<CaseVisibilityFacts>, CaseRelation | null];
  const rows: Row[] = [
    ['admin sees all', ['admin'], {}, 'staff'],
    ['supervisor sees all', ['supervisor'], {}, 'staff'],
    ['doctor owner', ['doctor'], { ownerId: ME }, 'owner'],
    ['clinic owner', ['clinic'], { ownerId: ME }, 'owner'],
    ['doctor, another doctor’s case', ['doctor'], {}, null],
    ['clinic, another’s case', ['clinic'], {}, null],
    ['doctor added as case user', ['doctor'], { members: [colleague(ME)] }, 'member'],
    ['planner of a service', ['planner'], { plannerIds: [ME] }, 'planner'],
    ['planner as case user', ['planner'], { members: [via(ME, 'planner')] }, 'member'],
    ['planner, neither', ['planner'], {}, null],
    [
      'planner and member: planner wins',
      ['planner'],
      { plannerIds: [ME], members: [via(ME, 'planner')] },
      'planner',
    ],
    ['partner added', ['partner'], { members: [via(ME, 'partner')] }, 'member'],
    ['partner not added', ['partner'], {}, null],
    ['instructor added', ['instructor'], { members: [via(ME, 'instructor')] }, 'member'],
    ['instructor of the owner', ['instructor'], { ownerInstructorId: ME }, 'instructor'],
    ['instructor of someone else', ['instructor'], { ownerInstructorId: 5 }, null],
    [
      'doctor named as instructor but without the role',
      ['doctor'],
      { ownerInstructorId: ME },
      null,
    ],
    ['printer member', ['printer'], { members: [via(ME, 'printer')] }, 'member'],
    ['printer without printable', ['printer'], { caseStatus: 'print' }, null],
    // A relation that comes from a role ends with it.
    ['planner of a service without the role', [], { plannerIds: [ME] }, null],
    ['planner of a service, now a doctor', ['doctor'], { plannerIds: [ME] }, null],
    [
      'planner of a service and member through it, role removed',
      ['doctor'],
      { plannerIds: [ME], members: [via(ME, 'planner')] },
      null,
    ],
    ['partner member without the partner role', [], { members: [via(ME, 'partner')] }, null],
    ['partner member now only a doctor', ['doctor'], { members: [via(ME, 'partner')] }, null],
    ['printer member without the role', ['partner'], { members: [via(ME, 'printer')] }, null],
    ['instructor member without the role', [], { members: [via(ME, 'instructor')] }, null],
    ['instructor of the owner without the role', [], { ownerInstructorId: ME }, null],
    [
      'printer without the role, printable case in print',
      [],
      { hasPrintable: true, caseStatus: 'print' },
      null,
    ],
    // Membership from no role (a colleague) stays whatever the roles.
    ['colleague member without any role', [], { members: [colleague(ME)] }, 'member'],
    ['colleague member now a partner', ['partner'], { members: [colleague(ME)] }, 'member'],
    ['another user’s membership', ['partner'], { members: [via(OTHER, 'partner')] }, null],
  ];
  it.each(rows)('%s', (_label, roles, facts, expected) => {
    expect(caseRelation({ userId: ME, roles }, { ...base, ...facts })).toBe(expected);
  });

  it.each(CASE_STATUSES)('printer with a printable service in %s', (status) => {
    const visible = ['finishing', 'print', 'finished'].includes(status);
    expect(
      caseRelation(
        { userId: ME, roles: ['printer'] },
        { ...base, hasPrintable: true, caseStatus: status },
      ),
    ).toBe(visible ? 'printer' : null);
  });

  it.each([
    ['staff', false],
    ['owner', false],
    ['planner', false],
    ['member', true],
    ['printer', true],
    ['instructor', true],
  ] as const)('%s read only: %s', (relation, readOnly) => {
    expect(isReadOnlyRelation(relation)).toBe(readOnly);
  });
});

/**
 * The moves each (role, relation) may attempt regardless of status; the status machine then
 * narrows them. Every role × relation pair not listed may attempt nothing.
 */
const ATTEMPTABLE: Record<string, CaseAction[]> = {
  'admin/staff': [
    'submit',
    'validate',
    'requestApproval',
    'startPrint',
    'finish',
    'close',
    'backToNew',
    'cancel',
  ],
  'supervisor/staff': [
    'submit',
    'validate',
    'requestApproval',
    'startPrint',
    'finish',
    'close',
    'backToNew',
    'cancel',
  ],
  'clinic/owner': ['submit', 'approve', 'requestModification', 'close', 'backToNew', 'cancel'],
  'doctor/owner': ['submit', 'approve', 'requestModification', 'close', 'backToNew', 'cancel'],
  'planner/planner': ['requestApproval', 'startPrint', 'finish'],
  'printer/printer': ['startPrint', 'finish'],
  'printer/member': ['startPrint', 'finish'],
  'printer/planner': ['startPrint', 'finish'],
  // A printer prints any case they see, however they see it.
  'printer/owner': ['startPrint', 'finish'],
  'printer/instructor': ['startPrint', 'finish'],
};

/** The relations a user with one role can have (staff roles are always staff). */
const relationsOf = (role: string): (CaseRelation | null)[] =>
  role === 'admin' || role === 'supervisor'
    ? ['staff']
    : [...CASE_RELATIONS.filter((r) => r !== 'staff'), null];

describe('mayAttemptCaseAction and availableCaseActions: every role × relation × status', () => {
  for (const role of ROLES) {
    for (const relation of relationsOf(role)) {
      const allowed = ATTEMPTABLE[`${role}/${relation}`] ?? [];
      it(`${role} as ${relation ?? 'nobody'}`, () => {
        const viewer = { userId: ME, roles: [role] };
        for (const action of CASE_ACTIONS) {
          expect(mayAttemptCaseAction(action, viewer, relation), action).toBe(
            allowed.includes(action),
          );
        }
        for (const caseStatus of CASE_STATUSES) {
          for (const hasPrintable of [false, true]) {
            const facts = {
              caseStatus,
              caseArchived: false,
              hasPrintable,
              checksPass: true,
              serviceCount: 1,
            };
            const byStatus = allowedCaseMoves(caseStatus, {
              hasPrintableService: hasPrintable,
              checksPass: true,
            }).map((m) => m.action);
            const expected = CASE_ACTIONS.filter(
              (a) => byStatus.includes(a) && allowed.includes(a),
            );
            expect(availableCaseActions(viewer, relation, facts).actions, caseStatus).toEqual(
              expected,
            );
            expect(
              availableCaseActions(viewer, relation, { ...facts, caseArchived: true }).actions,
            ).toEqual([]);
          }
        }
      });
    }
  }

  it('validate needs every check and at least one service', () => {
    const viewer = { userId: ME, roles: ['supervisor'] };
    const facts = {
      caseStatus: 'checkingout',
      caseArchived: false,
      hasPrintable: false,
      checksPass: true,
      serviceCount: 1,
    };
    expect(availableCaseActions(viewer, 'staff', facts).actions).toContain('validate');
    expect(
      availableCaseActions(viewer, 'staff', { ...facts, checksPass: false }).actions,
    ).not.toContain('validate');
    expect(
      availableCaseActions(viewer, 'staff', { ...facts, serviceCount: 0 }).actions,
    ).not.toContain('validate');
  });
});

describe('mayOnCase', () => {
  type Row = [CaseOperation, CaseRelation | null, string, string, boolean, boolean];
  // operation, relation, role, status, archived, allowed
  const rows: Row[] = [
    ['edit', 'owner', 'doctor', 'new', false, true],
    ['edit', 'owner', 'doctor', 'revision', false, true],
    ['edit', 'owner', 'doctor', 'checkingout', false, true],
    ['edit', 'owner', 'doctor', 'execute', false, false],
    ['edit', 'staff', 'supervisor', 'execute', false, true],
    ['edit', 'staff', 'supervisor', 'finished', true, false],
    ['edit', 'member', 'doctor', 'new', false, false],
    ['edit', 'planner', 'planner', 'new', false, false],
    ['edit', null, 'doctor', 'new', false, false],
    ['serviceData', 'owner', 'clinic', 'new', false, true],
    ['serviceData', 'owner', 'clinic', 'approve', false, false],
    ['addService', 'owner', 'doctor', 'new', false, true],
    ['addService', 'staff', 'supervisor', 'new', false, true],
    ['addService', 'staff', 'supervisor', 'execute', false, false],
    ['addService', 'instructor', 'instructor', 'new', false, false],
    ['archive', 'owner', 'doctor', 'finished', false, true],
    ['archive', 'owner', 'doctor', 'closed', false, true],
    ['archive', 'owner', 'doctor', 'cancelled', false, true],
    ['archive', 'owner', 'doctor', 'execute', false, false],
    ['archive', 'owner', 'doctor', 'finished', true, false],
    ['archive', 'staff', 'admin', 'finished', false, true],
    ['archive', 'member', 'partner', 'finished', false, false],
    ['unarchive', 'owner', 'doctor', 'finished', true, true],
    ['unarchive', 'owner', 'doctor', 'archive', false, true],
    ['unarchive', 'owner', 'doctor', 'finished', false, false],
    ['unarchive', 'staff', 'supervisor', 'closed', true, true],
    ['unarchive', 'printer', 'printer', 'finished', true, false],
    ['manageUsers', 'staff', 'supervisor', 'execute', false, true],
    ['manageUsers', 'owner', 'doctor', 'new', false, false],
    ['manageUsers', 'planner', 'planner', 'execute', false, false],
    ['manageUsers', 'owner', 'clinic', 'new', false, false],
    ['addPartner', 'owner', 'clinic', 'new', false, true],
    ['addPartner', 'owner', 'clinic', 'execute', false, true],
    ['addPartner', 'owner', 'clinic', 'finished', true, false],
    ['addPartner', 'owner', 'doctor', 'new', false, false],
    ['addPartner', 'member', 'clinic', 'new', false, false],
    ['addPartner', 'planner', 'planner', 'execute', false, false],
    ['addPartner', 'member', 'partner', 'execute', false, false],
    ['addPartner', 'instructor', 'instructor', 'new', false, false],
    ['addPartner', null, 'clinic', 'new', false, false],
    // Staff manage every case user through 'manageUsers'; the clinic's control is not theirs.
    ['addPartner', 'staff', 'supervisor', 'new', false, false],
    ['addPartner', 'staff', 'admin', 'new', false, false],
    ['openReview', 'staff', 'supervisor', 'execute', false, true],
    ['openReview', 'planner', 'planner', 'execute', false, true],
    ['openReview', 'member', 'planner', 'execute', false, true],
    ['openReview', 'member', 'doctor', 'execute', false, false],
    ['openReview', 'owner', 'doctor', 'execute', false, false],
    ['openReview', 'printer', 'printer', 'print', false, false],
    ['openReview', 'staff', 'supervisor', 'finished', true, false],
  ];
  it.each(rows)(
    '%s by %s (%s) in %s archived=%s → %s',
    (op, relation, role, status, archived, ok) => {
      expect(
        mayOnCase(op, { userId: ME, roles: [role] }, relation, {
          caseStatus: status,
          caseArchived: archived,
        }),
      ).toBe(ok);
    },
  );

  it.each([
    // operation, relation, status, live transaction, only payment fails, allowed
    ['addService', 'owner', 'new', false, false, true],
    ['addService', 'owner', 'revision', true, false, false],
    ['addService', 'staff', 'checkingout', true, false, false],
    ['order', 'owner', 'checkingout', true, false, true],
    ['order', 'owner', 'execute', true, false, true],
    ['order', 'owner', 'approve', true, false, true],
    ['order', 'owner', 'finishing', true, false, false],
    ['order', 'staff', 'new', false, false, false],
    ['validateUnpaid', 'staff', 'checkingout', false, true, true],
    ['validateUnpaid', 'staff', 'checkingout', false, false, false],
    ['validateUnpaid', 'staff', 'execute', false, true, false],
    ['validateUnpaid', 'planner', 'checkingout', false, true, false],
    ['validateUnpaid', 'owner', 'checkingout', false, true, false],
  ] as const)(
    '%s by %s in %s (live transaction %s, only payment fails %s) → %s',
    (operation, relation, caseStatus, hasLiveTransaction, onlyPaymentFails, allowed) => {
      const viewer = {
        userId: ME,
        roles:
          relation === 'staff' ? ['supervisor'] : relation === 'planner' ? ['planner'] : ['doctor'],
      };
      const record = { caseStatus, caseArchived: false, hasLiveTransaction, onlyPaymentFails };
      expect(mayOnCase(operation, viewer, relation, record)).toBe(allowed);
    },
  );

  it('availableCaseActions lists the extra actions', () => {
    const facts = {
      caseStatus: 'new',
      caseArchived: false,
      hasPrintable: false,
      checksPass: false,
      serviceCount: 0,
    };
    expect(availableCaseActions({ userId: ME, roles: ['doctor'] }, 'owner', facts).can).toEqual([
      'edit',
      'addService',
      'order',
    ]);
    expect(
      availableCaseActions({ userId: ME, roles: ['doctor'] }, 'owner', {
        ...facts,
        caseStatus: 'finished',
        caseArchived: true,
      }).can,
    ).toEqual(['unarchive']);
    expect(availableCaseActions({ userId: ME, roles: ['partner'] }, 'member', facts).can).toEqual(
      [],
    );
    expect(availableCaseActions({ userId: ME, roles: ['clinic'] }, 'owner', facts).can).toEqual([
      'edit',
      'addService',
      'addPartner',
      'order',
    ]);
    // Later in the case the clinic still adds partners and orders more, but no longer edits.
    expect(
      availableCaseActions({ userId: ME, roles: ['clinic'] }, 'owner', {
        ...facts,
        caseStatus: 'execute',
      }).can,
    ).toEqual(['addPartner', 'order']);
    expect(
      availableCaseActions({ userId: ME, roles: ['clinic'] }, 'owner', {
        ...facts,
        caseStatus: 'finished',
        caseArchived: true,
      }).can,
    ).toEqual(['unarchive']);
    expect(availableCaseActions({ userId: ME, roles: ['clinic'] }, 'member', facts).can).toEqual(
      [],
    );
    expect(availableCaseActions({ userId: ME, roles: ['supervisor'] }, 'staff', facts).can).toEqual(
      ['edit', 'addService'],
    );
  });
});

describe('maySolveReview', () => {
  const R = REVIEW_REASONS;
  /** The columns of each row: no reason (a free review), then the eight staff reasons. */
  const REASONS = [
    null,
    R.plannerNotSet,
    R.caseUpgraded,
    R.planningDeadlineNear,
    R.paymentIssue,
    R.receiptPendingApproval,
    R.pixApproval,
    R.physicalCardApproval,
    R.cancelRequestReview,
  ] as const;
  type Row = [CaseRelation | null, string, boolean, string];
  // relation, role, archived, one cell per column of REASONS: y may solve, - may not
  const rows: Row[] = [
    ['staff', 'supervisor', false, 'y y y y y y y y y'],
    ['staff', 'admin', false, 'y y y y y y y y y'],
    ['staff', 'supervisor', true, '- - - - - - - - -'],
    ['owner', 'doctor', false, 'y - - - - - - - -'],
    ['owner', 'clinic', false, 'y - - - - - - - -'],
    ['owner', 'doctor', true, '- - - - - - - - -'],
    ['planner', 'planner', false, '- y - y - - - - -'],
    ['planner', 'planner', true, '- - - - - - - - -'],
    // A planner who is only a case user does not plan it.
    ['member', 'planner', false, '- - - - - - - - -'],
    ['member', 'partner', false, '- - - - - - - - -'],
    ['member', 'doctor', false, '- - - - - - - - -'],
    ['printer', 'printer', false, '- - - - - - - - -'],
    ['instructor', 'instructor', false, '- - - - - - - - -'],
    [null, 'doctor', false, '- - - - - - - - -'],
  ];
  it.each(rows)('%s (%s), archived=%s: %s', (relation, role, archived, cells) => {
    const allowed = cells.split(' ').map((cell) => cell === 'y');
    expect(allowed).toHaveLength(REASONS.length);
    for (const [index, reasonId] of REASONS.entries()) {
      expect(
        maySolveReview(
          { userId: ME, roles: [role] },
          relation,
          { caseStatus: 'execute', caseArchived: archived },
          { reasonId },
        ),
        `reason ${reasonId}`,
      ).toBe(allowed[index]);
    }
  });

  it('a reason id outside the list is a staff reason', () => {
    const record = { caseStatus: 'execute', caseArchived: false };
    expect(
      maySolveReview({ userId: ME, roles: ['doctor'] }, 'owner', record, { reasonId: 99 }),
    ).toBe(false);
    expect(
      maySolveReview({ userId: ME, roles: ['supervisor'] }, 'staff', record, { reasonId: 99 }),
    ).toBe(true);
  });
});

describe('caseListGroup', () => {
  it.each([
    ['new', 'new'],
    ['revision', 'new'],
    ['checkingout', 'new'],
    ['execute', 'execute'],
    ['approve', 'approve'],
    ['finishing', 'finishing'],
    ['print', 'print'],
    ['finished', 'finished'],
    ['closed', 'finished'],
    ['cancelled', 'cancelled'],
    ['archive', null],
  ] as const)('%s → %s', (status, group) => {
    expect(caseListGroup(status)).toBe(group);
  });
});
