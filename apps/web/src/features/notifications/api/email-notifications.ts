import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { emailNotificationsSchema, type EmailNotifications } from '@dentflow/domain';
import { api } from '../../../lib/api-client';
import { emailNotificationsKey } from './notification-keys';

export const fetchEmailNotifications = async (): Promise<EmailNotifications> =>
  emailNotificationsSchema.parse(await api.get<unknown>('/profile/notifications'));

/** The notification types that also come by email (profile settings). */
export const useEmailNotifications = () =>
  useQuery({ queryKey: emailNotificationsKey, queryFn: fetchEmailNotifications });

export function useSaveEmailNotifications() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async (eventTypes: number[]): Promise<EmailNotifications> => {
      const answer = emailNotificationsSchema.safeParse(
        await api.post<unknown>('/profile/notifications', { eventTypes }),
      );
      // An answer without the saved list means the list sent is the one kept.
      return answer.success ? answer.data : emailNotificationsSchema.parse({ eventTypes });
    },
    onSuccess: (saved) => queryClient.setQueryData(emailNotificationsKey, saved),
  });
}
