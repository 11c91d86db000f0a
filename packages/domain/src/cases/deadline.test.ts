import { describe, expect, it } from 'vitest';
import { isOneOf } from '../common/one-of';
import { CASE_STATUSES, type CaseStatus } from './case-status';
import {
  addBusinessDays,
  caseDeadline,
  DEADLINE_SETTLED_STATUSES,
  isDeadlineNear,
} from './deadline';

// 2026-11-23 is a Monday.
const d = (iso: string) => new Date(iso);

describe('addBusinessDays / caseDeadline', () => {
  it.each([
    ['Mon +0', '2026-11-23T10:15:00Z', [0], '2026-11-23T10:15:00Z'],
    ['Mon +1', '2026-11-23T10:15:00Z', [1], '2026-11-24T10:15:00Z'],
    ['Mon +4 → Fri', '2026-11-23T10:15:00Z', [4], '2026-11-27T10:15:00Z'],
    ['Mon +5 → next Mon', '2026-11-23T10:15:00Z', [5], '2026-11-30T10:15:00Z'],
    ['Thu +2 → Mon', '2026-11-26T23:59:00Z', [2], '2026-11-30T23:59:00Z'],
    ['Fri +1 → Mon', '2026-11-27T08:00:00Z', [1], '2026-11-30T08:00:00Z'],
    ['Fri +10 → Fri two weeks on', '2026-11-27T08:00:00Z', [10], '2026-12-11T08:00:00Z'],
    ['Sat +0 → Mon', '2026-11-28T09:00:00Z', [0], '2026-11-30T09:00:00Z'],
    ['Sat +1 → Tue', '2026-11-28T09:00:00Z', [1], '2026-12-01T09:00:00Z'],
    ['Sun +1 → Tue', '2026-11-29T09:00:00Z', [1], '2026-12-01T09:00:00Z'],
    ['largest of several', '2026-11-23T10:00:00Z', [1, 3, 2], '2026-11-26T10:00:00Z'],
    ['no services', '2026-11-23T10:00:00Z', [], '2026-11-23T10:00:00Z'],
    ['negative is 0', '2026-11-23T10:00:00Z', [-3], '2026-11-23T10:00:00Z'],
  ] as const)('%s', (_label, from, times, expected) => {
    expect(caseDeadline(d(from), [...times]).toISOString()).toBe(d(expected).toISOString());
  });

  it('never lands on a weekend and never goes back in time', () => {
    for (let day = 0; day < 14; day += 1) {
      for (let n = 0; n < 12; n += 1) {
        const from = new Date(Date.UTC(2026, 10, 23 + day, 12));
        const to = addBusinessDays(from, n);
        expect([0, 6]).not.toContain(to.getUTCDay());
        expect(to.getTime()).toBeGreaterThanOrEqual(from.getTime());
      }
    }
  });
});

describe('isDeadlineNear', () => {
  const now = d('2026-11-23T12:00:00Z');
  it.each([
    ['no deadline', null, 'execute', false],
    ['two days ahead', '2026-11-25T12:00:00Z', 'execute', false],
    ['just over a day', '2026-11-24T12:00:01Z', 'execute', false],
    ['exactly one day', '2026-11-24T12:00:00Z', 'execute', true],
    ['in an hour', '2026-11-23T13:00:00Z', 'approve', true],
    ['past', '2026-11-20T12:00:00Z', 'checkingout', true],
  ] as const)('%s', (_label, deadline, status, near) => {
    expect(isDeadlineNear(deadline ? d(deadline) : null, now, status)).toBe(near);
    // The web passes the API's ISO text: the same answer.
    expect(isDeadlineNear(deadline, now, status)).toBe(near);
  });

  it.each([
    ['empty text', ''],
    ['unreadable text', 'soon'],
    ['invalid date', new Date(Number.NaN)],
    ['undefined', undefined],
  ] as const)('%s is never near', (_label, deadline) => {
    expect(isDeadlineNear(deadline, now, 'execute')).toBe(false);
  });

  // A case whose planning is done (finishing, print, finished, closed), cancelled or in the legacy
  // archive status is not near its deadline, even an hour before it.
  const byStatus: Record<CaseStatus, boolean> = {
    new: true,
    checkingout: true,
    execute: true,
    approve: true,
    finishing: false,
    print: false,
    finished: false,
    revision: true,
    closed: false,
    cancelled: false,
    archive: false,
  };
  it.each(CASE_STATUSES)('status %s', (status) => {
    expect(isDeadlineNear(d('2026-11-23T13:00:00Z'), now, status)).toBe(byStatus[status]);
    expect(isOneOf(DEADLINE_SETTLED_STATUSES, status)).toBe(!byStatus[status]);
  });
});
