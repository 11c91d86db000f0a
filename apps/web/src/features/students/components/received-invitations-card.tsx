import { Button, Group, Paper, Stack, Text, Title } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { formatDate } from '../../../lib/format-date';
import { showError, showSuccess } from '../../../lib/notify';
import {
  useAcceptReceivedInvitation,
  useReceivedInvitations,
  type ReceivedInvitation,
} from '../api/students-api';

/**
 * The profile's invitations from instructors (sent to the user's email): accepting one makes the
 * user that instructor's student with their shop discount. Shown only when there is one.
 */
export function ReceivedInvitationsCard() {
  const { t } = useTranslation();
  const { data: invitations } = useReceivedInvitations();
  const accept = useAcceptReceivedInvitation();
  if (!invitations?.length) return null;

  const acceptOne = (invitation: ReceivedInvitation) =>
    accept.mutate(invitation.id, {
      onSuccess: () =>
        showSuccess(
          t('admin:students.register.accepted', { instructor: invitation.instructorName }),
        ),
      onError: showError,
    });

  const title = t('admin:students.received.title');
  return (
    <Paper withBorder p="md" radius="md" component="section" aria-label={title}>
      <Title order={2} size="h4" mb="sm">
        {title}
      </Title>
      <Stack gap="sm">
        {invitations.map((invitation) => (
          <Group key={invitation.id} justify="space-between" wrap="wrap" gap="sm">
            <div>
              <Text fw={500}>{invitation.instructorName}</Text>
              <Text size="sm" c="dimmed">
                {invitation.discount > 0
                  ? t('admin:students.received.discount', { discount: invitation.discount })
                  : t('admin:students.received.noDiscount')}
                {' · '}
                {t('admin:students.received.expires', { date: formatDate(invitation.expiresAt) })}
              </Text>
            </div>
            <Button
              size="xs"
              loading={accept.isPending && accept.variables === invitation.id}
              // One at a time: each accept changes who the user's instructor is.
              disabled={accept.isPending && accept.variables !== invitation.id}
              onClick={() => acceptOne(invitation)}
              aria-label={`${t('admin:students.received.accept')} ${invitation.instructorName}`}
            >
              {t('admin:students.received.accept')}
            </Button>
          </Group>
        ))}
      </Stack>
    </Paper>
  );
}
