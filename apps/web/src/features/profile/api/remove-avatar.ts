import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';
import { rememberAvatar } from './upload-avatar';

/** Admins remove a user's avatar. */
export const removeAvatar = (userId: number) =>
  api.delete<{ avatar: null }>(`/users/${userId}/avatar`);

export function useRemoveAvatar() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: removeAvatar,
    onSuccess: () => rememberAvatar(queryClient, null),
  });
}
