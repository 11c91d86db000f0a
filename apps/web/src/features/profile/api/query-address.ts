import type { DataAddress } from '@dentflow/domain';
import { api } from '../../../lib/api-client';

/** Zip lookup: fills the address form; 400 INVALID_ZIP, 404 ZIP_NOT_FOUND, 503 ZIP_LOOKUP_UNAVAILABLE. */
export const queryAddress = (zipCode: string) =>
  api.get<DataAddress>(`/shop/queryAddress/${encodeURIComponent(zipCode)}`);
