import { fitAddressToLimits, isZipCodeFormat, type DataAddress } from '@dentflow/domain';
import type { AppContext } from '../../context';
import { AppError } from '../../http/app-error';

export function createShopService(ctx: AppContext) {
  return {
    /** Fills an address from a zip code; any provider trouble is a 503 so the form unlocks. */
    async queryAddress(zipCode: string): Promise<DataAddress> {
      if (!isZipCodeFormat(zipCode)) {
        throw new AppError(400, 'INVALID_ZIP');
      }
      const result = await ctx.zipLookup.lookup(zipCode);
      switch (result.status) {
        case 'found':
          return fitAddressToLimits(result.address);
        case 'invalid':
          throw new AppError(400, 'INVALID_ZIP');
        case 'not_found':
          throw new AppError(404, 'ZIP_NOT_FOUND');
        case 'unavailable':
          ctx.log.warn(
            { provider: ctx.zipLookup.provider, reason: result.reason },
            'zip lookup unavailable',
          );
          throw new AppError(503, 'ZIP_LOOKUP_UNAVAILABLE');
      }
    },
  };
}
export type ShopService = ReturnType<typeof createShopService>;
