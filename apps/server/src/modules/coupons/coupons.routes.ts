import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  adminCouponSchema,
  couponFormSchema,
  couponPageSchema,
  couponQueryParamsSchema,
  MESSAGE,
  idParamSchema,
  idOrNewParamSchema,
} from '@dentflow/domain';
import { responses } from '../../http/envelope';
import { callerId, requestMeta } from '../../http/request-meta';
import type { CouponsService } from './coupons.service';

const tags = ['coupons'];
const admin = { permission: 'admin' as const };
const idParams = z.object({ id: idParamSchema });
/** `0` creates. */
const setParams = z.object({ id: idOrNewParamSchema });
const queryString = z.object({ q: z.string().trim().max(60, MESSAGE.max).optional() });

/** Coupon administration: admin only. The lookup lives in the shop module. */
export function registerCouponsRoutes(app: FastifyInstance, coupons: CouponsService) {
  const r = app.withTypeProvider<ZodTypeProvider>();

  r.get('/api/v1/products/coupom/query/:filter/:page', {
    config: admin,
    schema: {
      tags,
      summary: 'One page of coupons of a filter, newest first; q matches the code (any case)',
      params: couponQueryParamsSchema,
      querystring: queryString,
      response: responses(couponPageSchema),
    },
    handler: async (req) => ({
      obj: await coupons.query(req.params.filter, req.params.page, req.query.q),
    }),
  });

  r.get('/api/v1/products/coupom/get/:id', {
    config: admin,
    schema: {
      tags,
      summary: 'A coupon with its usage (404 when unknown or deleted)',
      params: idParams,
      response: responses(adminCouponSchema),
    },
    handler: async (req) => ({ obj: await coupons.get(req.params.id) }),
  });

  r.post('/api/v1/products/coupom/set/:id', {
    config: admin,
    schema: {
      tags,
      summary: 'Create (id 0) or edit a coupon; the code is stored upper-case (409 CODE_TAKEN)',
      params: setParams,
      body: couponFormSchema,
      response: responses(adminCouponSchema),
    },
    handler: async (req) => ({
      obj: await coupons.save(callerId(req), req.params.id, req.body, requestMeta(req)),
    }),
  });

  r.delete('/api/v1/products/coupom/delete/:id', {
    config: admin,
    schema: {
      tags,
      summary: 'Soft delete a coupon (kept on old transactions, its code stays taken)',
      params: idParams,
      response: responses(z.object({ id: z.number().int() })),
    },
    handler: async (req) => ({
      obj: await coupons.remove(callerId(req), req.params.id, requestMeta(req)),
    }),
  });
}
