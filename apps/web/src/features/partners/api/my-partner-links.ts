import { useQuery } from '@tanstack/react-query';
import { partnerLinkSchema } from '@dentflow/domain';
import { z } from 'zod';
import { api } from '../../../lib/api-client';
import { partnerKeys } from './partner-keys';

/** The signed-in user's own clinic–partner links, as the clinic or as the partner. */
export const useMyPartnerLinks = () =>
  useQuery({
    queryKey: [...partnerKeys.all, 'mine'] as const,
    queryFn: async () =>
      z.array(partnerLinkSchema).parse(await api.get<unknown>('/profile/partnerLinks')),
  });
