import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  adminProductSchema,
  catalogueProductSchema,
  categoryFormSchema,
  categorySchema,
  productFormSchema,
  shopProductPageSchema,
  shopProductsQuerySchema,
  idParamSchema,
  idOrNewParamSchema,
} from '@dentflow/domain';
import { responses } from '../../http/envelope';
import { requestLanguage } from '../../http/language';
import { caller, requestMeta } from '../../http/request-meta';
import type { ProductsService } from './products.service';

const tags = ['products'];
const idParams = z.object({ id: idParamSchema });
/** `set/{id}`: 0 creates. */
const setParams = z.object({ id: idOrNewParamSchema });

/**
 * Products and categories, and the shop's catalogue (`/api/v2/shop/products`). Writes are
 * admin only; per-record rules (what a non-admin may see) live in the service.
 */
export function registerProductsRoutes(app: FastifyInstance, productsService: ProductsService) {
  const r = app.withTypeProvider<ZodTypeProvider>();

  r.get('/api/v1/products/list', {
    config: { permission: 'authenticated' },
    schema: {
      tags,
      summary: "Published products in the caller's language, prices in minor units per currency",
      response: responses(z.array(catalogueProductSchema)),
    },
    handler: async (req) => ({ obj: await productsService.list(requestLanguage(req)) }),
  });

  r.get('/api/v2/shop/products', {
    config: { permission: 'authenticated' },
    schema: {
      tags: ['shop'],
      summary:
        "One page of the shop: products published in the caller's language, of active " +
        "categories, prices in the caller's profile currency. `category`: comma list of ids; " +
        "`q`: code or name, accents and case ignored; `mostOrdered`: the caller's most used " +
        "first, then everyone's; else favourites, category, id. `page` from 0",
      querystring: shopProductsQuerySchema,
      response: responses(shopProductPageSchema),
    },
    handler: async (req) => ({
      obj: await productsService.shopProducts(caller(req), requestLanguage(req), req.query),
    }),
  });

  r.get('/api/v1/products/query/:query', {
    config: { permission: 'admin' },
    schema: {
      tags,
      summary:
        'Admin list: products whose code or a name (any language, accents and case ignored) ' +
        'contains the query; `all` lists every product. Unpublished and deleted ones included',
      params: z.object({ query: z.string().trim().min(1).max(120) }),
      response: responses(z.array(adminProductSchema)),
    },
    handler: async (req) => ({ obj: await productsService.query(req.params.query) }),
  });

  r.get('/api/v1/products/get/:id', {
    config: { permission: 'authenticated' },
    schema: {
      tags,
      summary:
        'One product with every field and its image URL; products unpublished in the ' +
        "caller's language or deleted only for admins (else 404)",
      params: idParams,
      response: responses(adminProductSchema),
    },
    handler: async (req) => ({
      obj: await productsService.get(caller(req), req.params.id, requestLanguage(req)),
    }),
  });

  r.post('/api/v1/products/set/:id', {
    config: { permission: 'admin' },
    schema: {
      tags,
      summary:
        'Create (id 0) or replace a product (admin). `imageUploadId`: a confirmed temporary ' +
        'upload of kind productThumbnail becomes the image; null removes it; absent keeps it. ' +
        '409 CODE_TAKEN on a duplicate code',
      params: setParams,
      body: productFormSchema,
      response: responses(adminProductSchema),
    },
    handler: async (req) => ({
      obj: await productsService.set(caller(req), req.params.id, req.body, requestMeta(req)),
    }),
  });

  r.get('/api/v1/products/delete/:id', {
    config: { permission: 'admin' },
    schema: {
      tags,
      summary:
        'Soft-delete a product (admin): it leaves the shop and the lists and stays on the ' +
        'case services that use it',
      params: idParams,
      response: responses(z.object({ id: z.number().int(), deletedAt: z.string() })),
    },
    handler: async (req) => ({
      obj: await productsService.remove(caller(req), req.params.id, requestMeta(req)),
    }),
  });

  r.get('/api/v1/products/image/:id/:name', {
    // Shown in <img> tags, which send no bearer token: the name is random and changes with every
    // upload, and only the product's current image is served. Product images are not secret.
    config: { permission: 'public' },
    schema: {
      tags,
      summary: "A product's current image (image/webp)",
      params: z.object({
        id: idParamSchema,
        name: z.string().max(64),
      }),
    },
    handler: async (req, reply) => {
      const stream = await productsService.openImage(req.params.id, req.params.name);
      return reply
        .type('image/webp')
        .header('cache-control', 'public, max-age=31536000, immutable')
        .send(stream);
    },
  });

  r.get('/api/v1/products/category/list', {
    config: { permission: 'authenticated' },
    schema: {
      tags,
      summary: 'Product categories (names in ptBR, en, es): active ones; admins see every one',
      response: responses(z.array(categorySchema)),
    },
    handler: async (req) => ({ obj: await productsService.categories.list(caller(req)) }),
  });

  r.get('/api/v1/products/category/:id/get', {
    config: { permission: 'authenticated' },
    schema: {
      tags,
      summary: 'One product category',
      params: idParams,
      response: responses(categorySchema),
    },
    handler: async (req) => ({ obj: await productsService.categories.get(req.params.id) }),
  });

  r.post('/api/v1/products/category/set/:id', {
    config: { permission: 'admin' },
    schema: {
      tags,
      summary: "Create (id 0, with the next id) or replace a category's names and active flag",
      params: setParams,
      body: categoryFormSchema,
      response: responses(categorySchema),
    },
    handler: async (req) => ({
      obj: await productsService.categories.set(
        caller(req),
        req.params.id,
        req.body,
        requestMeta(req),
      ),
    }),
  });
}
