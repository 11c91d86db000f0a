import { queryOptions, useQuery } from '@tanstack/react-query';
import { partnerLinkSchema, type PartnerLink } from '@dentflow/domain';
import { z } from 'zod';
import { api } from '../../../lib/api-client';
import { partnerKeys } from './partner-keys';

/** A clinic's linked partners; for an admin every link (of one clinic with `clinicId`). */
export async function fetchPartnerLinks(): Promise<PartnerLink[]> {
  return z.array(partnerLinkSchema).parse(await api.get<unknown>('/partners'));
}

export const partnerLinksQueryOptions = () =>
  queryOptions({ queryKey: partnerKeys.lists(), queryFn: fetchPartnerLinks });

export const usePartnerLinks = () => useQuery(partnerLinksQueryOptions());
