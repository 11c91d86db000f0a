import type { Attachment } from '@dentflow/domain';
import { api } from '../../../lib/api-client';

/** The case owner asks for a change of a published planning file, saying what. */
export const requestChange = (attachmentId: number, text: string) =>
  api.post<Attachment>(`/attachment/${attachmentId}/request4Change`, { text });
