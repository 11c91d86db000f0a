import type { Attachment } from '@dentflow/domain';
import { api } from '../../../lib/api-client';

/** The case owner approves a published planning file. */
export const approveAttachment = (attachmentId: number) =>
  api.get<Attachment>(`/attachment/${attachmentId}/approve`);
