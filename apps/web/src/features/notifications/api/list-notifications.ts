import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { notificationPageSchema, type NotificationPage } from '@dentflow/domain';
import { api } from '../../../lib/api-client';
import { notificationKeys } from './notification-keys';

export const fetchNotificationPage = async (page: number): Promise<NotificationPage> =>
  notificationPageSchema.parse(await api.get<unknown>(`/notification/list/${page}`));

/** One page (from 0) of the caller's notifications, newest first. */
export const useNotificationPage = (page: number) =>
  useQuery({
    queryKey: notificationKeys.list(page),
    queryFn: () => fetchNotificationPage(page),
    // The previous page stays on screen while the next one loads.
    placeholderData: keepPreviousData,
  });
