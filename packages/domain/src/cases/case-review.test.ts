import { describe, expect, it } from 'vitest';
import {
  REVIEW_REASONS,
  REVIEW_REASON_KEYS,
  clientReviewNotice,
  isStaffReviewReason,
  readsReviewReasons,
  type ClientReviewNotice,
  type ReviewReasonKey,
} from './case-review';

describe("a client's reading of a staff-reason review", () => {
  const TABLE: Record<ReviewReasonKey, ClientReviewNotice> = {
    plannerNotSet: 'teamReviewing',
    caseUpgraded: 'teamReviewing',
    planningDeadlineNear: 'teamReviewing',
    paymentIssue: 'paymentIssue',
    receiptPendingApproval: 'paymentConfirming',
    pixApproval: 'paymentConfirming',
    physicalCardApproval: 'paymentConfirming',
    cancelRequestReview: 'cancelRequest',
  };
  it.each(REVIEW_REASON_KEYS)('%s', (key) => {
    expect(clientReviewNotice(REVIEW_REASONS[key])).toBe(TABLE[key]);
  });

  it('reads an unknown (legacy) reason as a team review', () => {
    expect(clientReviewNotice(99)).toBe('teamReviewing');
  });
});

describe('staff reasons', () => {
  it.each([
    [null, false],
    [REVIEW_REASONS.plannerNotSet, true],
    [REVIEW_REASONS.paymentIssue, true],
    [REVIEW_REASONS.cancelRequestReview, true],
    [99, true],
  ])('reason %s is a staff reason: %s', (reasonId, staff) => {
    expect(isStaffReviewReason(reasonId)).toBe(staff);
  });
});

describe('who reads the staff reason itself', () => {
  it.each([
    [['admin'], true],
    [['supervisor'], true],
    [['planner'], true],
    [['printer'], true],
    [['clinic'], false],
    [['doctor'], false],
    [['partner'], false],
    [['instructor'], false],
    [['doctor', 'planner'], true],
  ])('%j: %s', (roles, reads) => {
    expect(readsReviewReasons(roles)).toBe(reads);
  });
});
