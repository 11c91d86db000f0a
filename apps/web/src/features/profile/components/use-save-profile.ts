import { useNavigate } from 'react-router';
import { useTranslation } from 'react-i18next';
import { isProfileComplete, type UserProfile } from '@dentflow/domain';
import { showSuccess } from '../../../lib/notify';
import { useSetProfile, type ProfilePatch } from '../api/set-profile';

/**
 * Saves a part of the profile. When the save completes a profile that was incomplete (the user
 * was sent here by the start-up sequence), it says so and goes home.
 */
export function useSaveProfile(current: UserProfile) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const setProfile = useSetProfile();

  const save = (patch: ProfilePatch, options: { onError: (error: unknown) => void }) =>
    setProfile.mutate(patch, {
      onSuccess: (saved) => {
        if (!isProfileComplete(current) && isProfileComplete(saved)) {
          showSuccess(t('profile.completed'));
          void navigate('/');
        } else {
          showSuccess(t('profile.saved'));
        }
      },
      onError: options.onError,
    });

  return { save, isSaving: setProfile.isPending };
}
