import { z } from 'zod';
import {
  parseJsonBody,
  requestWithRetry,
  type ProviderResponse,
  type RetryPolicy,
} from './http-retry';
import {
  ProviderError,
  type PaypalClient,
  type PaypalOrderState,
  type PaypalWebhookEvent,
} from './payment-providers';

export interface PaypalClientOptions {
  clientId: string;
  clientSecret: string;
  /** e.g. https://api-m.sandbox.paypal.com, without a trailing slash. */
  apiUrl: string;
  /** The webhook's id in the PayPal app; without it no delivery can be verified. */
  webhookId: string | undefined;
  timeoutMs: number;
  retryDelaysMs?: readonly number[] | undefined;
}

/** Currencies PayPal takes without decimals (https://developer.paypal.com/api/rest/reference/currency-codes/). */
const ZERO_DECIMAL_CURRENCIES = new Set(['HUF', 'JPY', 'TWD']);
const decimalsOf = (currency: string) => (ZERO_DECIMAL_CURRENCIES.has(currency) ? 0 : 2);

/** 12345 BRL → '123.45'. */
export function toPaypalValue(amount: number, currency: string): string {
  const decimals = decimalsOf(currency);
  if (decimals === 0) return String(amount);
  const digits = String(Math.abs(amount)).padStart(decimals + 1, '0');
  const sign = amount < 0 ? '-' : '';
  return `${sign}${digits.slice(0, -decimals)}.${digits.slice(-decimals)}`;
}

/** '123.45' BRL → 12345, without floating point; null when it is not a plain decimal. */
export function fromPaypalValue(value: string, currency: string): number | null {
  const match = /^(\d+)(?:\.(\d+))?$/.exec(value.trim());
  if (!match) return null;
  const decimals = decimalsOf(currency);
  const fraction = (match[2] ?? '').padEnd(decimals, '0');
  if (fraction.length > decimals && /[^0]/.test(fraction.slice(decimals))) return null;
  return Number(match[1]) * 10 ** decimals + Number(fraction.slice(0, decimals) || '0');
}

const money = z.object({ currency_code: z.string(), value: z.string() });
const link = z.object({ href: z.string(), rel: z.string() });
const capture = z.object({
  id: z.string(),
  status: z.string(),
  amount: money.optional(),
  custom_id: z.string().optional(),
  create_time: z.string().optional(),
  update_time: z.string().optional(),
});
const purchaseUnit = z.object({
  custom_id: z.string().optional(),
  amount: money.optional(),
  payments: z.object({ captures: z.array(capture).optional() }).optional(),
});
const orderAnswer = z.object({
  id: z.string(),
  status: z.string(),
  purchase_units: z.array(purchaseUnit).optional(),
  links: z.array(link).optional(),
  create_time: z.string().optional(),
  update_time: z.string().optional(),
});
const tokenAnswer = z.object({ access_token: z.string().min(1), expires_in: z.number() });
const verificationAnswer = z.object({ verification_status: z.string() });
const errorAnswer = z.object({
  name: z.string().optional(),
  message: z.string().optional(),
  error: z.string().optional(),
  details: z.array(z.object({ issue: z.string().optional() })).optional(),
});

const webhookEnvelope = z.object({
  id: z.string(),
  event_type: z.string(),
  create_time: z.string(),
  resource_type: z.string().optional(),
  resource: z.unknown(),
});
const captureResource = z.object({
  id: z.string(),
  status: z.string().optional(),
  amount: money.optional(),
  custom_id: z.string().optional(),
  supplementary_data: z
    .object({
      related_ids: z
        .object({ order_id: z.string().optional(), capture_id: z.string().optional() })
        .optional(),
    })
    .optional(),
  links: z.array(link).optional(),
});
const orderResource = z.object({
  id: z.string(),
  status: z.string().optional(),
  purchase_units: z.array(purchaseUnit).optional(),
});

function amountOf(value: z.infer<typeof money> | undefined) {
  if (!value) return { amount: null, currency: null };
  return {
    amount: fromPaypalValue(value.value, value.currency_code),
    currency: value.currency_code,
  };
}

function toOrderState(order: z.infer<typeof orderAnswer>): PaypalOrderState {
  const unit = order.purchase_units?.[0];
  const firstCapture = unit?.payments?.captures?.[0];
  const approve = order.links?.find((l) => l.rel === 'payer-action' || l.rel === 'approve');
  return {
    orderId: order.id,
    status: order.status,
    reference: unit?.custom_id ?? firstCapture?.custom_id ?? null,
    captureId: firstCapture?.id ?? null,
    captureStatus: firstCapture?.status ?? null,
    ...amountOf(firstCapture?.amount ?? unit?.amount),
    updatedAt:
      firstCapture?.update_time ??
      firstCapture?.create_time ??
      order.update_time ??
      order.create_time ??
      null,
    approveUrl: approve?.href ?? null,
  };
}

