import { queryOptions, useQuery } from '@tanstack/react-query';
import type { Attachment } from '@dentflow/domain';
import { api } from '../../../lib/api-client';
import { URL_STALE_MS } from './use-attachment-url';

/** An attachment as listed for a case, with the actions this caller may take on it. */
export type CaseAttachment = Attachment & { actions: string[] };

/** An empty required slot (a photo of the protocol, a jaw's STL): it waits for its file. */
export interface CaseAttachmentSlot {
  /** The attachment record of the slot when the server keeps one (uploads then fill it). */
  id?: number;
  bucketName: string;
  attachmentType: string;
  /** The caller may send this slot's file now. */
  canUpload?: boolean;
}

export interface CaseAttachmentList {
  /** Each with a signed download `url` (valid 5 minutes) and the caller's `actions`. */
  items: CaseAttachment[];
  slots: CaseAttachmentSlot[];
  /** The buckets the caller may send files to now. */
  uploadBuckets?: string[];
}

export const caseAttachmentsQueryKey = (caseId: number) => ['attachments', 'case', caseId] as const;

export const listCaseAttachments = (caseId: number) =>
  api.get<CaseAttachmentList>(`/attachment/case/${caseId}/list`);

export const caseAttachmentsQueryOptions = (caseId: number) =>
  queryOptions({
    queryKey: caseAttachmentsQueryKey(caseId),
    queryFn: () => listCaseAttachments(caseId),
    // The items' signed links expire after 5 minutes: a fresh list keeps previews working.
    refetchInterval: URL_STALE_MS,
  });

export const useCaseAttachments = (caseId: number) => useQuery(caseAttachmentsQueryOptions(caseId));
