import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { AdminUser } from '@dentflow/domain';
import { api } from '../../../lib/api-client';
import { userKeys } from './user-keys';

/** Anonymizes the account and ends its sessions; its cases and transactions stay. */
export const deleteUser = (id: number) => api.delete<{ deleted: true }>(`/users/delete/${id}`);

/** Sets a new password and ends the user's sessions. */
export const setUserPassword = (id: number, password: string) =>
  api.post<{ updated: true }>(`/users/setPassword/${id}`, { password });

/** Sends the verification mail again. */
export const resendVerification = (id: number) =>
  api.get<{ sent: true }>(`/users/resendEmail/${id}`);

/** Removes another user's avatar (the profile feature's own call caches the caller's avatar). */
export const removeUserAvatar = (id: number) => api.delete<{ avatar: null }>(`/users/${id}/avatar`);

export function useDeleteUser(id: number) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: () => deleteUser(id),
    onSuccess: () => {
      queryClient.removeQueries({ queryKey: userKeys.detail(id) });
      void queryClient.invalidateQueries({ queryKey: userKeys.lists() });
    },
  });
}

export const useSetUserPassword = (id: number) =>
  useMutation({ mutationFn: (password: string) => setUserPassword(id, password) });

export const useResendVerification = (id: number) =>
  useMutation({ mutationFn: () => resendVerification(id) });

export function useRemoveUserAvatar(id: number) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: () => removeUserAvatar(id),
    onSuccess: () => {
      queryClient.setQueryData<AdminUser>(userKeys.detail(id), (user) =>
        user ? { ...user, dataGeneral: { ...user.dataGeneral, avatar: null } } : user,
      );
      void queryClient.invalidateQueries({ queryKey: userKeys.lists() });
    },
  });
}
