import { queryOptions } from '@tanstack/react-query';
import type { Announcement } from '@dentflow/domain';
import { api } from '../../../lib/api-client';

export const fetchAnnouncement = () => api.get<Announcement>('/profile/announcement');

export const announcementQueryOptions = () =>
  queryOptions({ queryKey: ['profile', 'announcement'], queryFn: fetchAnnouncement });

/** The reader closed the announcement: the server stops showing it to them. */
export const dismissAnnouncement = (id: number) =>
  api.post<{ dismissed: true }>(`/profile/announcement/${id}/dismiss`, {});
