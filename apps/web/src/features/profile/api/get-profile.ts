import { queryOptions, useQuery, type QueryClient } from '@tanstack/react-query';
import { isLanguage, type UserProfile } from '@dentflow/domain';
import { api } from '../../../lib/api-client';
import { applyLanguage } from '../../../lib/i18n';
import { getStoredUser, setStoredUser } from '../../../lib/session-storage';

export const profileQueryKey = ['profile'] as const;

export const fetchProfile = () => api.get<UserProfile>('/profile/get');

export const profileQueryOptions = () =>
  queryOptions({
    queryKey: profileQueryKey,
    queryFn: fetchProfile,
    // Until the server answers, show what this browser remembers of the user.
    placeholderData: () => getStoredUser() ?? undefined,
  });

export const useProfile = () => useQuery(profileQueryOptions());

/**
 * Every fresh copy of the profile is cached, kept in local storage, and its language
 * (the profile language overrides) applied to the interface.
 */
export function rememberProfile(queryClient: QueryClient, profile: UserProfile): void {
  queryClient.setQueryData(profileQueryKey, profile);
  setStoredUser(profile);
  const language = profile.dataInfo?.language;
  if (isLanguage(language)) void applyLanguage(language);
}
