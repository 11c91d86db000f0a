import { useState } from 'react';
import { Button, Group, Paper, Skeleton, Text, Title } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { ConfirmDialog } from '../../../lib/ui/confirm-dialog';
import { showError, showSuccess } from '../../../lib/notify';
import { useLeaveInstructor, useMyInstructor } from '../api/students-api';

/**
 * The user's instructor and the shop discount they get through them; leaving (after a
 * confirmation) ends the discount and the instructor's view of the user's cases.
 */
export function MyInstructorCard() {
  const { t } = useTranslation();
  const { data: instructor, isPending } = useMyInstructor();
  const leave = useLeaveInstructor();
  const [confirming, setConfirming] = useState(false);
  const title = t('admin:connections.instructor.title');

  return (
    <Paper withBorder p="md" radius="md" component="section" aria-label={title}>
      <Title order={2} size="h4" mb="sm">
        {title}
      </Title>
      {isPending ? (
        <Skeleton h={40} />
      ) : !instructor ? (
        <Text c="dimmed">{t('admin:connections.instructor.none')}</Text>
      ) : (
        <Group justify="space-between" wrap="wrap" gap="sm">
          <div>
            <Text fw={500}>{instructor.displayName}</Text>
            <Text size="sm" c="dimmed">
              {instructor.email}
            </Text>
            <Text size="sm" data-testid="my-instructor-discount">
              {instructor.discount > 0
                ? t('admin:connections.instructor.discount', { discount: instructor.discount })
                : t('admin:connections.instructor.noDiscount')}
            </Text>
          </div>
          <Button variant="light" color="red" onClick={() => setConfirming(true)}>
            {t('admin:connections.instructor.leave')}
          </Button>
        </Group>
      )}
      <ConfirmDialog
        opened={confirming}
        title={t('admin:connections.instructor.leave')}
        message={t('admin:connections.instructor.leaveConfirm', {
          instructor: instructor?.displayName ?? '',
        })}
        confirmLabel={t('admin:connections.instructor.leave')}
        danger
        loading={leave.isPending}
        onClose={() => setConfirming(false)}
        onConfirm={() =>
          instructor &&
          leave.mutate(instructor.id, {
            onSuccess: () => showSuccess(t('admin:connections.instructor.left')),
            onError: showError,
            onSettled: () => setConfirming(false),
          })
        }
      />
    </Paper>
  );
}
