import { useState } from 'react';
import { useNavigate } from 'react-router';
import { Avatar, Button, Group, Stack, Text, Title } from '@mantine/core';
import { IconKey, IconMailForward, IconPhotoOff, IconTrash } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import type { AdminUser } from '@dentflow/domain';
import { formatDate } from '../../../lib/format-date';
import { showError, showSuccess } from '../../../lib/notify';
import { ConfirmDialog } from '../../../lib/ui/confirm-dialog';
import { useDeleteUser, useRemoveUserAvatar, useResendVerification } from '../api/account-actions';
import { DeleteUserDialog } from './delete-user-dialog';
import { SetPasswordDialog } from './set-password-dialog';
import { InternalBadge, VerifiedBadge } from './user-badges';

type Dialog = 'password' | 'avatar' | 'delete' | null;

/** Who the user is, and the account actions the caller may take (`canEdit`, `canDelete`). */
export function UserHeader({ user }: { user: AdminUser }) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const [dialog, setDialog] = useState<Dialog>(null);
  const resend = useResendVerification(user.id);
  const removeAvatar = useRemoveUserAvatar(user.id);
  const remove = useDeleteUser(user.id);
  const general = user.dataGeneral;
  const verified = user.verified_at !== null;

  const sendVerification = () =>
    resend.mutate(undefined, {
      onSuccess: () => showSuccess(t('admin:users.resent', { email: general.email })),
      onError: showError,
    });

  const confirmAvatarRemoval = () =>
    removeAvatar.mutate(undefined, {
      onSuccess: () => {
        showSuccess(t('admin:users.avatar.removed'));
        setDialog(null);
      },
      onError: showError,
    });

  const confirmDelete = () =>
    remove.mutate(undefined, {
      onSuccess: () => {
        showSuccess(t('admin:users.delete.done', { email: general.email }));
        setDialog(null);
        void navigate('/users');
      },
      onError: showError,
    });

  return (
    <Stack gap="sm">
      <Group gap="md" wrap="nowrap" align="flex-start">
        <Avatar src={general.avatar} size={64} radius="xl" name={general.displayName} />
        <Stack gap={4} style={{ minWidth: 0 }}>
          <Title order={1} size="h2" style={{ wordBreak: 'break-word' }}>
            {general.displayName || general.email}
          </Title>
          <Text size="sm" style={{ wordBreak: 'break-all' }}>
            {general.email}
          </Text>
          <Group gap={4}>
            <VerifiedBadge verified={verified} />
            <InternalBadge internal={user.internal} />
          </Group>
          <Text size="xs" c="dimmed">
            {t('admin:users.createdAt', { date: formatDate(user.created_at) })}
          </Text>
        </Stack>
      </Group>
      {(user.canEdit || user.canDelete) && (
        <Group gap="xs" data-testid="user-account-actions">
          {user.canEdit && !verified && (
            <Button
              variant="light"
              size="xs"
              leftSection={<IconMailForward size={16} />}
              loading={resend.isPending}
              onClick={sendVerification}
              data-testid="user-resend-verification"
            >
              {t('admin:users.resend')}
            </Button>
          )}
          {user.canEdit && (
            <Button
              variant="light"
              size="xs"
              leftSection={<IconKey size={16} />}
              onClick={() => setDialog('password')}
              data-testid="user-set-password"
            >
              {t('admin:users.password.open')}
            </Button>
          )}
          {user.canEdit && general.avatar && (
            <Button
              variant="light"
              size="xs"
              color="orange"
              leftSection={<IconPhotoOff size={16} />}
              onClick={() => setDialog('avatar')}
              data-testid="user-remove-avatar"
            >
              {t('admin:users.avatar.remove')}
            </Button>
          )}
          {user.canDelete && (
            <Button
              variant="light"
              size="xs"
              color="red"
              leftSection={<IconTrash size={16} />}
              onClick={() => setDialog('delete')}
              data-testid="user-delete"
            >
              {t('admin:users.delete.open')}
            </Button>
          )}
        </Group>
      )}
      <SetPasswordDialog
        userId={user.id}
        opened={dialog === 'password'}
        onClose={() => setDialog(null)}
      />
      <ConfirmDialog
        opened={dialog === 'avatar'}
        title={t('admin:users.avatar.title')}
        message={t('admin:users.avatar.message', { name: general.displayName })}
        confirmLabel={t('admin:users.avatar.remove')}
        danger
        loading={removeAvatar.isPending}
        onConfirm={confirmAvatarRemoval}
        onClose={() => setDialog(null)}
      />
      <DeleteUserDialog
        email={general.email}
        opened={dialog === 'delete'}
        loading={remove.isPending}
        onConfirm={confirmDelete}
        onClose={() => setDialog(null)}
      />
    </Stack>
  );
}
