import { useQuery } from '@tanstack/react-query';
import { lastNotificationsSchema, type LastNotifications } from '@dentflow/domain';
import { api } from '../../../lib/api-client';
import { notificationKeys } from './notification-keys';

export const fetchLastNotifications = async (): Promise<LastNotifications> =>
  lastNotificationsSchema.parse(await api.get<unknown>('/notification/last5'));

/** The bell: the newest five and the unseen count. */
export const useLastNotifications = () =>
  useQuery({
    queryKey: notificationKeys.last(),
    queryFn: fetchLastNotifications,
    // Live updates keep it current; coming back to the tab also catches up after a long sleep.
    refetchOnWindowFocus: true,
  });
