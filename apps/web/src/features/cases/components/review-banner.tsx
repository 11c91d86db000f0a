import { Link } from 'react-router';
import { Alert, Anchor, Button, Group, List, Text } from '@mantine/core';
import { IconAlertTriangle } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import { REVIEW_REASONS, isSupervisor, sessionRoles, type CaseDetail } from '@dentflow/domain';
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

/** Spec §4 review: the open reviews and 'problem solved' for a supervisor or the owner. */
export function ReviewBanner({ detail }: { detail: CaseDetail }) {
  const { t } = useTranslation();
  const { data: profile } = useProfile();
  const solve = useSolveReviews(detail.id);
  const open = detail.reviews.filter((review) => !review.solvedAt);
  if (open.length === 0) return null;
  const roles = sessionRoles(profile?.roles ?? []);
  const maySolve =
    !detail.readOnly &&
    !detail.caseArchived &&
    (isSupervisor(roles) || profile?.id === detail.ownerId);

  return (
    <Alert color="orange" icon={<IconAlertTriangle size={18} />} title={t('cases:review.title')}>
      <List size="sm" spacing={4}>
        {open.map((review) => {
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
                  <Anchor component={Link} to="?tab=transactions" size="sm">
                    {t('payments:review.openTransactions')}
                  </Anchor>
                </>
              ) : null}
            </List.Item>
          );
        })}
      </List>
      {maySolve && (
        <Group mt="sm">
          <Button
            size="xs"
            color="orange"
            loading={solve.isPending}
            onClick={() =>
              solve.mutate(
                open.map((review) => review.id),
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
