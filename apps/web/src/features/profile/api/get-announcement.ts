import { queryOptions } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';

export interface Announcement {
  active: boolean;
  title: string;
  body: string;
}

export const fetchAnnouncement = () => api.get<Announcement>('/profile/announcement');

export const announcementQueryOptions = () =>
  queryOptions({ queryKey: ['profile', 'announcement'], queryFn: fetchAnnouncement });
