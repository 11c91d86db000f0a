import { useState } from 'react';
import { Avatar, Button, FileButton, Group, Progress, Stack, Text } from '@mantine/core';
import { IconTrash, IconUpload } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import {
  AVATAR_ACCEPT,
  avatarRejection,
  isAdmin,
  personDisplayName,
  sessionRoles,
  type UserProfile,
} from '@dentflow/domain';
import { showError, showSuccess } from '../../../lib/notify';
import { useRemoveAvatar } from '../api/remove-avatar';
import { useUploadAvatar } from '../api/upload-avatar';

/**
 * Avatar upload: image files only (JPG, GIF or PNG up to 800 kB, checked here before the
 * upload and again on the server); the removal control is shown only to admins.
 */
export function AvatarField({ profile }: { profile: UserProfile }) {
  const { t } = useTranslation();
  const [percent, setPercent] = useState(0);
  const upload = useUploadAvatar(setPercent);
  const remove = useRemoveAvatar();
  const general = profile.dataGeneral;
  const name = general.displayName || personDisplayName(general) || general.email;
  const admin = isAdmin(sessionRoles(profile.roles));

  const choose = (file: File | null) => {
    if (!file) return;
    const rejection = avatarRejection(file);
    if (rejection) {
      showError(
        new Error(t(rejection === 'type' ? 'files:avatar.wrongType' : 'files:avatar.tooLarge')),
      );
      return;
    }
    setPercent(0);
    upload.mutate(file, {
      onSuccess: () => showSuccess(t('files:avatar.saved')),
      onError: showError,
    });
  };

  return (
    <Group gap="md" wrap="nowrap" align="center">
      <Avatar
        src={general.avatar || null}
        alt={t('files:avatar.label')}
        size={72}
        radius="xl"
        color="dentflow"
        data-testid="profile-avatar"
      >
        {name.slice(0, 1).toUpperCase()}
      </Avatar>
      <Stack gap={6}>
        <Text size="sm" fw={500}>
          {t('files:avatar.label')}
        </Text>
        <Group gap="xs">
          <FileButton onChange={choose} accept={AVATAR_ACCEPT}>
            {(props) => (
              <Button
                {...props}
                size="xs"
                variant="light"
                leftSection={<IconUpload size={14} />}
                loading={upload.isPending}
              >
                {t('files:avatar.change')}
              </Button>
            )}
          </FileButton>
          {admin && general.avatar && (
            <Button
              size="xs"
              variant="subtle"
              color="red"
              leftSection={<IconTrash size={14} />}
              loading={remove.isPending}
              onClick={() =>
                remove.mutate(profile.id, {
                  onSuccess: () => showSuccess(t('files:avatar.removed')),
                  onError: showError,
                })
              }
            >
              {t('files:avatar.remove')}
            </Button>
          )}
        </Group>
        {upload.isPending ? (
          <Stack gap={2} w={200}>
            <Progress value={percent} size="sm" aria-label={t('files:avatar.label')} />
            <Text size="xs" c="dimmed">
              {t('files:avatar.uploading', { percent })}
            </Text>
          </Stack>
        ) : (
          <Text size="xs" c="dimmed">
            {t('files:avatar.hint')}
          </Text>
        )}
      </Stack>
    </Group>
  );
}