/** The capture id at the end of a refund's `up` link (…/v2/payments/captures/{id}). */
function captureIdFromLinks(links: z.infer<typeof link>[] | undefined): string | null {
  const up = links?.find((l) => l.rel === 'up' && l.href.includes('/captures/'));
  return up ? (up.href.split('/').pop() ?? null) : null;
}

/** The event as the payments module reads it; null when it is not an event we can read. */
export function parsePaypalWebhookEvent(body: unknown): PaypalWebhookEvent | null {
  const envelope = webhookEnvelope.safeParse(body);
  if (!envelope.success) return null;
  const event = envelope.data;
  const base = { id: event.id, eventType: event.event_type, createTime: event.create_time };
  const isOrder =
    event.resource_type === 'checkout-order' || event.event_type.startsWith('CHECKOUT.ORDER.');
  if (isOrder) {
    const resource = orderResource.safeParse(event.resource);
    if (!resource.success) return null;
    const unit = resource.data.purchase_units?.[0];
    const firstCapture = unit?.payments?.captures?.[0];
    return {
      ...base,
      orderId: resource.data.id,
      reference: unit?.custom_id ?? null,
      captureId: firstCapture?.id ?? null,
      resourceStatus: resource.data.status ?? null,
      ...amountOf(firstCapture?.amount ?? unit?.amount),
    };
  }
  const resource = captureResource.safeParse(event.resource);
  if (!resource.success) return null;
  const related = resource.data.supplementary_data?.related_ids;
  // A refund's own id is the refund's; the capture it returns is named by its links.
  const captureId =
    event.resource_type === 'refund'
      ? (related?.capture_id ?? captureIdFromLinks(resource.data.links))
      : resource.data.id;
  return {
    ...base,
    orderId: related?.order_id ?? null,
    reference: resource.data.custom_id ?? null,
    captureId,
    resourceStatus: resource.data.status ?? null,
    ...amountOf(resource.data.amount),
  };
}

/** A header's first value, whatever the case of its name. */
function headerValue(
  headers: Record<string, string | string[] | undefined>,
  name: string,
): string | undefined {
  for (const [key, value] of Object.entries(headers)) {
    if (key.toLowerCase() !== name) continue;
    const first = Array.isArray(value) ? value[0] : value;
    if (first) return first;
  }
  return undefined;
}

function failure(what: string, response: ProviderResponse): ProviderError {
  const parsed = errorAnswer.safeParse(parseJsonBody(response));
  const issues = parsed.success
    ? [parsed.data.name ?? parsed.data.error, ...(parsed.data.details ?? []).map((d) => d.issue)]
        .filter(Boolean)
        .join(', ')
    : '';
  return new ProviderError(
    'paypal',
    `${what}: HTTP ${response.status}${issues ? ` (${issues})` : ''}`,
    response.status,
  );
}

function parseAnswer<T>(what: string, response: ProviderResponse, schema: z.ZodType<T>): T {
  if (response.status < 200 || response.status >= 300) throw failure(what, response);
  const parsed = schema.safeParse(parseJsonBody(response));
  if (!parsed.success) {
    throw new ProviderError('paypal', `${what}: unexpected answer`, response.status);
  }
  return parsed.data;
}

const hasIssue = (response: ProviderResponse, issue: string) => {
  const parsed = errorAnswer.safeParse(parseJsonBody(response));
  return parsed.success && (parsed.data.details ?? []).some((d) => d.issue === issue);
};

/** Renew the token this long before PayPal says it expires (at most half its life). */
const TOKEN_MARGIN_MS = 60_000;

