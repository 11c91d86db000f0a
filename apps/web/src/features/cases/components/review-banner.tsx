import { Link } from 'react-router';
import { Alert, Anchor, Button, Group, List, Stack, Text } from '@mantine/core';
import { IconAlertTriangle, IconInfoCircle } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import {
  REVIEW_REASONS,
  clientReviewNotice,
  isStaffReviewReason,
  readsReviewReasons,
  sessionRoles,
  type CaseDetail,
  type CaseReviewDetail,
  type ClientReviewNotice,
} from '@dentflow/domain';
import { showError, showSuccess } from '../../../lib/notify';
import { useProfile } from '../../profile/api/get-profile';
import { useSolveReviews } from '../api/solve-review';

const REASON_KEYS = new Map<number, string>(
  Object.entries(REVIEW_REASONS).map(([key, id]) => [id, key]),
);

/** Reviews about a payment: they link to the case's Transactions tab, where they are handled. */
const PAYMENT_REASONS = new Set<number>([
  REVIEW_REASONS.paymentIssue,
  REVIEW_REASONS.receiptPendingApproval,
  REVIEW_REASONS.pixApproval,
  REVIEW_REASONS.physicalCardApproval,
  REVIEW_REASONS.cancelRequestReview,
]);

/** The client's notices about a payment or a cancel: handled on the Transactions tab too. */
const TRANSACTION_NOTICES = new Set<ClientReviewNotice>([
  'paymentConfirming',
  'paymentIssue',
  'cancelRequest',
]);

const TransactionsLink = () => {
  const { t } = useTranslation();
  return (
    <Anchor component={Link} to="?tab=transactions" size="sm">
      {t('payments:review.openTransactions')}
    </Anchor>
  );
};

/**
 * A case's open reviews. The lab (staff, planners, printers) sees each with its reason;
 * the client sees a staff-reason review as what is happening, in their words, and a free review
 * as a warning. 'Problem solved' solves the open reviews the server marks `canSolve`, and shows
 * only when there is one (a client never closes a payment issue).
 */
export function ReviewBanner({ detail }: { detail: CaseDetail }) {
  const { data: profile } = useProfile();
  const open = detail.reviews.filter((review) => !review.solvedAt);
  if (open.length === 0) return null;
  const lab = readsReviewReasons(sessionRoles(profile?.roles ?? []));
  if (lab) return <ReviewWarning caseId={detail.id} reviews={open} />;
  const free = open.filter((review) => !isStaffReviewReason(review.reasonId));
  const notices = [
    ...new Set(
      open.flatMap((review) =>
        isStaffReviewReason(review.reasonId) ? [clientReviewNotice(review.reasonId)] : [],
      ),
    ),
  ];
  return (
    <Stack gap="sm">
      {notices.length > 0 && <ClientNotices notices={notices} />}
      {free.length > 0 && <ReviewWarning caseId={detail.id} reviews={free} />}
    </Stack>
  );
}

/** Staff-reason reviews as the client reads them: informative, nothing for them to close. */
function ClientNotices({ notices }: { notices: ClientReviewNotice[] }) {
  const { t } = useTranslation();
  return (
    <Alert
      color="blue"
      icon={<IconInfoCircle size={18} />}
      title={t('cases:review.client.title')}
      data-testid="review-client-notices"
    >
      <List size="sm" spacing={4}>
        {notices.map((notice) => (
          <List.Item key={notice}>
            <Text span size="sm">
              {t(`cases:review.client.${notice}`)}
            </Text>
            {TRANSACTION_NOTICES.has(notice) && (
              <>
                {' — '}
                <TransactionsLink />
              </>
            )}
          </List.Item>
        ))}
      </List>
    </Alert>
  );
}

/** Open reviews with their reasons, and 'problem solved' for those this caller may close. */
function ReviewWarning({ caseId, reviews }: { caseId: number; reviews: CaseReviewDetail[] }) {
  const { t } = useTranslation();
  const solve = useSolveReviews(caseId);
  const solvable = reviews.filter((review) => review.canSolve);
  return (
    <Alert color="orange" icon={<IconAlertTriangle size={18} />} title={t('cases:review.title')}>
      <List size="sm" spacing={4}>
        {reviews.map((review) => {
          const key = review.reasonId === null ? undefined : REASON_KEYS.get(review.reasonId);
          return (
            <List.Item key={review.id}>
              <Text span fw={600} size="sm">
                {key ? t(`domain:reviewReasons.${key}`) : t('cases:review.other')}
              </Text>
              {review.description ? (
                <Text span size="sm">
                  {' — '}
                  {review.description}
                </Text>
              ) : null}
              {review.reasonId !== null && PAYMENT_REASONS.has(review.reasonId) ? (
                <>
                  {' — '}
                  <TransactionsLink />
                </>
              ) : null}
            </List.Item>
          );
        })}
      </List>
      {solvable.length > 0 && (
        <Group mt="sm">
          <Button
            size="xs"
            color="orange"
            loading={solve.isPending}
            onClick={() =>
              solve.mutate(
                solvable.map((review) => review.id),
                {
                  onSuccess: () => showSuccess(t('cases:review.solved')),
                  onError: showError,
                },
              )
            }
          >
            {t('caseActions.problemSolved', { ns: 'domain' })}
          </Button>
        </Group>
      )}
    </Alert>
  );
}
