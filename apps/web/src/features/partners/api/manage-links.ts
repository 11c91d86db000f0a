import { useMutation, useQueryClient } from '@tanstack/react-query';
import { partnerLinkSchema, type PartnerLink, type PartnerLinkBody } from '@dentflow/domain';
import { api } from '../../../lib/api-client';
import { partnerKeys } from './partner-keys';

export const linkPartner = async (body: PartnerLinkBody): Promise<PartnerLink> =>
  partnerLinkSchema.parse(await api.post<unknown>('/partners/link', body));

export const unlinkPartner = (id: number) => api.delete<{ id: number }>(`/partners/link/${id}`);

export function useLinkPartner() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: linkPartner,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: partnerKeys.lists() }),
  });
}

export function useUnlinkPartner() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: unlinkPartner,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: partnerKeys.lists() }),
  });
}
