/**
 * Query keys of the notifications feature. Everything lives under `['notifications']`: the live
 * updates invalidate that prefix when a notification arrives.
 */
export const notificationKeys = {
  all: ['notifications'] as const,
  last: () => ['notifications', 'last5'] as const,
  lists: () => ['notifications', 'list'] as const,
  list: (page: number) => ['notifications', 'list', page] as const,
  status: (caseId: number) => ['notifications', 'status', caseId] as const,
  forCase: (caseId: number) => ['notifications', 'case', caseId] as const,
};

/**
 * The email preferences sit with the profile, not under `['notifications']`: a live refetch must
 * not reset a form being edited.
 */
export const emailNotificationsKey = ['profile', 'email-notifications'] as const;
