import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { catalogueProductSchema } from '@dentflow/domain';
import { responses } from '../../http/envelope';
import { requestLanguage } from '../../http/language';
import type { ProductsService } from './products.service';

export function registerProductsRoutes(app: FastifyInstance, productsService: ProductsService) {
  app.withTypeProvider<ZodTypeProvider>().get('/api/v1/products/list', {
    config: { permission: 'authenticated' },
    schema: {
      tags: ['products'],
      security: [{ bearer: [] }],
      summary: "Published products in the caller's language, prices in minor units per currency",
      response: responses(z.array(catalogueProductSchema)),
    },
    handler: async (req) => ({ obj: await productsService.list(requestLanguage(req)) }),
  });
}
