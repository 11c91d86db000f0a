import { useState } from 'react';
import { Button, Select } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import {
  REVIEW_REASONS,
  REVIEW_REASON_KEYS,
  isPlanner,
  sessionRoles,
  type CaseDetail,
} from '@dentflow/domain';
import { showError, showSuccess } from '../../../lib/notify';
import { TextDialog } from '../../../lib/ui/text-dialog';
import { useProfile } from '../../profile/api/get-profile';
import { useOpenReview } from '../api/open-review';

/** Review: a supervisor or a planner puts the case in review, with a reason and a text. */
export function OpenReviewButton({ detail }: { detail: CaseDetail }) {
  const { t } = useTranslation();
  const { data: profile } = useProfile();
  const openReview = useOpenReview(detail.id);
  const [opened, setOpened] = useState(false);
  const [reason, setReason] = useState<string | null>(null);
  // isPlanner covers supervisors and admins too.
  if (!isPlanner(sessionRoles(profile?.roles ?? [])) || detail.readOnly || detail.caseArchived) {
    return null;
  }
  const close = () => {
    setOpened(false);
    setReason(null);
  };
  return (
    <>
      <Button size="sm" variant="default" onClick={() => setOpened(true)}>
        {t('cases:review.open')}
      </Button>
      <TextDialog
        opened={opened}
        title={t('cases:review.open')}
        label={t('cases:review.description')}
        submitLabel={t('cases:review.open')}
        loading={openReview.isPending}
        onClose={close}
        onSubmit={(description) =>
          openReview.mutate(
            {
              description,
              ...(reason
                ? { reasonId: REVIEW_REASONS[reason as keyof typeof REVIEW_REASONS] }
                : {}),
            },
            {
              onSuccess: () => {
                showSuccess(t('cases:review.opened'));
                close();
              },
              onError: showError,
            },
          )
        }
      >
        <Select
          label={t('cases:review.reason')}
          placeholder={t('cases:review.other')}
          data={REVIEW_REASON_KEYS.map((key) => ({
            value: key,
            label: t(`domain:reviewReasons.${key}`),
          }))}
          value={reason}
          onChange={setReason}
          clearable
        />
      </TextDialog>
    </>
  );
}
