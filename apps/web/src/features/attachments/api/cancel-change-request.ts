import type { Attachment } from '@dentflow/domain';
import { api } from '../../../lib/api-client';

/** Withdraws a change request: the file is published again. */
export const cancelChangeRequest = (attachmentId: number) =>
  api.get<Attachment>(`/attachment/${attachmentId}/cancelRequest4Change`);
