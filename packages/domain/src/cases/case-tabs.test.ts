import { describe, expect, it } from 'vitest';
import type { CaseProductionAction } from './case-production';
import { CASE_STATUSES } from './case-status';
import { caseEditLock, caseTabsFor, type CaseTab } from './case-tabs';

const OWNER = 10;
const ALL: CaseTab[] = [
  'general',
  'attachments',
  'chat',
  'users',
  'transactions',
  'production',
  'history',
];
const without = (...hidden: CaseTab[]) => ALL.filter((tab) => !hidden.includes(tab));
const SHEET: CaseProductionAction[] = ['productionSheet'];

describe('caseTabsFor: a tab whose calls would refuse the viewer is not shown', () => {
  it.each<[string, number, string[], CaseProductionAction[], CaseTab[]]>([
    ['the owning doctor', OWNER, ['doctor'], [], without('production')],
    ['the owning clinic', OWNER, ['clinic'], [], without('production')],
    ['a supervisor', 2, ['supervisor'], SHEET, ALL],
    ['an admin', 3, ['admin'], SHEET, ALL],
    ['a printer', 4, ['printer'], SHEET, without('transactions')],
    ['a printer without the sheet', 4, ['printer'], [], without('transactions', 'production')],
    ['a planner', 5, ['planner'], SHEET, without('transactions')],
    ['a partner member', 6, ['partner'], [], without('transactions', 'production')],
    ['a doctor member', 7, ['doctor'], [], without('transactions', 'production')],
    ["the owner's instructor", 8, ['instructor'], [], without('transactions', 'production')],
  ])('%s', (_who, userId, roles, productionActions, tabs) =>
    expect(caseTabsFor({ userId, roles }, { ownerId: OWNER, productionActions })).toEqual(tabs),
  );
});

describe('caseEditLock: why the data is locked; a finished case is never "in progress"', () => {
  const expected: Record<string, ReturnType<typeof caseEditLock>> = {
    new: null,
    revision: null,
    checkingout: null,
    execute: 'inProgress',
    approve: 'inProgress',
    finishing: 'inProgress',
    print: 'inProgress',
    finished: 'finished',
    closed: 'finished',
    cancelled: 'cancelled',
    archive: 'finished',
  };
  it.each(CASE_STATUSES.map((status) => [status, expected[status]] as const))(
    '%s → %s',
    (status, lock) => expect(caseEditLock(status)).toBe(lock),
  );
});
