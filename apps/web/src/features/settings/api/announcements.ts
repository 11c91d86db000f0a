import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import {
  adminAnnouncementListSchema,
  adminAnnouncementSchema,
  type AdminAnnouncement,
  type AnnouncementSave,
} from '@dentflow/domain';
import { api } from '../../../lib/api-client';
import { settingsKeys } from './settings-keys';

/** Every announcement, newest first (admin). */
export const fetchAnnouncements = async (): Promise<AdminAnnouncement[]> =>
  adminAnnouncementListSchema.parse(await api.get<unknown>('/profile/list/announcement'));

/** Creates (no `id`) or edits one; saving one active deactivates the others on the server. */
export const saveAnnouncement = async (body: AnnouncementSave): Promise<AdminAnnouncement> =>
  adminAnnouncementSchema.parse(await api.post<unknown>('/profile/announcement', body));

export const useAnnouncements = () =>
  useQuery({ queryKey: settingsKeys.announcements(), queryFn: fetchAnnouncements });

export function useSaveAnnouncement() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: saveAnnouncement,
    // Activation changes other rows too: read the whole list again.
    onSuccess: () => queryClient.invalidateQueries({ queryKey: settingsKeys.announcements() }),
  });
}
