import { z } from 'zod';
import { isPlanner, isPrinter } from '../auth/roles';

/** Review: a case is in review while at least one review record is open. */
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

/**
 * A staff reason: any of the eight reasons (a review without one is free text for the client).
 * An id outside the list (a legacy record) counts as one too, so staff keep it.
 */
export const isStaffReviewReason = (reasonId: number | null): reasonId is number =>
  reasonId !== null;

/** The staff reasons the case's planner also closes: their own planning work. */
export const PLANNER_REVIEW_REASONS: readonly number[] = [
  REVIEW_REASONS.plannerNotSet,
  REVIEW_REASONS.planningDeadlineNear,
];

/**
 * How a client reads an open staff-reason review: what is happening, in their words, instead
 * of the lab's reason (message keys under `cases:review.client`).
 */
export const CLIENT_REVIEW_NOTICES = [
  'paymentConfirming',
  'paymentIssue',
  'cancelRequest',
  'teamReviewing',
] as const;
export type ClientReviewNotice = (typeof CLIENT_REVIEW_NOTICES)[number];

const CLIENT_NOTICE_OF_REASON: Record<ReviewReasonId, ClientReviewNotice> = {
  [REVIEW_REASONS.plannerNotSet]: 'teamReviewing',
  [REVIEW_REASONS.caseUpgraded]: 'teamReviewing',
  [REVIEW_REASONS.planningDeadlineNear]: 'teamReviewing',
  [REVIEW_REASONS.paymentIssue]: 'paymentIssue',
  [REVIEW_REASONS.receiptPendingApproval]: 'paymentConfirming',
  [REVIEW_REASONS.pixApproval]: 'paymentConfirming',
  [REVIEW_REASONS.physicalCardApproval]: 'paymentConfirming',
  [REVIEW_REASONS.cancelRequestReview]: 'cancelRequest',
};

/**
 * The lab (supervisors, admins, planners, printers) reads a review's staff reason as it is; the
 * client side (clinics, doctors, partners, instructors) reads its `clientReviewNotice` instead.
 */
export const readsReviewReasons = (roles: readonly string[]) =>
  isPlanner(roles) || isPrinter(roles);

/** The client's notice of a staff reason; an unknown (legacy) reason reads as a team review. */
export const clientReviewNotice = (reasonId: number): ClientReviewNotice =>
  CLIENT_NOTICE_OF_REASON[reasonId as ReviewReasonId] ?? 'teamReviewing';

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

/** 'Problem solved': every open review gets solvedAt = now. */
export function markProblemSolved(reviews: readonly CaseReview[], nowIso: string): CaseReview[] {
  return reviews.map((review) => (review.solvedAt ? review : { ...review, solvedAt: nowIso }));
}
