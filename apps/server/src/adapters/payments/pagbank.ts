import { createHash, timingSafeEqual } from 'node:crypto';
import { z } from 'zod';
import {
  parseJsonBody,
  requestWithRetry,
  type ProviderResponse,
  type RetryPolicy,
} from './http-retry';
import {
  ProviderError,
  type PagbankCheckout,
  type PagbankClient,
  type PagbankNotificationReading,
  type PagbankOrderState,
} from './payment-providers';

export interface PagbankClientOptions {
  /** The account's integration token (Bearer), also the key of notification signatures. */
  token: string;
  /** e.g. https://sandbox.api.pagseguro.com, without a trailing slash. */
  apiUrl: string;
  timeoutMs: number;
  retryDelaysMs?: readonly number[] | undefined;
}

const link = z.object({ rel: z.string(), href: z.string() });
const checkoutAnswer = z.object({
  id: z.string(),
  status: z.string(),
  links: z.array(link).optional(),
  orders: z.array(z.object({ id: z.string() })).optional(),
});
const charge = z.object({
  id: z.string(),
  status: z.string(),
  amount: z.object({ value: z.number().int(), currency: z.string() }).optional(),
  paid_at: z.string().optional(),
  created_at: z.string().optional(),
});
const orderAnswer = z.object({
  id: z.string(),
  reference_id: z.string().optional(),
  created_at: z.string().optional(),
  charges: z.array(charge).optional(),
});
const errorAnswer = z.object({
  error_messages: z
    .array(z.object({ code: z.string().optional(), parameter_name: z.string().optional() }))
    .optional(),
});

/** Ids as PagBank writes them (ORDE_…, CHEC_…); anything else is not trusted into a URL. */
const PAGBANK_ID = /^[A-Za-z0-9_-]{1,64}$/;
const asId = (value: unknown): string | null =>
  typeof value === 'string' && PAGBANK_ID.test(value) ? value : null;

function toCheckout(answer: z.infer<typeof checkoutAnswer>): PagbankCheckout {
  return {
    checkoutId: answer.id,
    status: answer.status,
    payUrl: answer.links?.find((l) => l.rel.toUpperCase() === 'PAY')?.href ?? null,
    orderIds: (answer.orders ?? []).map((order) => order.id),
  };
}

function toOrderState(order: z.infer<typeof orderAnswer>): PagbankOrderState {
  const last = order.charges?.at(-1);
  return {
    orderId: order.id,
    reference: order.reference_id ?? null,
    chargeId: last?.id ?? null,
    chargeStatus: last?.status ?? null,
    amount: last?.amount?.value ?? null,
    currency: last?.amount?.currency ?? null,
    updatedAt: last?.paid_at ?? last?.created_at ?? order.created_at ?? null,
  };
}

function parseAnswer<T>(what: string, response: ProviderResponse, schema: z.ZodType<T>): T {
  const body = parseJsonBody(response);
  if (response.status < 200 || response.status >= 300) {
    const parsed = errorAnswer.safeParse(body);
    const codes = parsed.success
      ? (parsed.data.error_messages ?? [])
          .map((m) => [m.code, m.parameter_name].filter(Boolean).join(' '))
          .join(', ')
      : '';
    throw new ProviderError(
      'pagbank',
      `${what}: HTTP ${response.status}${codes ? ` (${codes})` : ''}`,
      response.status,
    );
  }
  const parsed = schema.safeParse(body);
  if (!parsed.success) {
    throw new ProviderError('pagbank', `${what}: unexpected answer`, response.status);
  }
  return parsed.data;
}

function headerValue(
  headers: Record<string, string | string[] | undefined>,
  name: string,
): string | undefined {
  for (const [key, value] of Object.entries(headers)) {
    if (key.toLowerCase() !== name) continue;
    const first = Array.isArray(value) ? value[0] : value;
    if (first !== undefined) return first;
  }
  return undefined;
}

/** PagBank's notification signature: sha256 hex of `${token}-${rawBody}`. */
export function pagbankSignature(token: string, rawBody: string): string {
  return createHash('sha256').update(`${token}-${rawBody}`).digest('hex');
}

