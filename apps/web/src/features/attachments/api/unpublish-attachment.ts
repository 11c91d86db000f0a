import type { Attachment } from '@dentflow/domain';
import { api } from '../../../lib/api-client';

/** Takes a published file back to staff only. */
export const unpublishAttachment = (attachmentId: number) =>
  api.get<Attachment>(`/attachment/${attachmentId}/unpublish`);
