import { describe, expect, it } from 'vitest';
import type { CaseRelation } from '../cases/case-access';
import { mayAddCaseUser, mayRemoveCaseUser, membershipRoleOfAddition } from './partners';

const open = { caseStatus: 'new', caseArchived: false };
const archived = { caseStatus: 'new', caseArchived: true };
const execute = { caseStatus: 'execute', caseArchived: false };

describe('mayAddCaseUser', () => {
  it.each<[string, string[], CaseRelation | null, typeof open, string[], boolean, boolean]>([
    ['owner clinic, linked partner', ['clinic'], 'owner', open, ['partner'], true, true],
    ['owner clinic, unlinked partner', ['clinic'], 'owner', open, ['partner'], false, false],
    ['owner clinic, linked but not a partner', ['clinic'], 'owner', open, ['doctor'], true, false],
    ['owner clinic, archived case', ['clinic'], 'owner', archived, ['partner'], true, false],
    ['owner doctor, linked partner', ['doctor'], 'owner', open, ['partner'], true, false],
    ['clinic that is only a member', ['clinic'], 'member', open, ['partner'], true, false],
    ['clinic that does not see the case', ['clinic'], null, open, ['partner'], true, false],
    ['supervisor, unlinked partner', ['supervisor'], 'staff', open, ['partner'], false, true],
    ['admin, any user', ['admin'], 'staff', open, ['doctor'], false, true],
    ['supervisor, archived case', ['supervisor'], 'staff', archived, ['partner'], false, false],
    ['planner of the case', ['planner'], 'planner', open, ['partner'], true, false],
    ['partner that is a member', ['partner'], 'member', open, ['partner'], true, false],
    ['owner clinic, later in the case', ['clinic'], 'owner', execute, ['partner'], true, true],
  ])('%s', (_, roles, relation, record, addedRoles, linked, expected) => {
    expect(
      mayAddCaseUser({
        viewer: { userId: 1, roles },
        relation,
        record,
        addedRoles,
        linkedToOwnerClinic: linked,
      }),
    ).toBe(expected);
  });
});

describe('membershipRoleOfAddition', () => {
  it.each<[string, string[], CaseRelation, string[], string | null]>([
    ['the owning clinic adds a partner', ['clinic'], 'owner', ['partner'], 'partner'],
    // Added as the clinic's partner: the doctor role does not keep the membership.
    [
      'the owning clinic adds a partner who is a doctor',
      ['clinic'],
      'owner',
      ['partner', 'doctor'],
      'partner',
    ],
    ['staff add a partner', ['supervisor'], 'staff', ['partner'], 'partner'],
    ['staff add a doctor', ['admin'], 'staff', ['doctor'], null],
    ['staff add a doctor who also plans', ['supervisor'], 'staff', ['doctor', 'planner'], null],
    ['staff add a planner', ['supervisor'], 'staff', ['planner'], 'planner'],
    ['staff add a printer', ['supervisor'], 'staff', ['printer'], 'printer'],
    ['staff add an instructor', ['supervisor'], 'staff', ['instructor'], 'instructor'],
  ])('%s → %s', (_, roles, relation, addedRoles, expected) => {
    expect(
      membershipRoleOfAddition({
        viewer: { userId: 1, roles },
        relation,
        record: open,
        addedRoles,
        linkedToOwnerClinic: true,
      }),
    ).toBe(expected);
  });
});

describe('mayRemoveCaseUser', () => {
  it.each<[string, string[], CaseRelation | null, typeof open, string[], boolean]>([
    ['owner clinic, a partner', ['clinic'], 'owner', open, ['partner'], true],
    ['owner clinic, a partner later in the case', ['clinic'], 'owner', execute, ['partner'], true],
    ['owner clinic, a doctor', ['clinic'], 'owner', open, ['doctor'], false],
    ['owner clinic, a planner', ['clinic'], 'owner', open, ['planner'], false],
    ['owner clinic, archived case', ['clinic'], 'owner', archived, ['partner'], false],
    ['owner doctor, a partner', ['doctor'], 'owner', open, ['partner'], false],
    ['clinic that is only a member', ['clinic'], 'member', open, ['partner'], false],
    ['clinic that does not see the case', ['clinic'], null, open, ['partner'], false],
    ['partner removing itself', ['partner'], 'member', open, ['partner'], false],
    ['planner of the case', ['planner'], 'planner', open, ['partner'], false],
    ['supervisor, a doctor', ['supervisor'], 'staff', open, ['doctor'], true],
    ['admin, a partner', ['admin'], 'staff', open, ['partner'], true],
    ['supervisor, archived case', ['supervisor'], 'staff', archived, ['partner'], false],
  ])('%s', (_, roles, relation, record, removedRoles, expected) => {
    expect(
      mayRemoveCaseUser({ viewer: { userId: 1, roles }, relation, record, removedRoles }),
    ).toBe(expected);
  });
});
