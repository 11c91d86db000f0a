import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { CURRENCIES } from '@dentflow/domain';
import { responses } from '../../http/envelope';
import { requestLanguage } from '../../http/language';
import type { ProductsService } from './products.service';

const productListItemSchema = z.object({
  id: z.number().int(),
  code: z.string(),
  productType: z.number().int(),
  productCategoryId: z.number().int(),
  categoryName: z.string(),
  productKind: z.number().int(),
  qtdOption: z.number().int(),
  qtdMax: z.number().int(),
  manufactureTime: z.number().int(),
  innerProducts: z.array(z.number().int()),
  favorite: z.boolean(),
  name: z.string(),
  description: z.string(),
  prices: z.record(z.enum(CURRENCIES), z.number().int()),
  modifiedAt: z.string(),
});

export function registerProductsRoutes(app: FastifyInstance, productsService: ProductsService) {
  app.withTypeProvider<ZodTypeProvider>().get('/api/v1/products/list', {
    config: { permission: 'authenticated' },
    schema: {
      tags: ['products'],
      security: [{ bearer: [] }],
      summary: "Published products in the caller's language, prices in minor units per currency",
      response: responses(z.array(productListItemSchema)),
    },
    handler: async (req) => ({ obj: await productsService.list(requestLanguage(req)) }),
  });
}
