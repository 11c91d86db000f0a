import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { responses } from '../../http/envelope';
import type { ShopService } from './shop.service';

export function registerShopRoutes(app: FastifyInstance, shop: ShopService) {
  app.withTypeProvider<ZodTypeProvider>().get('/api/v1/shop/queryAddress/:zipcode', {
    config: { permission: 'authenticated' },
    schema: {
      tags: ['shop'],
      security: [{ bearer: [] }],
      summary: 'Address of a zip code (503 ZIP_LOOKUP_UNAVAILABLE: fill it in by hand)',
      params: z.object({ zipcode: z.string().max(40) }),
      response: responses(
        z.object({
          zipCode: z.string(),
          country: z.string(),
          state: z.string(),
          city: z.string(),
          address: z.string(),
          complement: z.string(),
        }),
      ),
    },
    handler: async (req) => ({ obj: await shop.queryAddress(req.params.zipcode) }),
  });
}
