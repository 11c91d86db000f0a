import { useQuery } from '@tanstack/react-query';
import { knownAddressesSchema, type KnownAddresses } from '@dentflow/domain';
import { api } from '../../../lib/api-client';
import { shopKeys } from './shop-keys';

/** The caller's profile address and the addresses of their earlier deliveries. */
export const fetchKnownAddresses = async (): Promise<KnownAddresses> =>
  knownAddressesSchema.parse(await api.post<unknown>('/shop/fetchAddress'));

export const useKnownAddresses = () =>
  useQuery({ queryKey: shopKeys.addresses(), queryFn: fetchKnownAddresses });
