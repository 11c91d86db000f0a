import { queryOptions, useQuery } from '@tanstack/react-query';
import type { NewPinBody, Pin, PinList } from '@dentflow/domain';
import { api } from '../../../lib/api-client';

export const filePinsQueryKey = (attachmentId: number) => ['pins', 'file', attachmentId] as const;

export const filePinsQueryOptions = (attachmentId: number) =>
  queryOptions({
    queryKey: filePinsQueryKey(attachmentId),
    queryFn: () => api.get<PinList>(`/attachment/${attachmentId}/pins`),
  });

/** A planning file's pins, oldest first; off (no request) for a file that takes none. */
export const useFilePins = (attachmentId: number | null) =>
  useQuery({ ...filePinsQueryOptions(attachmentId ?? 0), enabled: attachmentId !== null });

/** Drops a pin; its note reaches the case chat on the server's side. */
export const createPin = (attachmentId: number, body: NewPinBody) =>
  api.post<Pin>(`/attachment/${attachmentId}/pins`, body);

export const setPinResolved = (pinId: number, resolved: boolean) =>
  api.post<Pin>(`/pin/${pinId}/${resolved ? 'resolve' : 'reopen'}`);
