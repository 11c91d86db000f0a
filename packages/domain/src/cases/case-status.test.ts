import { describe, expect, it } from 'vitest';
import {
  allowedCaseMoves,
  canArchive,
  canTransition,
  canUnarchive,
  CASE_ACTIONS,
  CASE_LIST_FILTERS,
  CASE_STATUSES,
  caseStep,
  isArchived,
  isBroadNew,
  isClosedStatus,
  matchesCaseFilter,
  mayPerformCaseAction,
  nextCaseStatus,
  showsCaseListLink,
  actionNeedsPassword,
  statusesForFilter,
  unarchive,
} from './case-status';

describe('step numbers', () => {
  it.each([
    ['new', false, 1],
    ['checkingout', false, 2],
    ['execute', false, 3],
    ['approve', false, 4],
    ['finishing', false, 5],
    ['print', true, 6],
    ['finished', false, 6],
    ['finished', true, 7],
    ['revision', false, 1],
    ['closed', true, 7],
    ['cancelled', false, null],
    ['archive', false, null],
    ['bogus', false, null],
  ] as const)('%s (print step %s) → %s', (status, hasPrintStep, step) =>
    expect(caseStep(status, { hasPrintStep })).toBe(step),
  );
});

describe('broad groups', () => {
  it.each(CASE_STATUSES.map((s) => [s] as const))('%s', (status) => {
    expect(isBroadNew(status)).toBe(['new', 'revision', 'checkingout'].includes(status));
    expect(isClosedStatus(status)).toBe(['finished', 'closed'].includes(status));
  });

  it.each([
    ['new', ['new', 'revision', 'checkingout']],
    ['checkingout', ['checkingout']],
    ['execute', ['execute']],
    ['print', ['print']],
    ['finished', ['finished', 'closed']],
    ['cancelled', ['cancelled']],
  ] as const)('filter %s shows %j', (filter, statuses) => {
    expect(statusesForFilter(filter)).toEqual(statuses);
    for (const status of statuses) expect(matchesCaseFilter(status, filter)).toBe(true);
  });

  it('there are seven list filters in step order, then cancelled', () => {
    expect(CASE_LIST_FILTERS).toEqual([
      'new',
      'checkingout',
      'execute',
      'approve',
      'finishing',
      'print',
      'finished',
      'cancelled',
    ]);
  });

  it.each([
    // filter, count, the sidebar shows its link
    ['new', 0, true],
    ['new', undefined, true],
    ['finished', 3, true],
    ['cancelled', 0, false],
    ['cancelled', undefined, false],
    ['cancelled', 1, true],
  ] as const)('the sidebar link of %s with %s cases shows: %s', (filter, count, shown) => {
    expect(showsCaseListLink(filter, count)).toBe(shown);
  });
});

const printable = { hasPrintableService: true };
const notPrintable = { hasPrintableService: false };

