import { useState, type ReactNode } from 'react';
import { useNavigate } from 'react-router';
import { Button, Group, Modal, Text } from '@mantine/core';
import { useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { profileGap } from '@dentflow/domain';
import { ApiError } from '../../../lib/api-client';
import { profileQueryOptions } from '../api/get-profile';

/**
 * The 'Profile information missing' dialog. `catchRefusal` opens it for a refusal that is about
 * the profile: PROFILE_INCOMPLETE (opening a case or checking out; the button then goes to the
 * profile tab missing data, by the domain's `profileGap`) or, with `onSave`, a profile save the
 * server refused for missing or invalid data. Other errors are left to the caller (false).
 */
export function useProfileMissingDialog(options: { onSave?: boolean } = {}): {
  catchRefusal: (error: unknown) => boolean;
  dialog: ReactNode;
} {
  const { t } = useTranslation();
  const navigate = useNavigate();
  // Read when the user follows the dialog, not subscribed: every form using the hook would
  // otherwise load the profile it was given.
  const queryClient = useQueryClient();
  const [refusal, setRefusal] = useState<{ message: string; goToProfile: boolean } | null>(null);

  const catchRefusal = (error: unknown) => {
    if (!(error instanceof ApiError)) return false;
    if (error.code === 'PROFILE_INCOMPLETE') {
      setRefusal({ message: error.message, goToProfile: true });
      return true;
    }
    if (options.onSave && error.code === 'VALIDATION_ERROR') {
      setRefusal({ message: error.message, goToProfile: false });
      return true;
    }
    return false;
  };

  const close = () => setRefusal(null);
  const goToProfile = async () => {
    close();
    const profile = await queryClient.ensureQueryData(profileQueryOptions()).catch(() => null);
    await navigate(`/profile-settings?tab=${profileGap(profile) ?? 'general'}`);
  };

  const dialog = (
    <Modal
      opened={refusal !== null}
      onClose={close}
      title={t('profile.missing.title')}
      centered
      data-testid="profile-missing-dialog"
    >
      <Text mb="xs">{refusal?.message}</Text>
      <Text size="sm" c="dimmed" mb="lg">
        {t('profile.missing.body')}
      </Text>
      <Group justify="flex-end">
        {refusal?.goToProfile ? (
          <>
            <Button variant="default" onClick={close}>
              {t('profile.missing.later')}
            </Button>
            <Button onClick={() => void goToProfile()} data-autofocus>
              {t('startup.completeProfileAction')}
            </Button>
          </>
        ) : (
          <Button onClick={close} data-autofocus>
            {t('profile.missing.ok')}
          </Button>
        )}
      </Group>
    </Modal>
  );
  return { catchRefusal, dialog };
}
