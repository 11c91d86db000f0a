import { useQuery, useQueryClient, type QueryClient } from '@tanstack/react-query';
import { z } from 'zod';
import {
  caseNotificationStatusSchema,
  notificationViewSchema,
  type CaseNotificationStatus,
  type NotificationView,
} from '@dentflow/domain';
import { api } from '../../../lib/api-client';
import { notificationKeys } from './notification-keys';

export const fetchCaseNotificationStatus = async (
  caseId: number,
): Promise<CaseNotificationStatus> =>
  caseNotificationStatusSchema.parse(await api.get<unknown>(`/notification/getStatus/${caseId}`));

/** Case notification status: the caller's unseen notifications of a case, per type. */
export const useCaseNotificationStatus = (caseId: number) =>
  useQuery({
    queryKey: notificationKeys.status(caseId),
    queryFn: () => fetchCaseNotificationStatus(caseId),
    enabled: caseId > 0,
  });

// A list, or the list inside a page-like envelope: either answer reads the same.
const caseNotificationsSchema = z.union([
  z.array(notificationViewSchema),
  z.object({ items: z.array(notificationViewSchema) }).transform((page) => page.items),
]);

/** `GET /notification/case/{caseId}`: the caller's notifications of a case; the server marks them seen. */
export const fetchCaseNotifications = async (caseId: number): Promise<NotificationView[]> =>
  caseNotificationsSchema.parse(await api.get<unknown>(`/notification/case/${caseId}`));

/**
 * A notification already in the cache (the bell, the list pages, a case's list), by id. The chat
 * quotes one this way without asking the server again.
 */
export function findCachedNotification(
  queryClient: QueryClient,
  id: number,
): NotificationView | undefined {
  for (const [, data] of queryClient.getQueriesData<unknown>({ queryKey: notificationKeys.all })) {
    const items = Array.isArray(data)
      ? data
      : data && typeof data === 'object' && 'items' in data && Array.isArray(data.items)
        ? data.items
        : [];
    const found = (items as NotificationView[]).find((item) => item?.id === id);
    if (found) return found;
  }
  return undefined;
}

/**
 * The notification a chat answer quotes: from the cache, else from the case's notifications (the
 * case is open, so marking them seen is what happens anyway).
 */
export function useQuotedNotification(
  caseId: number,
  id: number | null,
): { notification: NotificationView | undefined; isLoading: boolean } {
  const queryClient = useQueryClient();
  const cached = id ? findCachedNotification(queryClient, id) : undefined;
  const caseList = useQuery({
    queryKey: notificationKeys.forCase(caseId),
    queryFn: () => fetchCaseNotifications(caseId),
    enabled: !!id && !cached && caseId > 0,
    staleTime: Infinity,
  });
  return {
    notification: cached ?? caseList.data?.find((item) => item.id === id),
    isLoading: caseList.isLoading,
  };
}
