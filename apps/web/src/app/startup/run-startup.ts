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
 * 2. profile and instructor; 3. the announcement decides what to show; 4. the surgical kit list.
 * The calls of 2–4 need only the session, so they go together rather than one after another
 * (each is a round trip the first page waits for). Any failure rejects: the caller sends the user
 * to /login.
 */
export async function runStartup(queryClient: QueryClient): Promise<StartupResult> {
  if (!getAccessToken()) await refreshSession();
  const [profile, instructor, announcement] = await Promise.all([
    queryClient.fetchQuery({ ...profileQueryOptions(), staleTime: 0 }).then((fresh) => {
      rememberProfile(queryClient, fresh);
      return fresh;
    }),
    queryClient.fetchQuery({ ...instructorQueryOptions(), staleTime: 0 }),
    queryClient.fetchQuery({ ...announcementQueryOptions(), staleTime: 0 }),
    queryClient.fetchQuery(kitsQueryOptions()),
  ]);
  const decision = decideAfterStartup(profile, announcement);
  return { profile, instructor, announcement, decision };
}
