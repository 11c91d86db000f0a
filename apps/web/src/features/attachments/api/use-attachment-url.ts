import { useQuery } from '@tanstack/react-query';
import { getAttachment } from './get-attachment';

/** Signed download links live 30 minutes: refetch well before they expire. */
export const URL_STALE_MS = 10 * 60_000;

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
