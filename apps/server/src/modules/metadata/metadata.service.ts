import type { AppContext } from '../../context';
import { listActiveKitManufacturers } from './metadata.repository';

export function createMetadataService(ctx: AppContext) {
  return {
    /** Spec §3 surgical kits: each manufacturer with its systems. */
    kitSystems: () => listActiveKitManufacturers(ctx.db),
  };
}
export type MetadataService = ReturnType<typeof createMetadataService>;