function sameSignature(received: string, expected: string): boolean {
  const a = Buffer.from(received.trim().toLowerCase());
  const b = Buffer.from(expected);
  return a.length === b.length && timingSafeEqual(a, b);
}

/** The order a notification names: an Order (ORDE_…), a charge's order_id, or a checkout's last order. */
function orderIdOf(body: Record<string, unknown>): string | null {
  const id = asId(body.id);
  if (id?.startsWith('ORDE_')) return id;
  const direct = asId(body.order_id);
  if (direct) return direct;
  if (Array.isArray(body.charges)) {
    for (const item of body.charges as unknown[]) {
      const fromCharge = asId((item as { order_id?: unknown } | null)?.order_id);
      if (fromCharge) return fromCharge;
    }
  }
  if (id?.startsWith('CHEC_') && Array.isArray(body.orders)) {
    const last = (body.orders as unknown[]).at(-1) as { id?: unknown } | undefined;
    return asId(last?.id);
  }
  return null;
}

/** PagBank REST: checkouts (hosted payment page) and the orders paid through them. */
export function createPagbankClient(options: PagbankClientOptions): PagbankClient {
  const policy: RetryPolicy = {
    provider: 'pagbank',
    timeoutMs: options.timeoutMs,
    retryDelaysMs: options.retryDelaysMs,
  };

  const call = (
    method: 'GET' | 'POST',
    path: string,
    extra: { headers?: Record<string, string>; body?: unknown } = {},
  ) =>
    requestWithRetry(
      {
        method,
        url: `${options.apiUrl}${path}`,
        headers: {
          authorization: `Bearer ${options.token}`,
          accept: 'application/json',
          ...(extra.body === undefined ? {} : { 'content-type': 'application/json' }),
          ...extra.headers,
        },
        body: extra.body === undefined ? undefined : JSON.stringify(extra.body),
      },
      policy,
    );

  return {
    async createCheckout(input) {
      const response = await call('POST', '/checkouts', {
        headers: { 'x-idempotency-key': `checkout-${input.reference}` },
        body: {
          reference_id: input.reference,
          ...(input.customer
            ? { customer: { name: input.customer.name, email: input.customer.email } }
            : {}),
          // The payer completes what we do not hold (tax id, phone) on PagBank's page.
          customer_modifiable: true,
          items: [
            {
              reference_id: input.reference,
              name: input.itemName.slice(0, 100),
              quantity: 1,
              unit_amount: input.amount,
            },
          ],
          payment_methods: [{ type: 'CREDIT_CARD' }, { type: 'BOLETO' }],
          redirect_url: input.redirectUrl,
          notification_urls: [input.notificationUrl],
          payment_notification_urls: [input.notificationUrl],
        },
      });
      return toCheckout(parseAnswer('create checkout', response, checkoutAnswer));
    },

    async getCheckout(checkoutId) {
      const response = await call('GET', `/checkouts/${encodeURIComponent(checkoutId)}`);
      return toCheckout(parseAnswer('get checkout', response, checkoutAnswer));
    },

    async getOrder(orderId) {
      const response = await call('GET', `/orders/${encodeURIComponent(orderId)}`);
      return toOrderState(parseAnswer('get order', response, orderAnswer));
    },

    readNotification(headers, rawBody): PagbankNotificationReading {
      // Unsigned is refused: anyone can post here, and the body names the order to apply.
      const received = headerValue(headers, 'x-authenticity-token');
      if (
        received === undefined ||
        !sameSignature(received, pagbankSignature(options.token, rawBody))
      ) {
        return { kind: 'unsigned' };
      }
      let body: unknown;
      try {
        body = JSON.parse(rawBody);
      } catch {
        return { kind: 'unreadable' };
      }
      if (typeof body !== 'object' || body === null || Array.isArray(body)) {
        return { kind: 'unreadable' };
      }
      const record = body as Record<string, unknown>;
      const orderId = orderIdOf(record);
      if (!orderId) return { kind: 'unreadable' };
      const id = asId(record.id);
      const checkoutId = asId(record.checkout_id) ?? (id?.startsWith('CHEC_') ? id : null);
      return { kind: 'notice', orderId, checkoutId };
    },
  };
}
