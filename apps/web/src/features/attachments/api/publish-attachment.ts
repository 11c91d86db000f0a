import type { Attachment } from '@dentflow/domain';
import { api } from '../../../lib/api-client';

/** Publishes a file (planning): everyone on the case sees it. */
export const publishAttachment = (attachmentId: number) =>
  api.get<Attachment>(`/attachment/${attachmentId}/publish`);
