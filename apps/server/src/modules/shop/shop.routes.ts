import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  MESSAGE,
  checkoutBodySchema,
  checkoutResultSchema,
  couponLookupResponseSchema,
  currencyQuerySchema,
  knownAddressesSchema,
  quoteRequestSchema,
  quoteResponseSchema,
  shippingQuoteSchema,
  sleeveOfferSchema,
  brazilianZipCodeSchema,
  caseTransactionsSchema,
  idParamSchema,
  newTransactionBodySchema,
  transactionViewSchema,
} from '@dentflow/domain';
import { responses } from '../../http/envelope';
import { requestLanguage } from '../../http/language';
import { caller } from '../../http/request-meta';
import type { Config } from '../../config';
import type { ShopService } from './shop.service';

const tags = ['shop'];

/**
 * The shop's calls (Shop): the order is priced on the server only. Ordering is
 * for clinics and doctors (`doctor`; admins pass); the rest for any signed-in user.
 */
export function registerShopRoutes(app: FastifyInstance, shop: ShopService, config: Config) {
  const r = app.withTypeProvider<ZodTypeProvider>();

  r.get('/api/v1/shop/queryAddress/:zipcode', {
    config: { permission: 'authenticated' },
    schema: {
      tags,
      summary:
        'Address of a Brazilian zip code (400 on a malformed one; 503 ZIP_LOOKUP_UNAVAILABLE: fill it in by hand)',
      params: z.object({ zipcode: brazilianZipCodeSchema }),
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
    handler: async (req) => ({ obj: await shop.queryAddress(req.params.zipcode, req) }),
  });

  r.post('/api/v1/shop/quote', {
    config: { permission: 'doctor' },
    schema: {
      tags,
      summary: "The server's price of an order and what would still refuse it; creates nothing",
      body: quoteRequestSchema,
      response: responses(quoteResponseSchema),
    },
    handler: async (req) => ({
      obj: await shop.quote(caller(req), req.body, requestLanguage(req)),
    }),
  });

  r.post('/api/v1/shop/checkout', {
    config: { permission: 'doctor' },
    schema: {
      tags,
      summary:
        'Place an order: services on the case, an awaiting_payment transaction, case to checkingout (idempotent by key)',
      body: checkoutBodySchema,
      response: responses(checkoutResultSchema),
    },
    handler: async (req) => ({
      obj: await shop.checkout(caller(req), req.body, requestLanguage(req)),
    }),
  });

  r.get('/api/v1/products/coupom/lookup/:code', {
    // Like the nickname check: a probe for codes, so limited per client address.
    config: {
      permission: 'authenticated',
      rateLimit: { max: config.rateLimit.nickname, timeWindow: config.rateLimit.windowMs },
    },
    schema: {
      tags,
      summary:
        'Whether a coupon applies to the caller now and what it takes off the cart (JSON in `cart`)',
      // The characters a coupon code may have (the admin form's rule).
      params: z.object({
        code: z
          .string()
          .trim()
          .min(1)
          .max(60)
          .regex(/^[\p{L}\p{N}_-]+$/u, MESSAGE.alphaNum),
      }),
      querystring: z.object({ cart: z.string().max(50_000).optional() }),
      response: responses(couponLookupResponseSchema),
    },
    handler: async (req) => ({
      obj: await shop.lookupCoupon(
        caller(req),
        req.params.code,
        req.query.cart,
        requestLanguage(req),
      ),
    }),
  });

  r.get('/api/v1/shop/fetchSleeves', {
    config: { permission: 'authenticated' },
    schema: {
      tags,
      summary: "Sleeve manufacturers and prices (currency default: the caller's)",
      querystring: currencyQuerySchema,
      response: responses(z.array(sleeveOfferSchema)),
    },
    handler: async (req) => ({
      obj: await shop.fetchSleeves(caller(req), req.query.currency),
    }),
  });

  r.post('/api/v1/shop/fetchAddress', {
    config: { permission: 'authenticated' },
    schema: {
      tags,
      summary: "The caller's profile address and the addresses of their earlier deliveries",
      // Nothing to send: an empty JSON object (so a stray body is refused like on every POST).
      body: z.object({}).strict(),
      response: responses(knownAddressesSchema),
    },
    handler: async (req) => ({ obj: await shop.fetchAddress(caller(req)) }),
  });

  r.get('/api/v1/shop/getShippingPrice/:zipcode', {
    config: { permission: 'authenticated' },
    schema: {
      tags,
      summary: 'Delivery options that serve a zip code, with fee and days',
      params: z.object({ zipcode: z.string().max(40) }),
      querystring: currencyQuerySchema,
      response: responses(z.array(shippingQuoteSchema)),
    },
    handler: async (req) => ({
      obj: await shop.shippingPrice(caller(req), req.params.zipcode, req.query.currency),
    }),
  });

  registerCasePaymentRoutes(app, shop);
}

/**
 * 'Pay the remaining services' (docs/permissions.md "Transactions"): the case's transactions with
 * what is still unpaid and its price, and a transaction for those services. Listed with the
 * payments calls (their OpenAPI tag); the order is the shop's.
 */
function registerCasePaymentRoutes(app: FastifyInstance, shop: ShopService) {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const paymentsTags = ['payments'];
  const params = z.object({ id: idParamSchema });

  r.get('/api/v1/case/:id/transactions', {
    config: { permission: 'authenticated' },
    schema: {
      tags: paymentsTags,
      summary: "The case's transactions the caller may see, newest first, and what is unpaid",
      params,
      response: responses(caseTransactionsSchema),
    },
    handler: async (req) => ({
      obj: await shop.listCaseTransactions(caller(req), req.params.id, requestLanguage(req)),
    }),
  });

  r.post('/api/v1/case/transaction/:id/new', {
    config: { permission: 'doctor' },
    schema: {
      tags: paymentsTags,
      summary: "A new transaction for the case's unpaid services ({id} is the case id; owner)",
      params,
      body: newTransactionBodySchema,
      response: responses(transactionViewSchema),
    },
    handler: async (req) => ({
      obj: await shop.payRemainingServices(
        caller(req),
        req.params.id,
        req.body.paymentMethod,
        requestLanguage(req),
      ),
    }),
  });
}
