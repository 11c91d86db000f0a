import { useMutation, useQueryClient } from '@tanstack/react-query';
import { z } from 'zod';
import type { UserProfile } from '@dentflow/domain';
import { ApiError, apiUpload } from '../../../lib/api-client';
import { i18n } from '../../../lib/i18n';
import { profileQueryKey, rememberProfile } from './get-profile';

const avatarAnswerSchema = z.object({ avatar: z.string() });

/**
 * `POST /profile/avatar`, multipart with the `file` (the server makes the square thumbnail),
 * with upload progress.
 */
export async function uploadAvatar(
  file: File,
  onProgress: (percent: number) => void = () => {},
): Promise<{ avatar: string }> {
  const form = new FormData();
  form.append('file', file);
  const answer = avatarAnswerSchema.safeParse(
    await apiUpload<unknown>('/profile/avatar', form, { onProgress }),
  );
  if (!answer.success) throw new ApiError(i18n.t('feedback.unexpectedError'), 'HTTP_ERROR', 200);
  return answer.data;
}

/** Keeps the new avatar in the cached profile (the user menu shows it at once). */
export function rememberAvatar(
  queryClient: ReturnType<typeof useQueryClient>,
  avatar: string | null,
) {
  const profile = queryClient.getQueryData<UserProfile>(profileQueryKey);
  if (profile)
    rememberProfile(queryClient, { ...profile, dataGeneral: { ...profile.dataGeneral, avatar } });
}

export function useUploadAvatar(onProgress: (percent: number) => void) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (file: File) => uploadAvatar(file, onProgress),
    onSuccess: ({ avatar }) => rememberAvatar(queryClient, avatar),
  });
}
