import { describe, expect, it } from 'vitest';
import {
  canConfirmServiceSelection,
  charactersLeft,
  initialServiceSelection,
  isApproveDialogValid,
  servicesToApprove,
} from './approve';
import { hasPrintableService, isApproved, isPendingApproval } from './case-service';
import { isInReview, markProblemSolved, openReviews, REVIEW_REASONS } from './case-review';

describe('approve dialog: password required when approving; text non-empty within the limit (default 100)', () => {
  it.each([
    [{ password: 'secret', text: 'ok' }, { approving: true }, true],
    [{ password: '', text: 'ok' }, { approving: true }, false],
    [{ text: 'ok' }, { approving: true }, false],
    [{ password: 'secret', text: '  ' }, { approving: true }, false],
    [{ text: 'please move tooth 11' }, { approving: false }, true],
    [{ text: '' }, { approving: false }, false],
    [{ password: 'x', text: 'x'.repeat(100) }, { approving: true }, true],
    [{ password: 'x', text: 'x'.repeat(101) }, { approving: true }, false],
    [{ password: 'x', text: 'x'.repeat(101) }, { approving: true, limit: 200 }, true],
  ])('%j %j → %s', (values, options, ok) => expect(isApproveDialogValid(values, options)).toBe(ok));

  it('counts characters left', () => {
    expect(charactersLeft('abc')).toBe(97);
    expect(charactersLeft('abc', 10)).toBe(7);
  });
});

const service = (id: number, approveRequestAt: string | null, approveAt: string | null) => ({
  id,
  approveRequestAt,
  approveAt,
});

describe('service approval states', () => {
  it.each([
    [null, null, false, false],
    ['2024-01-01', null, true, false],
    ['2024-01-01', '2024-01-02', false, true],
  ])('requested %s approved %s → pending %s, approved %s', (req, at, pending, approved) => {
    expect(isPendingApproval(service(1, req, at))).toBe(pending);
    expect(isApproved(service(1, req, at))).toBe(approved);
  });

  it('print step from printable services', () => {
    expect(hasPrintableService([{ printableProduct: false }, { printableProduct: true }])).toBe(
      true,
    );
    expect(hasPrintableService([{ printableProduct: false }])).toBe(false);
  });
});

describe('choose services to approve: at least one; every pending one is preselected', () => {
  const services = [
    service(1, '2024-01-01', null),
    service(2, null, null),
    service(3, '2024-01-01', '2024-01-02'),
  ];
  it('offers only pending services', () =>
    expect(servicesToApprove(services).map((s) => s.id)).toEqual([1]));
  it.each([
    [[{ id: 5 }], [5]],
    [
      [{ id: 5 }, { id: 6 }],
      [5, 6],
    ],
    [[], []],
  ])('initial selection of %j → %j', (candidates, selection) =>
    expect(initialServiceSelection(candidates)).toEqual(selection),
  );
  it.each([
    [[5], true],
    [[], false],
    [[9], false],
    [[5, 6], true],
  ])('selected %j → %s', (selected, ok) =>
    expect(canConfirmServiceSelection(selected, [{ id: 5 }, { id: 6 }])).toBe(ok),
  );
});

describe('review: at least one open record; problem solved closes them', () => {
  it('has the eight spec reasons', () => expect(Object.keys(REVIEW_REASONS)).toHaveLength(8));
  it('review lifecycle', () => {
    const reviews = [
      { id: 1, description: 'paymentIssue', solvedAt: null },
      { id: 2, description: 'plannerNotSet', solvedAt: '2024-01-01T00:00:00Z' },
    ];
    expect(isInReview(reviews)).toBe(true);
    expect(openReviews(reviews).map((r) => r.id)).toEqual([1]);
    const solved = markProblemSolved(reviews, '2024-02-02T00:00:00Z');
    expect(isInReview(solved)).toBe(false);
    expect(solved[1]?.solvedAt).toBe('2024-01-01T00:00:00Z');
    expect(isInReview([])).toBe(false);
  });
});
