import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  MESSAGE,
  RECEIPT_DESCRIPTION_MAX,
  isStorableText,
  RECEIPT_MAX_BYTES,
  authCancelBodySchema,
  authReceiptBodySchema,
  cancelTransactionBodySchema,
  checkPhysicalPaymentBodySchema,
  paymentLinkSchema,
  paymentReturnSchema,
  publicPaymentReturnSchema,
  pendingTransactionSchema,
  deferredCasePaymentSchema,
  setInvoiceCustomerBodySchema,
  setInvoiceNumberBodySchema,
  transactionViewSchema,
  idParamSchema,
} from '@dentflow/domain';
import type { Config } from '../../config';
import { AppError, validationError } from '../../http/app-error';
import { responses } from '../../http/envelope';
import { multipartRefusal } from '../../http/multipart';
import { requestLanguage } from '../../http/language';
import { caller } from '../../http/request-meta';
import type { PaymentsService, ReceiptFile } from './payments.service';

const tags = ['payments'];
const id = idParamSchema;
const params = z.object({ id });
const auth = { permission: 'authenticated' as const };

/**
 * Transactions (`/case/transaction/{id}/…`) and the provider returns and notices
 * (docs/permissions.md "Transactions"): route rules here, per-record rules in the service.
 */
export function registerPaymentsRoutes(app: FastifyInstance, payments: PaymentsService) {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const base = '/api/v1/case/transaction/:id';
  const view = responses(transactionViewSchema);

  r.get(`${base}/refresh`, {
    config: auth,
    schema: { tags, summary: "Re-read the provider's status", params, response: view },
    handler: async (req) => ({ obj: await payments.refresh(caller(req), req.params.id) }),
  });

  r.get(`${base}/paymentLink`, {
    config: auth,
    schema: {
      tags,
      summary: "Where to pay: the Pix code, or the provider's page (created on first use)",
      params,
      response: responses(paymentLinkSchema),
    },
    handler: async (req) => ({ obj: await payments.paymentLink(caller(req), req.params.id) }),
  });

  r.post(`${base}/authReceipt`, {
    config: { permission: 'supervisor' },
    schema: {
      tags,
      summary: 'Authorise (paid) or deny the pending receipt (supervisor)',
      params,
      body: authReceiptBodySchema,
      response: view,
    },
    handler: async (req) => ({
      obj: await payments.authReceipt(caller(req), req.params.id, req.body.approve),
    }),
  });

  r.post(`${base}/setInvoiceCustomer`, {
    config: auth,
    schema: {
      tags,
      summary: 'Who the invoice is made out to (payer, case owner or staff)',
      params,
      body: setInvoiceCustomerBodySchema,
      response: view,
    },
    handler: async (req) => ({
      obj: await payments.setInvoiceCustomer(caller(req), req.params.id, req.body),
    }),
  });

  r.post(`${base}/setInvoiceNumber`, {
    config: { permission: 'admin' },
    schema: {
      tags,
      summary: 'The issued invoice number (admin)',
      params,
      body: setInvoiceNumberBodySchema,
      response: view,
    },
    handler: async (req) => ({
      obj: await payments.setInvoiceNumber(caller(req), req.params.id, req.body.invoiceNumber),
    }),
  });

  r.post(`${base}/checkPhysicalPayment`, {
    config: { permission: 'admin' },
    schema: {
      tags,
      summary: 'Confirm (paid) a card machine or insurance payment, or flag it (admin)',
      params,
      body: checkPhysicalPaymentBodySchema,
      response: view,
    },
    handler: async (req) => ({
      obj: await payments.checkPhysicalPayment(caller(req), req.params.id, req.body.confirm),
    }),
  });

  r.post(`${base}/cancel`, {
    config: auth,
    schema: {
      tags,
      summary: 'Request a cancel: reason 1, 2, 3 or 6 and a description',
      params,
      body: cancelTransactionBodySchema,
      response: view,
    },
    handler: async (req) => ({
      obj: await payments.requestCancel(caller(req), req.params.id, req.body),
    }),
  });

  r.post(`${base}/authCancel`, {
    config: { permission: 'supervisor' },
    schema: {
      tags,
      summary: "Authorise (deletes the transaction's services; cancelled) or deny a cancel",
      params,
      body: authCancelBodySchema,
      response: view,
    },
    handler: async (req) => ({
      obj: await payments.authCancel(caller(req), req.params.id, req.body),
    }),
  });

  r.get('/api/v1/transactions/pending', {
    config: { permission: 'supervisor' },
    schema: {
      tags,
      summary: 'Transactions waiting for staff: receipts, card machine, insurance, cancels, issues',
      response: responses(z.array(pendingTransactionSchema)),
    },
    handler: async (req) => ({ obj: await payments.pending(caller(req)) }),
  });

  r.get('/api/v1/transactions/deferred', {
    config: { permission: 'supervisor' },
    schema: {
      tags,
      summary: 'Cases validated with unpaid services (bill later) that are still unpaid',
      response: responses(z.array(deferredCasePaymentSchema)),
    },
    handler: async (req) => ({ obj: await payments.deferred(requestLanguage(req)) }),
  });

  for (const provider of ['paypal', 'pagseguro'] as const) {
    r.get(`/api/v1/notification/${provider}/transaction/:id`, {
      config: auth,
      schema: {
        tags,
        summary: `The ${provider} return page: confirm the payment and answer the transaction`,
        params,
        querystring: z.object({
          token: z.string().max(100).optional(),
          PayerID: z.string().max(100).optional(),
        }),
        response: responses(paymentReturnSchema),
      },
      handler: async (req) => ({
        obj: await payments.providerReturn(caller(req), req.params.id, provider, req.query.token),
      }),
    });
  }
}

