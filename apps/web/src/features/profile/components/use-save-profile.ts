import { useNavigate } from 'react-router';
import { useTranslation } from 'react-i18next';
import { isProfileComplete, type UserProfile } from '@dentflow/domain';
import { showSuccess } from '../../../lib/notify';
import { useSetProfile, type ProfilePatch } from '../api/set-profile';
import { useProfileMissingDialog } from './profile-missing-dialog';

/**
 * Saves a part of the profile. When the save completes a profile that was incomplete (the user
 * was sent here by the start-up sequence), it says so and goes home. `dialog` is the 'Profile
 * information missing' dialog of a refused save: render it with the form.
 */
export function useSaveProfile(current: UserProfile) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const setProfile = useSetProfile();
  // A save the server refuses for missing or invalid data also says so in a dialog.
  const missing = useProfileMissingDialog({ onSave: true });

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
      onError: (error) => {
        missing.catchRefusal(error);
        options.onError(error);
      },
    });

  return { save, isSaving: setProfile.isPending, dialog: missing.dialog };
}
