import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { DataAddress, DataGeneral, DataInfo, UserProfile } from '@dentflow/domain';
import { api } from '../../../lib/api-client';
import { rememberProfile } from './get-profile';

/** What `profile/set` accepts: each part partial; email, roles, internal and capabilities never. */
export interface ProfilePatch {
  dataGeneral?: Partial<Pick<DataGeneral, 'displayName' | 'fname' | 'lname' | 'nickName'>>;
  dataInfo?: Partial<DataInfo>;
  dataAddress?: Partial<DataAddress>;
}

export const setProfile = (patch: ProfilePatch) => api.post<UserProfile>('/profile/set', patch);

export function useSetProfile() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: setProfile,
    onSuccess: (profile) => rememberProfile(queryClient, profile),
  });
}
