import type { DataAddress } from '@dentflow/domain';

/** Address, as a zip lookup fills it. */
export type ZipAddress = DataAddress;

export type ZipLookupResult =
  | { status: 'found'; address: ZipAddress }
  | { status: 'invalid' }
  | { status: 'not_found' }
  | { status: 'unavailable'; reason: string };

/** The zip-lookup port: a real provider when configured, else "unavailable" so forms unlock. */
export interface ZipLookup {
  readonly provider: string;
  lookup(zipCode: string): Promise<ZipLookupResult>;
}

/** No provider configured: every lookup is unavailable and the form falls back to manual entry. */
export const noZipLookup: ZipLookup = {
  provider: 'none',
  lookup: async () => ({ status: 'unavailable', reason: 'no zip lookup provider configured' }),
};
