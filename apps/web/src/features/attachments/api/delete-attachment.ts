import { api } from '../../../lib/api-client';

/** Removes a file (a required slot is emptied instead). */
export const deleteAttachment = (attachmentId: number) =>
  api.delete<unknown>(`/attachment/${attachmentId}/delete`);