/**
 * The return pages' status without a session (public, rate-limited): only the payment's status,
 * found by the transaction's reference or PayPal's order token.
 */
export function registerPublicPaymentReturnRoutes(
  app: FastifyInstance,
  payments: PaymentsService,
  config: Config,
) {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const rateLimit = { max: config.rateLimit.login * 10, timeWindow: config.rateLimit.windowMs };
  for (const provider of ['paypal', 'pagseguro'] as const) {
    r.get(`/api/v1/notification/${provider}/status`, {
      config: { permission: 'public', rateLimit },
      schema: {
        tags,
        summary: `The ${provider} return page before login: the payment's status only`,
        querystring: z.object({
          reference: z.string().min(1).max(60).optional(),
          token: z.string().max(100).optional(),
        }),
        response: responses(publicPaymentReturnSchema),
      },
      handler: async (req) => ({ obj: await payments.publicReturn(provider, req.query, req) }),
    });
  }
}

/**
 * The providers' notices, public (the provider calls them) and read as the raw body: PayPal's
 * verification and PagBank's signature are over the exact bytes sent.
 */
export async function registerPaymentNoticeRoutes(
  app: FastifyInstance,
  payments: PaymentsService,
  config: Config,
) {
  await app.register(async (scope) => {
    scope.removeAllContentTypeParsers();
    scope.addContentTypeParser(
      '*',
      { parseAs: 'string', bodyLimit: 256 * 1024 },
      (_req, body, done) => done(null, body),
    );
    const rateLimit = { max: config.rateLimit.login * 30, timeWindow: config.rateLimit.windowMs };
    const rawBody = (body: unknown) => (typeof body === 'string' ? body : '');

    scope.post('/api/v1/notification/paypal', {
      config: { permission: 'public', rateLimit },
      schema: { tags, summary: 'PayPal webhook (verified with verify-webhook-signature)' },
      handler: async (req) => ({
        obj: await payments.paypalWebhook(req.headers, rawBody(req.body), req),
      }),
    });

    scope.post('/api/v1/notification/pagseguro', {
      config: { permission: 'public', rateLimit },
      schema: { tags, summary: 'PagBank notification (signature checked; the order re-read)' },
      handler: async (req) => ({
        obj: await payments.pagbankNotification(req.headers, rawBody(req.body), req),
      }),
    });
  });
}

/**
 * `POST .../submitReceipt`: multipart with `justification` (≤ 75) and the `receipt` file
 * (≤ 4124672 bytes; a larger one is refused and nothing is kept). Needs @fastify/multipart in the
 * scope (storage.routes.ts).
 */
export function registerReceiptRoute(
  scope: FastifyInstance,
  payments: PaymentsService,
  config: Config,
) {
  const r = scope.withTypeProvider<ZodTypeProvider>();
  r.post('/api/v1/case/transaction/:id/submitReceipt', {
    config: {
      permission: 'authenticated',
      rateLimit: { max: config.rateLimit.upload, timeWindow: config.rateLimit.windowMs },
    },
    schema: {
      tags,
      summary: 'Send a payment receipt: multipart `justification` and `receipt` file',
      consumes: ['multipart/form-data'],
      params,
      response: responses(transactionViewSchema),
    },
    handler: async (req) => {
      if (!req.isMultipart()) throw new AppError(415, 'UNSUPPORTED_MEDIA_TYPE');
      let justification = '';
      let file: ReceiptFile | null = null;
      try {
        for await (const part of req.parts({
          limits: { fileSize: RECEIPT_MAX_BYTES, files: 1, fields: 5, parts: 6 },
        })) {
          if (part.type === 'field') {
            if (part.fieldname === 'justification' && typeof part.value === 'string') {
              justification = part.value;
            }
            continue;
          }
          if (part.fieldname !== 'receipt' || file) {
            part.file.resume();
            continue;
          }
          const buffer = await part.toBuffer();
          if (buffer.length > 0) {
            file = { buffer, filename: part.filename, contentType: part.mimetype };
          }
        }
      } catch (error) {
        // Only the body is read here (into memory): any failure is the request's.
        throw multipartRefusal(error, 'receipt');
      }
      if (!isStorableText(justification)) {
        throw validationError({ justification: MESSAGE.invalidCharacters });
      }
      if (file && !isStorableText(file.filename)) {
        throw validationError({ receipt: MESSAGE.invalidCharacters });
      }
      if (justification.trim().length > RECEIPT_DESCRIPTION_MAX) {
        throw validationError({ justification: 'validation.max' });
      }
      return {
        obj: await payments.submitReceipt(caller(req), req.params.id, { justification, file }),
      };
    },
  });
}
