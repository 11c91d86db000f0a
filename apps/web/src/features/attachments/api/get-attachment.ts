import type { Attachment } from '@dentflow/domain';
import { api } from '../../../lib/api-client';

/** One attachment with a fresh short-lived download `url` and the caller's `actions`. */
export const getAttachment = (attachmentId: number) =>
  api.get<Attachment & { actions: string[] }>(`/attachment/${attachmentId}/get`);
