import type { Attachment } from '@dentflow/domain';
import { api } from '../../../lib/api-client';

/** A presigned POST: the form fields to send before the file, and where to send them. */
export interface PresignedUpload {
  url: string;
  fields: Record<string, string>;
}

export interface CreatePostUrlBody {
  /** An existing attachment (an empty required slot, or a file being replaced). */
  id?: number;
  filename: string;
  filesize: number;
  /** `bucket.kind`, e.g. `photoProtocol.forcedSmile`, `exams.upperJawStl`, `planning`. */
  attachment_name: string;
  /** The planning file this upload answers as its next version (decision 028). */
  replacesId?: number;
}

export const createPostUrl = (caseId: number, body: CreatePostUrlBody) =>
  api.post<{ attachment: Attachment; upload: PresignedUpload }>(
    `/attachment/createPostUrl/${caseId}`,
    body,
  );
