import type { ServiceDataMetadata } from '@dentflow/domain';
import type { AppContext } from '../../context';
import { loadTreatmentPurposesSettings } from '../settings';
import { listActiveKitManufacturers } from './metadata.repository';

export function createMetadataService(ctx: AppContext) {
  return {
    /**
     * What the service data form offers: surgical kits (each active manufacturer with its
     * systems) and the admin's names of the treatment purposes, both as stored now.
     */
    async serviceData(): Promise<ServiceDataMetadata> {
      const [kitManufacturers, { treatmentPurposes }] = await Promise.all([
        listActiveKitManufacturers(ctx.db),
        loadTreatmentPurposesSettings(ctx.db),
      ]);
      return { kitManufacturers, treatmentPurposes };
    },
  };
}
export type MetadataService = ReturnType<typeof createMetadataService>;
