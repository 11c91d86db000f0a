import type { QueryClient } from '@tanstack/react-query';
import {
  isAnnouncementActive,
  isProfileComplete,
  type Announcement,
  type UserProfile,
} from '@dentflow/domain';
import { getAccessToken, refreshSession } from '../../lib/api-client';
import { profileQueryOptions, rememberProfile } from '../../features/profile/api/get-profile';
import {
  instructorQueryOptions,
  type InstructorInfo,
} from '../../features/profile/api/get-instructor';
import { announcementQueryOptions } from '../../features/profile/api/get-announcement';
import { kitsQueryOptions } from '../../features/metadata/api/get-kits';

/** What the app does once the session is loaded (start-up, step 3). */
export type StartupDecision = 'announcement' | 'completeProfile' | 'home';

export interface StartupResult {
  profile: UserProfile;
  instructor: InstructorInfo;
  announcement: Announcement;
  decision: StartupDecision;
}

/** An active announcement (domain rule: active with a title and a body) wins; then an incomplete profile. */
export function decideAfterStartup(
  profile: UserProfile,
  announcement: Announcement,
): StartupDecision {
  if (isAnnouncementActive(announcement)) return 'announcement';
  if (!isProfileComplete(profile)) return 'completeProfile';
  return 'home';
}

/**
 * Start-up: 1. not logged in (no access token in memory) → refresh the session;
 * 2. profile, then instructor; 3. the announcement decides what to show; 4. the surgical kit list.
 * Any failure rejects: the caller sends the user to /login.
 */
export async function runStartup(queryClient: QueryClient): Promise<StartupResult> {
  if (!getAccessToken()) await refreshSession();
  const profile = await queryClient.fetchQuery({ ...profileQueryOptions(), staleTime: 0 });
  rememberProfile(queryClient, profile);
  const instructor = await queryClient.fetchQuery({ ...instructorQueryOptions(), staleTime: 0 });
  const announcement = await queryClient.fetchQuery({
    ...announcementQueryOptions(),
    staleTime: 0,
  });
  const decision = decideAfterStartup(profile, announcement);
  await queryClient.fetchQuery(kitsQueryOptions());
  return { profile, instructor, announcement, decision };
}
