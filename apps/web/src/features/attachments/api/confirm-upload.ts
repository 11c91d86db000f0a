import type { Attachment } from '@dentflow/domain';
import { api } from '../../../lib/api-client';

/** Tells the server the file is in the store: it checks it and the attachment joins the case. */
export const confirmUpload = (attachmentId: number) =>
  api.get<{ attachment: Attachment; url: string }>(`/attachment/uploadedSuccess/${attachmentId}`);