/** PayPal REST (OAuth client credentials, Orders v2, webhook signature verification). */
export function createPaypalClient(options: PaypalClientOptions): PaypalClient {
  const policy: RetryPolicy = {
    provider: 'paypal',
    timeoutMs: options.timeoutMs,
    retryDelaysMs: options.retryDelaysMs,
  };
  let token: { value: string; renewAt: number } | null = null;
  let tokenRequest: Promise<string> | null = null;

  async function requestToken(): Promise<string> {
    const basic = Buffer.from(`${options.clientId}:${options.clientSecret}`).toString('base64');
    const response = await requestWithRetry(
      {
        method: 'POST',
        url: `${options.apiUrl}/v1/oauth2/token`,
        headers: {
          authorization: `Basic ${basic}`,
          accept: 'application/json',
          'content-type': 'application/x-www-form-urlencoded',
        },
        body: 'grant_type=client_credentials',
        // Asking for a token again only issues another one.
        repeatable: true,
      },
      policy,
    );
    const answer = parseAnswer('access token', response, tokenAnswer);
    const lifeMs = answer.expires_in * 1000;
    token = {
      value: answer.access_token,
      renewAt: Date.now() + lifeMs - Math.min(TOKEN_MARGIN_MS, lifeMs / 2),
    };
    return answer.access_token;
  }

  /** The cached token; concurrent callers share one token request. */
  function accessToken(): Promise<string> {
    if (token && Date.now() < token.renewAt) return Promise.resolve(token.value);
    tokenRequest ??= requestToken().finally(() => {
      tokenRequest = null;
    });
    return tokenRequest;
  }

  async function call(
    method: 'GET' | 'POST',
    path: string,
    extra: { headers?: Record<string, string>; body?: unknown; repeatable?: boolean } = {},
  ): Promise<ProviderResponse> {
    const send = (bearer: string) =>
      requestWithRetry(
        {
          method,
          url: `${options.apiUrl}${path}`,
          headers: {
            authorization: `Bearer ${bearer}`,
            accept: 'application/json',
            ...(extra.body === undefined ? {} : { 'content-type': 'application/json' }),
            ...extra.headers,
          },
          body: extra.body === undefined ? undefined : JSON.stringify(extra.body),
          repeatable: extra.repeatable,
        },
        policy,
      );
    const used = await accessToken();
    const response = await send(used);
    if (response.status !== 401) return response;
    // Revoked or expired early: one new token, one more try (a 401 was not processed).
    if (token?.value === used) token = null;
    return send(await accessToken());
  }

  const orderPath = (orderId: string) => `/v2/checkout/orders/${encodeURIComponent(orderId)}`;

  async function getOrder(orderId: string): Promise<PaypalOrderState> {
    const response = await call('GET', orderPath(orderId));
    return toOrderState(parseAnswer('get order', response, orderAnswer));
  }

  return {
    async createOrder(input) {
      const response = await call('POST', '/v2/checkout/orders', {
        headers: {
          'PayPal-Request-Id': `create-${input.reference}`,
          Prefer: 'return=representation',
        },
        body: {
          intent: 'CAPTURE',
          purchase_units: [
            {
              reference_id: input.reference,
              custom_id: input.reference,
              description: input.description.slice(0, 127),
              amount: {
                currency_code: input.currency,
                value: toPaypalValue(input.amount, input.currency),
              },
            },
          ],
          payment_source: {
            paypal: {
              experience_context: {
                return_url: input.returnUrl,
                cancel_url: input.cancelUrl,
                user_action: 'PAY_NOW',
                shipping_preference: 'NO_SHIPPING',
              },
            },
          },
        },
      });
      return toOrderState(parseAnswer('create order', response, orderAnswer));
    },

    getOrder,

    async captureOrder(orderId) {
      const response = await call('POST', `${orderPath(orderId)}/capture`, {
        headers: { 'PayPal-Request-Id': `capture-${orderId}`, Prefer: 'return=representation' },
        body: {},
      });
      // Captured before (its request id forgotten by PayPal): the order holds that capture.
      if (response.status === 422 && hasIssue(response, 'ORDER_ALREADY_CAPTURED')) {
        return getOrder(orderId);
      }
      return toOrderState(parseAnswer('capture order', response, orderAnswer));
    },

    async verifyWebhook(headers, rawBody) {
      if (!options.webhookId) return null;
      const signature = {
        auth_algo: headerValue(headers, 'paypal-auth-algo'),
        cert_url: headerValue(headers, 'paypal-cert-url'),
        transmission_id: headerValue(headers, 'paypal-transmission-id'),
        transmission_sig: headerValue(headers, 'paypal-transmission-sig'),
        transmission_time: headerValue(headers, 'paypal-transmission-time'),
      };
      if (Object.values(signature).some((value) => value === undefined)) return null;
      let event: unknown;
      try {
        event = JSON.parse(rawBody);
      } catch {
        return null;
      }
      if (typeof event !== 'object' || event === null || Array.isArray(event)) return null;
      const response = await call('POST', '/v1/notifications/verify-webhook-signature', {
        body: { ...signature, webhook_id: options.webhookId, webhook_event: event },
        // A signature check changes nothing at PayPal.
        repeatable: true,
      });
      // PayPal refused to check it (malformed headers): as unverifiable as a wrong signature.
      // Refused credentials are our fault, not the sender's: they throw below.
      const refusedDelivery = response.status >= 400 && response.status < 500;
      if (refusedDelivery && response.status !== 401 && response.status !== 403) return null;
      const answer = parseAnswer('verify webhook', response, verificationAnswer);
      return answer.verification_status === 'SUCCESS' ? parsePaypalWebhookEvent(event) : null;
    },
  };
}
