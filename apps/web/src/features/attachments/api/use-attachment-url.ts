import { useQuery } from '@tanstack/react-query';
import { DOWNLOAD_LINK_SECONDS } from '@dentflow/domain';
import { getAttachment } from './get-attachment';

/** Signed download links live DOWNLOAD_LINK_SECONDS (5 minutes): refetch at half their life. */
export const URL_STALE_MS = (DOWNLOAD_LINK_SECONDS * 1000) / 2;

export const attachmentUrlQueryKey = (attachmentId: number) =>
  ['attachments', 'url', attachmentId] as const;

/** A fresh signed URL of one file, asked of the server (when the list's own link is missing). */
export const useAttachmentUrl = (attachmentId: number, enabled = true) =>
  useQuery({
    queryKey: attachmentUrlQueryKey(attachmentId),
    queryFn: async () => (await getAttachment(attachmentId)).url,
    staleTime: URL_STALE_MS,
    refetchInterval: URL_STALE_MS,
    enabled,
  });