describe('moves', () => {
  it.each([
    // from, action, context, to
    ['new', 'submit', notPrintable, 'checkingout'],
    ['revision', 'submit', notPrintable, 'checkingout'],
    ['checkingout', 'validate', notPrintable, 'execute'],
    ['execute', 'requestApproval', notPrintable, 'approve'],
    ['approve', 'approve', notPrintable, 'finishing'],
    ['approve', 'requestModification', notPrintable, 'execute'],
    ['finishing', 'startPrint', printable, 'print'],
    ['finishing', 'finish', notPrintable, 'finished'],
    ['print', 'finish', printable, 'finished'],
    ['finished', 'close', notPrintable, 'closed'],
    ['checkingout', 'backToNew', notPrintable, 'new'],
    ['execute', 'backToNew', notPrintable, 'revision'],
    ['approve', 'backToNew', notPrintable, 'revision'],
    ['finishing', 'backToNew', notPrintable, 'revision'],
    ['new', 'cancel', notPrintable, 'cancelled'],
    ['execute', 'cancel', notPrintable, 'cancelled'],
  ] as const)('%s --%s--> %s', (from, action, context, to) => {
    expect(nextCaseStatus(from, action, context)).toBe(to);
    expect(canTransition(from, to, context)).toBe(true);
  });

  it.each([
    ['new', 'approve', notPrintable],
    ['new', 'validate', notPrintable],
    ['checkingout', 'requestApproval', notPrintable],
    ['execute', 'approve', notPrintable],
    ['finishing', 'startPrint', notPrintable],
    ['finishing', 'finish', printable],
    ['finished', 'backToNew', notPrintable],
    ['closed', 'close', notPrintable],
    ['cancelled', 'submit', notPrintable],
    ['approve', 'cancel', notPrintable],
    ['print', 'cancel', printable],
  ] as const)('%s cannot %s', (from, action, context) => {
    expect(nextCaseStatus(from, action, context)).toBeNull();
  });

  it('validating a checkout needs the case checks to pass', () => {
    expect(
      nextCaseStatus('checkingout', 'validate', { ...notPrintable, checksPass: false }),
    ).toBeNull();
    expect(nextCaseStatus('checkingout', 'validate', { ...notPrintable, checksPass: true })).toBe(
      'execute',
    );
  });

  it('an archived case makes no move', () => {
    expect(allowedCaseMoves('new', { ...notPrintable, archived: true })).toEqual([]);
  });

  it('no status skips a step forward', () => {
    for (const from of CASE_STATUSES) {
      for (const context of [printable, notPrintable]) {
        for (const move of allowedCaseMoves(from, context)) {
          const a = caseStep(from, { hasPrintStep: context.hasPrintableService });
          const b = caseStep(move.to, { hasPrintStep: context.hasPrintableService });
          if (a !== null && b !== null) expect(b - a).toBeLessThanOrEqual(1);
        }
      }
    }
  });

  it('only approving needs the password', () => {
    expect(CASE_ACTIONS.filter(actionNeedsPassword)).toEqual(['approve']);
  });
});

describe('who may attempt a move', () => {
  it.each([
    ['submit', ['doctor'], true],
    ['submit', ['planner'], false],
    ['requestApproval', ['planner'], true],
    ['requestApproval', ['doctor'], false],
    ['approve', ['clinic'], true],
    ['approve', ['printer'], false],
    ['startPrint', ['printer'], true],
    ['validate', ['supervisor'], true],
    ['validate', ['doctor'], false],
    ['cancel', ['admin'], true],
  ] as const)('%s by %j → %s', (action, roles, ok) =>
    expect(mayPerformCaseAction(action, roles)).toBe(ok),
  );
});

describe('archive is a separate, reversible flag', () => {
  it.each([
    [{ caseStatus: 'finished', caseArchived: false }, true, false],
    [{ caseStatus: 'closed', caseArchived: false }, true, false],
    [{ caseStatus: 'cancelled', caseArchived: false }, true, false],
    [{ caseStatus: 'execute', caseArchived: false }, false, false],
    [{ caseStatus: 'closed', caseArchived: true }, false, true],
    [{ caseStatus: 'archive', caseArchived: false }, false, true],
  ])('%j → archive %s, un-archive %s', (record, archive, unarchivable) => {
    expect(canArchive(record)).toBe(archive);
    expect(canUnarchive(record)).toBe(unarchivable);
  });

  it('un-archiving clears the flag and the legacy status', () => {
    expect(unarchive({ caseStatus: 'closed', caseArchived: true })).toEqual({
      caseStatus: 'closed',
      caseArchived: false,
    });
    const legacy = unarchive({ caseStatus: 'archive', caseArchived: false });
    expect(legacy).toEqual({ caseStatus: 'closed', caseArchived: false });
    expect(isArchived(legacy)).toBe(false);
  });
});

describe('approval requests in approve', () => {
  it.each([
    ['approve', true, 'approve'],
    ['approve', false, null],
    ['execute', false, 'approve'],
  ] as const)('from %s with services to request %s → %s', (from, hasServicesToRequest, to) => {
    expect(
      nextCaseStatus(from, 'requestApproval', {
        hasPrintableService: false,
        hasServicesToRequest,
      }),
    ).toBe(to);
  });
});
