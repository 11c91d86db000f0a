import { ADDRESS_LIMITS, type DataAddress } from '@dentflow/domain';
import type { AppContext } from '../../context';
import { AppError } from '../../http/app-error';

const clip = (text: string, max: number) => text.trim().slice(0, max);

export function createShopService(ctx: AppContext) {
  return {
    /** Fills an address from a zip code; any provider trouble is a 503 so the form unlocks. */
    async queryAddress(zipCode: string): Promise<DataAddress> {
      if (!/^[A-Za-z0-9][A-Za-z0-9 -]{1,11}$/.test(zipCode.trim())) {
        throw new AppError(400, 'INVALID_ZIP');
      }
      const result = await ctx.zipLookup.lookup(zipCode);
      switch (result.status) {
        case 'found': {
          const a = result.address;
          // Clipped to the address form limits so a filled form is always valid.
          return {
            zipCode: clip(a.zipCode, ADDRESS_LIMITS.zipCode),
            country: clip(a.country, ADDRESS_LIMITS.country),
            state: clip(a.state, ADDRESS_LIMITS.state),
            city: clip(a.city, ADDRESS_LIMITS.cityMax),
            address: clip(a.address, ADDRESS_LIMITS.address),
            complement: clip(a.complement, ADDRESS_LIMITS.complement),
          };
        }
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
