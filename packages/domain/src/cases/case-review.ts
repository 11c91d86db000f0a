import { z } from 'zod';

/** Spec §4 review: a case is in review while at least one review record is open. */
export const REVIEW_REASONS = {
  plannerNotSet: 1,
  caseUpgraded: 2,
  planningDeadlineNear: 3,
  paymentIssue: 4,
  receiptPendingApproval: 5,
  pixApproval: 6,
  physicalCardApproval: 7,
  cancelRequestReview: 8,
} as const;
export type ReviewReasonKey = keyof typeof REVIEW_REASONS;
export type ReviewReasonId = (typeof REVIEW_REASONS)[ReviewReasonKey];
export const REVIEW_REASON_KEYS = Object.keys(REVIEW_REASONS) as ReviewReasonKey[];

export const caseReviewSchema = z.object({
  id: z.number().int(),
  /** A review reason key, optionally followed by details. */
  description: z.string().max(1000),
  solvedAt: z.string().nullable(),
});
export type CaseReview = z.infer<typeof caseReviewSchema>;

/**
 * "Review = at least one review record". Solved records stay for history, so only records
 * without solvedAt keep the case in review; 'problem solved' sets solvedAt on them.
 */
export const openReviews = (reviews: readonly CaseReview[] | null | undefined) =>
  (reviews ?? []).filter((review) => !review.solvedAt);

export const isInReview = (reviews: readonly CaseReview[] | null | undefined) =>
  openReviews(reviews).length > 0;

export const canMarkProblemSolved = isInReview;

/** 'Problem solved': every open review gets solvedAt = now. */
export function markProblemSolved(reviews: readonly CaseReview[], nowIso: string): CaseReview[] {
  return reviews.map((review) => (review.solvedAt ? review : { ...review, solvedAt: nowIso }));
}
