import { useMutation, useQueryClient } from '@tanstack/react-query';
import { adminUserSchema, type AdminUser, type AdminUserSetBody } from '@dentflow/domain';
import { api } from '../../../lib/api-client';
import { userKeys } from './user-keys';

/** Saves the sections present in `body`; the server answers the whole user again. */
export const setUser = async (id: number, body: AdminUserSetBody): Promise<AdminUser> =>
  adminUserSchema.parse(await api.post<unknown>(`/users/${id}/set`, body));

export function useSetUser(id: number) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: AdminUserSetBody) => setUser(id, body),
    onSuccess: (saved) => {
      queryClient.setQueryData(userKeys.detail(id), saved);
      void queryClient.invalidateQueries({ queryKey: userKeys.lists() });
    },
  });
}
