import { useState } from 'react';
import { Badge, Button, Group, Paper, Table, Text, Title } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { formatDate } from '../../../lib/format-date';
import { showError, showSuccess } from '../../../lib/notify';
import { ConfirmDialog } from '../../../lib/ui/confirm-dialog';
import {
  useResendInvitation,
  useRevokeInvitation,
  type PendingInvitation,
} from '../api/students-api';

/** Invitations not yet used: send again (a new link, 14 more days) or revoke after a confirm. */
export function PendingInvitations({ invitations }: { invitations: PendingInvitation[] }) {
  const { t } = useTranslation();
  const resend = useResendInvitation();
  const revoke = useRevokeInvitation();
  const [revoking, setRevoking] = useState<PendingInvitation | null>(null);

  const resendOne = (invitation: PendingInvitation) =>
    resend.mutate(invitation.id, {
      onSuccess: () => showSuccess(t('admin:students.pending.resent', { email: invitation.email })),
      onError: showError,
    });

  const confirmRevoke = () => {
    if (!revoking) return;
    revoke.mutate(revoking.id, {
      onSuccess: () => {
        showSuccess(t('admin:students.pending.revoked', { email: revoking.email }));
        setRevoking(null);
      },
      onError: showError,
    });
  };

  return (
    <Paper withBorder p="md" radius="md">
      <Title order={2} size="h4" mb="sm">
        {t('admin:students.pending.title')}
      </Title>
      {invitations.length === 0 ? (
        <Text c="dimmed" size="sm">
          {t('admin:students.pending.empty')}
        </Text>
      ) : (
        <Table.ScrollContainer minWidth={560}>
          <Table aria-label={t('admin:students.pending.title')}>
            <Table.Thead>
              <Table.Tr>
                <Table.Th>{t('admin:students.pending.email')}</Table.Th>
                <Table.Th>{t('admin:students.pending.language')}</Table.Th>
                <Table.Th>{t('admin:students.pending.expires')}</Table.Th>
                <Table.Th />
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {invitations.map((invitation) => (
                <Table.Tr key={invitation.id}>
                  <Table.Td>{invitation.email}</Table.Td>
                  <Table.Td>{t(`language.short.${invitation.language}`)}</Table.Td>
                  <Table.Td>
                    {invitation.expired ? (
                      <Badge color="gray" variant="light">
                        {t('admin:students.pending.expired')}
                      </Badge>
                    ) : (
                      formatDate(invitation.expiresAt)
                    )}
                  </Table.Td>
                  <Table.Td>
                    <Group gap="xs" justify="flex-end" wrap="nowrap">
                      <Button
                        size="xs"
                        variant="light"
                        loading={resend.isPending && resend.variables === invitation.id}
                        onClick={() => resendOne(invitation)}
                        aria-label={`${t('admin:students.pending.resend')} ${invitation.email}`}
                      >
                        {t('admin:students.pending.resend')}
                      </Button>
                      <Button
                        size="xs"
                        variant="light"
                        color="red"
                        onClick={() => setRevoking(invitation)}
                        aria-label={`${t('admin:students.pending.revoke')} ${invitation.email}`}
                      >
                        {t('admin:students.pending.revoke')}
                      </Button>
                    </Group>
                  </Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        </Table.ScrollContainer>
      )}
      <ConfirmDialog
        opened={revoking !== null}
        title={t('admin:students.pending.revokeTitle')}
        message={t('admin:students.pending.revokeMessage', { email: revoking?.email ?? '' })}
        confirmLabel={t('admin:students.pending.revokeConfirm')}
        danger
        loading={revoke.isPending}
        onConfirm={confirmRevoke}
        onClose={() => setRevoking(null)}
      />
    </Paper>
  );
}
