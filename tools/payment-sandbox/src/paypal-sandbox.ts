import { createHmac, randomBytes, randomUUID, timingSafeEqual } from 'node:crypto';
import {
  createServer,
  type IncomingHttpHeaders,
  type IncomingMessage,
  type ServerResponse,
} from 'node:http';
import type { AddressInfo } from 'node:net';
import { crc32 } from 'node:zlib';

/**
 * A local stand-in for PayPal's REST API (OAuth client credentials, Orders v2 create / get /
 * capture, verify-webhook-signature) and its approval page, answering with PayPal's documented
 * shapes, so the adapter, the server and the browser journeys run without the internet.
 */

export interface PaypalSandboxOptions {
  port?: number | undefined;
  host?: string | undefined;
  clientId?: string | undefined;
  clientSecret?: string | undefined;
  webhookId?: string | undefined;
  /** Access tokens' `expires_in` (PayPal: 32400). */
  tokenTtlSeconds?: number | undefined;
}

interface Money {
  currency_code: string;
  value: string;
}

export interface PaypalSandboxCapture {
  id: string;
  status: string;
  status_details?: { reason: string };
  amount: Money;
  final_capture: boolean;
  custom_id?: string;
  seller_protection: { status: string; dispute_categories: string[] };
  create_time: string;
  update_time: string;
}

export interface PaypalSandboxPurchaseUnit {
  reference_id: string;
  amount: Money;
  payee: { email_address: string; merchant_id: string };
  description?: string;
  custom_id?: string;
  invoice_id?: string;
  payments?: { captures: PaypalSandboxCapture[] };
}

/** An order as PayPal holds it (links are added when it is answered). */
export interface PaypalSandboxOrder {
  id: string;
  intent: 'CAPTURE' | 'AUTHORIZE';
  status: 'CREATED' | 'PAYER_ACTION_REQUIRED' | 'APPROVED' | 'VOIDED' | 'COMPLETED';
  purchase_units: PaypalSandboxPurchaseUnit[];
  payment_source?: {
    paypal: {
      email_address?: string;
      account_id?: string;
      name?: { given_name: string; surname: string };
    };
  };
  payer?: {
    name: { given_name: string; surname: string };
    email_address: string;
    payer_id: string;
  };
  create_time: string;
  update_time: string;
}

export interface SandboxRequest {
  method: string;
  /** Path without the query. */
  path: string;
  headers: IncomingHttpHeaders;
}

export interface PaypalSandbox {
  /** Base URL: the adapter's `apiUrl` and the host of the approval page. */
  url: string;
  orders: Map<string, PaypalSandboxOrder>;
  /** Every request received, oldest first. */
  requests: SandboxRequest[];
  /** The payer approves (what the approval page's button does). */
  approve(orderId: string): void;
  /** The status of the order's capture: the next capture gets it, an existing one changes. */
  setCaptureStatus(orderId: string, status: string): void;
  /** The next `count` API calls answer `status` with PayPal's error shape (0 stops it). */
  failNext(count: number, status: number): void;
  /** The next `count` API calls wait `ms` before answering. */
  delayNext(count: number, ms: number): void;
  /** Access tokens issued so far stop working (PayPal answers 401). */
  revokeTokens(): void;
  /** PayPal keeps PayPal-Request-Id answers for hours, not forever: forget them now. */
  forgetRequestIds(): void;
  /** A delivery of `event` as PayPal would post it; only the sandbox verifies its signature. */
  signWebhook(event: object): { headers: Record<string, string>; body: string };
  close(): Promise<void>;
}

const PAYER_ID = 'SANDBOXPAYER';
const MERCHANT_ID = 'SANDBOXMERCHANT1';
const ZERO_DECIMAL_CURRENCIES = new Set(['HUF', 'JPY', 'TWD']);
/** PayPal's pattern for money values. */
const VALUE_PATTERN = /^((-?[0-9]+)|(-?([0-9]+)?[.][0-9]+))$/;

class PaypalApiError extends Error {
  constructor(
    readonly status: number,
    readonly body: object,
  ) {
    super(`HTTP ${status}`);
  }
}

const ERROR_NAMES: Record<number, [string, string]> = {
  400: [
    'INVALID_REQUEST',
    'Request is not well-formed, syntactically incorrect, or violates schema.',
  ],
  401: [
    'AUTHENTICATION_FAILURE',
    'Authentication failed due to invalid authentication credentials or a missing Authorization header.',
  ],
  403: ['NOT_AUTHORIZED', 'Authorization failed due to insufficient permissions.'],
  404: ['RESOURCE_NOT_FOUND', 'The specified resource does not exist.'],
  409: ['RESOURCE_CONFLICT', 'The server has detected a conflict while processing this request.'],
  422: [
    'UNPROCESSABLE_ENTITY',
    'The requested action could not be performed, semantically incorrect, or failed business validation.',
  ],
  429: ['RATE_LIMIT_REACHED', 'Too many requests. Blocked due to rate limiting.'],
  500: ['INTERNAL_SERVER_ERROR', 'An internal server error has occurred.'],
  503: ['SERVICE_UNAVAILABLE', 'Service Unavailable.'],
};

interface ErrorDetail {
  field?: string;
  value?: string;
  location?: string;
  issue: string;
  description: string;
}

/** PayPal's error body: name, message, debug_id, details, information link. */
function apiError(status: number, details: ErrorDetail[] = []): PaypalApiError {
  const [name, message] = ERROR_NAMES[status] ?? ['UNKNOWN_ERROR', `HTTP ${status}`];
  const first = details[0]?.issue;
  return new PaypalApiError(status, {
    name,
    message,
    debug_id: randomBytes(7).toString('hex'),
    ...(details.length > 0 ? { details } : {}),
    links: [
      {
        href: `https://developer.paypal.com/docs/api/orders/v2/#error-${first ?? name}`,
        rel: 'information_link',
        method: 'GET',
      },
    ],
  });
}

/** PayPal-style ids: 17 upper-case letters and digits. */
function paypalId(): string {
  const alphabet = 'ABCDEFGHJKLMNPRSTUVWXYZ0123456789';
  return Array.from(randomBytes(17), (byte) => alphabet[byte % alphabet.length]).join('');
}

const now = () => new Date().toISOString().replace(/\.\d{3}Z$/, 'Z');

function escapeHtml(text: string): string {
  return text.replace(
    /[&<>"']/g,
    (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c] ?? c,
  );
}

async function readBody(req: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString('utf8');
}

function send(res: ServerResponse, status: number, body: string, type: string): void {
  res.writeHead(status, { 'content-type': type, 'content-length': Buffer.byteLength(body) });
  res.end(body);
}

const sendJson = (res: ServerResponse, status: number, body: unknown) =>
  send(res, status, JSON.stringify(body), 'application/json');

function page(title: string, body: string): string {
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>${escapeHtml(title)}</title>
<meta name="viewport" content="width=device-width, initial-scale=1"></head>
<body style="font-family: sans-serif; max-width: 32rem; margin: 3rem auto">${body}</body></html>`;
}

function validationDetail(field: string, issue: string, description: string): ErrorDetail {
  return { field, location: 'body', issue, description };
}

/** Checks what PayPal's schema checks for the subset we speak; throws its 400/422 answers. */
function validateCreateOrder(body: unknown): {
  intent: 'CAPTURE' | 'AUTHORIZE';
  units: PaypalSandboxPurchaseUnit[];
  experience: { returnUrl: string | null; cancelUrl: string | null } | null;
} {
  if (typeof body !== 'object' || body === null) {
    throw apiError(400, [
      { issue: 'MALFORMED_REQUEST_JSON', description: 'The request JSON is not well formed.' },
    ]);
  }
  const request = body as Record<string, unknown>;
  if (request.intent === undefined) {
    throw apiError(400, [
      validationDetail(
        '/intent',
        'MISSING_REQUIRED_PARAMETER',
        'A required field / parameter is missing.',
      ),
    ]);
  }
  if (request.intent !== 'CAPTURE' && request.intent !== 'AUTHORIZE') {
    throw apiError(400, [
      validationDetail('/intent', 'INVALID_PARAMETER_VALUE', 'The value of a field is invalid.'),
    ]);
  }
  const units = request.purchase_units;
  if (!Array.isArray(units) || units.length === 0 || units.length > 10) {
    throw apiError(400, [
      validationDetail(
        '/purchase_units',
        'MISSING_REQUIRED_PARAMETER',
        'A required field / parameter is missing.',
      ),
    ]);
  }
  const parsedUnits = units.map((raw: unknown, index): PaypalSandboxPurchaseUnit => {
    const unit = (raw ?? {}) as Record<string, unknown>;
    const amount = (unit.amount ?? {}) as Record<string, unknown>;
    const field = `/purchase_units/${index}/amount`;
    if (typeof amount.currency_code !== 'string' || !/^[A-Z]{3}$/.test(amount.currency_code)) {
      throw apiError(400, [
        validationDetail(
          `${field}/currency_code`,
          'INVALID_PARAMETER_SYNTAX',
          'The value of a field does not conform to the expected format.',
        ),
      ]);
    }
    if (typeof amount.value !== 'string' || !VALUE_PATTERN.test(amount.value)) {
      throw apiError(400, [
        validationDetail(
          `${field}/value`,
          'INVALID_PARAMETER_SYNTAX',
          'The value of a field does not conform to the expected format.',
        ),
      ]);
    }
    const decimals = amount.value.split('.')[1]?.length ?? 0;
    const allowed = ZERO_DECIMAL_CURRENCIES.has(amount.currency_code) ? 0 : 2;
    if (decimals > allowed) {
      throw apiError(422, [
        {
          field: `${field}/value`,
          location: 'body',
          issue: 'DECIMAL_PRECISION',
          description:
            'If the currency supports decimals, only two decimal place precision is supported.',
        },
      ]);
    }
    if (Number(amount.value) <= 0) {
      throw apiError(422, [
        {
          field: `${field}/value`,
          location: 'body',
          issue: 'CANNOT_BE_ZERO_OR_NEGATIVE',
          description:
            'Must be greater than zero. If the currency supports decimals, only two decimal place precision is supported.',
        },
      ]);
    }
    for (const [name, max] of [
      ['custom_id', 127],
      ['description', 127],
      ['reference_id', 256],
      ['invoice_id', 127],
    ] as const) {
      const value = unit[name];
      if (value !== undefined && (typeof value !== 'string' || value.length > max)) {
        throw apiError(400, [
          validationDetail(
            `/purchase_units/${index}/${name}`,
            'INVALID_STRING_LENGTH',
            'The value of a field is either too short or too long.',
          ),
        ]);
      }
    }
    return {
      reference_id: typeof unit.reference_id === 'string' ? unit.reference_id : 'default',
      amount: { currency_code: amount.currency_code, value: amount.value },
      payee: { email_address: 'merchant@sandbox.example', merchant_id: MERCHANT_ID },
      ...(typeof unit.description === 'string' ? { description: unit.description } : {}),
      ...(typeof unit.custom_id === 'string' ? { custom_id: unit.custom_id } : {}),
      ...(typeof unit.invoice_id === 'string' ? { invoice_id: unit.invoice_id } : {}),
    };
  });
  const source = request.payment_source as
    { paypal?: { experience_context?: unknown } } | undefined;
  const context = source?.paypal?.experience_context as Record<string, unknown> | undefined;
  const experience = source?.paypal
    ? {
        returnUrl: typeof context?.return_url === 'string' ? context.return_url : null,
        cancelUrl: typeof context?.cancel_url === 'string' ? context.cancel_url : null,
      }
    : null;
  for (const key of ['return_url', 'cancel_url'] as const) {
    const value = context?.[key];
    if (value !== undefined && (typeof value !== 'string' || !URL.canParse(value))) {
      throw apiError(400, [
        validationDetail(
          `/payment_source/paypal/experience_context/${key}`,
          'INVALID_PARAMETER_SYNTAX',
          'The value of a field does not conform to the expected format.',
        ),
      ]);
    }
  }
  return { intent: request.intent, units: parsedUnits, experience };
}

/** Starts the sandbox on `port` (0, the default: any free port). */
export async function startPaypalSandbox(
  options: PaypalSandboxOptions = {},
): Promise<PaypalSandbox> {
  const clientId = options.clientId ?? 'sandbox-client';
  const clientSecret = options.clientSecret ?? 'sandbox-secret';
  const webhookId = options.webhookId ?? 'WH-SANDBOX';
  const tokenTtlSeconds = options.tokenTtlSeconds ?? 32_400;
  const host = options.host ?? '127.0.0.1';
  /** Known only here: what makes a webhook delivery verifiable. */
  const signingSecret = randomBytes(32);

  const orders = new Map<string, PaypalSandboxOrder>();
  const redirects = new Map<string, { returnUrl: string | null; cancelUrl: string | null }>();
  const captureStatuses = new Map<string, string>();
  const tokens = new Map<string, number>();
  const answeredRequestIds = new Map<string, { status: number; body: unknown }>();
  const requests: SandboxRequest[] = [];
  const timers = new Set<NodeJS.Timeout>();
  let failures = { count: 0, status: 503 };
  let delays = { count: 0, ms: 0 };
  let url = '';

  const certUrl = () => `${url}/v1/notifications/certs/CERT-SANDBOX`;
  const orderUrl = (id: string) => `${url}/v2/checkout/orders/${id}`;

  function orderLinks(order: PaypalSandboxOrder) {
    const links = [{ href: orderUrl(order.id), rel: 'self', method: 'GET' }];
    if (order.status === 'PAYER_ACTION_REQUIRED' || order.status === 'CREATED') {
      links.push({
        href: `${url}/checkoutnow?token=${order.id}`,
        rel: order.status === 'CREATED' ? 'approve' : 'payer-action',
        method: 'GET',
      });
    }
    if (order.status === 'APPROVED') {
      links.push({ href: orderUrl(order.id), rel: 'update', method: 'PATCH' });
      links.push({ href: `${orderUrl(order.id)}/capture`, rel: 'capture', method: 'POST' });
    }
    return links;
  }

  function representation(order: PaypalSandboxOrder) {
    const copy = structuredClone(order);
    for (const unit of copy.purchase_units) {
      for (const capture of unit.payments?.captures ?? []) {
        Object.assign(capture, {
          links: [
            { href: `${url}/v2/payments/captures/${capture.id}`, rel: 'self', method: 'GET' },
            {
              href: `${url}/v2/payments/captures/${capture.id}/refund`,
              rel: 'refund',
              method: 'POST',
            },
            { href: orderUrl(order.id), rel: 'up', method: 'GET' },
          ],
        });
      }
    }
    return { ...copy, links: orderLinks(order) };
  }

  /** `Prefer: return=minimal` (PayPal's default) answers id, status, payment source and links. */
  function answerOrder(order: PaypalSandboxOrder, prefer: string) {
    if (prefer.includes('return=representation')) return representation(order);
    return {
      id: order.id,
      status: order.status,
      ...(order.payment_source ? { payment_source: order.payment_source } : {}),
      links: orderLinks(order),
    };
  }

  function findOrder(id: string): PaypalSandboxOrder {
    const order = orders.get(id);
    if (!order) {
      throw apiError(404, [
        {
          field: 'order_id',
          value: id,
          location: 'path',
          issue: 'INVALID_RESOURCE_ID',
          description:
            'Specified resource ID does not exist. Please check the resource ID and try again.',
        },
      ]);
    }
    return order;
  }

  function knownOrder(orderId: string): PaypalSandboxOrder {
    const order = orders.get(orderId);
    if (!order) throw new Error(`the PayPal sandbox has no order ${orderId}`);
    return order;
  }

  function approve(orderId: string): void {
    const order = knownOrder(orderId);
    if (order.status === 'APPROVED') return;
    if (order.status !== 'PAYER_ACTION_REQUIRED' && order.status !== 'CREATED') {
      throw new Error(`order ${orderId} is ${order.status}: it cannot be approved`);
    }
    const name = { given_name: 'Sandbox', surname: 'Payer' };
    order.status = 'APPROVED';
    order.payer = { name, email_address: 'payer@sandbox.example', payer_id: PAYER_ID };
    order.payment_source = {
      paypal: { email_address: 'payer@sandbox.example', account_id: PAYER_ID, name },
    };
    order.update_time = now();
  }

  function capture(order: PaypalSandboxOrder): void {
    if (order.status === 'COMPLETED') {
      throw apiError(422, [
        {
          issue: 'ORDER_ALREADY_CAPTURED',
          description:
            "Order already captured.If 'intent=CAPTURE' only one capture per order is allowed.",
        },
      ]);
    }
    if (order.intent !== 'CAPTURE') {
      throw apiError(422, [
        {
          issue: 'ACTION_DOES_NOT_MATCH_INTENT',
          description:
            'Order was created with an intent to AUTHORIZE. Please use authorize instead.',
        },
      ]);
    }
    if (order.status !== 'APPROVED') {
      throw apiError(422, [
        {
          issue: 'ORDER_NOT_APPROVED',
          description:
            "Payer has not yet approved the Order for payment. Please redirect the payer to the 'rel':'approve' url returned as part of the HATEOAS links within the Create Order call or provide a valid payment_source in the request.",
        },
      ]);
    }
    const at = now();
    const status = captureStatuses.get(order.id) ?? 'COMPLETED';
    for (const unit of order.purchase_units) {
      unit.payments = {
        captures: [
          {
            id: paypalId(),
            status,
            ...(status === 'PENDING' ? { status_details: { reason: 'PENDING_REVIEW' } } : {}),
            amount: { ...unit.amount },
            final_capture: true,
            ...(unit.custom_id !== undefined ? { custom_id: unit.custom_id } : {}),
            seller_protection: {
              status: 'ELIGIBLE',
              dispute_categories: ['ITEM_NOT_RECEIVED', 'UNAUTHORIZED_TRANSACTION'],
            },
            create_time: at,
            update_time: at,
          },
        ],
      };
    }
    order.status = 'COMPLETED';
    order.update_time = at;
  }

  function checkBearer(req: IncomingMessage): void {
    const match = /^Bearer (.+)$/.exec(req.headers.authorization ?? '');
    const expires = match ? tokens.get(match[1]!) : undefined;
    if (expires === undefined || expires < Date.now()) throw apiError(401);
  }

  function parseJson(raw: string): unknown {
    try {
      return JSON.parse(raw) as unknown;
    } catch {
      throw apiError(400, [
        { issue: 'MALFORMED_REQUEST_JSON', description: 'The request JSON is not well formed.' },
      ]);
    }
  }

  const webhookSignature = (
    transmissionId: string,
    time: string,
    forWebhook: string,
    body: string,
  ) =>
    createHmac('sha256', signingSecret)
      .update(`${transmissionId}|${time}|${forWebhook}|${crc32(Buffer.from(body, 'utf8'))}`)
      .digest('base64');

  function verifySignature(body: Record<string, unknown>): 'SUCCESS' | 'FAILURE' {
    const required = [
      'auth_algo',
      'cert_url',
      'transmission_id',
      'transmission_sig',
      'transmission_time',
      'webhook_id',
    ] as const;
    const missing = required.filter((key) => typeof body[key] !== 'string' || body[key] === '');
    if (
      missing.length > 0 ||
      typeof body.webhook_event !== 'object' ||
      body.webhook_event === null
    ) {
      throw new PaypalApiError(400, {
        name: 'VALIDATION_ERROR',
        message: 'Invalid request - see details',
        debug_id: randomBytes(7).toString('hex'),
        details: [...missing, ...(body.webhook_event ? [] : ['webhook_event'])].map((field) => ({
          field,
          location: 'body',
          issue: 'MISSING_REQUIRED_PARAMETER',
        })),
      });
    }
    const field = (key: (typeof required)[number]) => body[key] as string;
    if (field('webhook_id') !== webhookId || field('cert_url') !== certUrl()) return 'FAILURE';
    if (field('auth_algo') !== 'SHA256withRSA') return 'FAILURE';
    const expected = Buffer.from(
      webhookSignature(
        field('transmission_id'),
        field('transmission_time'),
        field('webhook_id'),
        JSON.stringify(body.webhook_event),
      ),
    );
    const received = Buffer.from(field('transmission_sig'));
    return received.length === expected.length && timingSafeEqual(received, expected)
      ? 'SUCCESS'
      : 'FAILURE';
  }

  async function handleApi(req: IncomingMessage, res: ServerResponse, path: string): Promise<void> {
    const method = req.method ?? 'GET';
    const raw = await readBody(req);

    if (method === 'POST' && path === '/v1/oauth2/token') {
      const basic = /^Basic (.+)$/.exec(req.headers.authorization ?? '');
      const [id, ...secret] = basic
        ? Buffer.from(basic[1]!, 'base64').toString('utf8').split(':')
        : [];
      if (id !== clientId || secret.join(':') !== clientSecret) {
        return sendJson(res, 401, {
          error: 'invalid_client',
          error_description: 'Client Authentication failed',
        });
      }
      if (new URLSearchParams(raw).get('grant_type') !== 'client_credentials') {
        return sendJson(res, 400, {
          error: 'unsupported_grant_type',
          error_description: 'Grant Type is NULL',
        });
      }
      const accessToken = `A21AA${randomBytes(24).toString('base64url')}`;
      tokens.set(accessToken, Date.now() + tokenTtlSeconds * 1000);
      return sendJson(res, 200, {
        scope:
          'https://uri.paypal.com/services/payments/payment https://uri.paypal.com/services/applications/verify-webhook-signature',
        access_token: accessToken,
        token_type: 'Bearer',
        app_id: 'APP-SANDBOX',
        expires_in: tokenTtlSeconds,
        nonce: `${now()}${randomBytes(8).toString('hex')}`,
      });
    }

    checkBearer(req);
    const prefer = String(req.headers.prefer ?? '');
    const requestId = req.headers['paypal-request-id'];
    const replayKey = typeof requestId === 'string' ? `${method} ${path} ${requestId}` : null;
    const replay = replayKey ? answeredRequestIds.get(replayKey) : undefined;
    if (replay) return sendJson(res, replay.status, replay.body);
    const remember = (status: number, body: unknown) => {
      if (replayKey) answeredRequestIds.set(replayKey, { status, body });
      sendJson(res, status, body);
    };

    if (method === 'POST' && path === '/v2/checkout/orders') {
      const { intent, units, experience } = validateCreateOrder(parseJson(raw));
      const at = now();
      const order: PaypalSandboxOrder = {
        id: paypalId(),
        intent,
        // With a PayPal payment source the payer must act; without one the order awaits approval.
        status: experience ? 'PAYER_ACTION_REQUIRED' : 'CREATED',
        purchase_units: units,
        ...(experience ? { payment_source: { paypal: {} } } : {}),
        create_time: at,
        update_time: at,
      };
      orders.set(order.id, order);
      redirects.set(order.id, experience ?? { returnUrl: null, cancelUrl: null });
      return remember(201, answerOrder(order, prefer));
    }

    const orderMatch = /^\/v2\/checkout\/orders\/([^/]+)(\/capture)?$/.exec(path);
    if (orderMatch) {
      const order = findOrder(decodeURIComponent(orderMatch[1]!));
      if (method === 'GET' && !orderMatch[2]) return sendJson(res, 200, representation(order));
      if (method === 'POST' && orderMatch[2]) {
        capture(order);
        return remember(201, answerOrder(order, prefer));
      }
    }

    if (method === 'POST' && path === '/v1/notifications/verify-webhook-signature') {
      const body = parseJson(raw);
      const status = verifySignature((body ?? {}) as Record<string, unknown>);
      return sendJson(res, 200, { verification_status: status });
    }

    throw apiError(404);
  }

  function approvalPage(res: ServerResponse, token: string | null): void {
    const order = token ? orders.get(token) : undefined;
    if (!order) {
      return send(
        res,
        404,
        page('PayPal Sandbox', '<h1>PayPal Sandbox</h1><p>Unknown order.</p>'),
        'text/html; charset=utf-8',
      );
    }
    const unit = order.purchase_units[0]!;
    const amount = `${unit.amount.value} ${unit.amount.currency_code}`;
    const payable = order.status === 'PAYER_ACTION_REQUIRED' || order.status === 'CREATED';
    const id = escapeHtml(order.id);
    const body = `<h1>PayPal Sandbox</h1>
<p>Pay <strong id="amount">${escapeHtml(amount)}</strong>${unit.description ? ` for ${escapeHtml(unit.description)}` : ''}.</p>
<p>Order <code>${id}</code>: ${escapeHtml(order.status)}</p>
${
  payable || order.status === 'APPROVED'
    ? `<form method="post" action="/checkoutnow/approve" style="display:inline">
<input type="hidden" name="token" value="${id}"><button id="approve" type="submit">Approve payment</button></form>
<form method="post" action="/checkoutnow/cancel" style="display:inline">
<input type="hidden" name="token" value="${id}"><button id="cancel" type="submit">Cancel</button></form>`
    : '<p>This order can no longer be approved.</p>'
}`;
    send(res, 200, page('PayPal Sandbox', body), 'text/html; charset=utf-8');
  }

  /** The return or cancel URL with PayPal's query added to the one it already has. */
  function redirectTo(res: ServerResponse, target: string | null, params: Record<string, string>) {
    if (!target) {
      return send(
        res,
        200,
        page('PayPal Sandbox', '<h1>PayPal Sandbox</h1><p>Done. You may close this page.</p>'),
        'text/html; charset=utf-8',
      );
    }
    const location = new URL(target);
    for (const [key, value] of Object.entries(params)) location.searchParams.set(key, value);
    res.writeHead(303, { location: location.toString() });
    res.end();
  }

  async function handlePage(req: IncomingMessage, res: ServerResponse, requestUrl: URL) {
    const path = requestUrl.pathname;
    if (req.method === 'GET' && path === '/checkoutnow') {
      return approvalPage(res, requestUrl.searchParams.get('token'));
    }
    if (
      req.method === 'POST' &&
      (path === '/checkoutnow/approve' || path === '/checkoutnow/cancel')
    ) {
      const token = new URLSearchParams(await readBody(req)).get('token') ?? '';
      const order = orders.get(token);
      if (!order) return approvalPage(res, null);
      const target = redirects.get(order.id);
      if (path === '/checkoutnow/cancel') {
        return redirectTo(res, target?.cancelUrl ?? null, { token: order.id });
      }
      if (order.status === 'COMPLETED' || order.status === 'VOIDED') {
        return send(
          res,
          409,
          page(
            'PayPal Sandbox',
            '<h1>PayPal Sandbox</h1><p>This order can no longer be approved.</p>',
          ),
          'text/html; charset=utf-8',
        );
      }
      approve(order.id);
      return redirectTo(res, target?.returnUrl ?? null, { token: order.id, PayerID: PAYER_ID });
    }
    return send(res, 404, 'Not found', 'text/plain; charset=utf-8');
  }

  const server = createServer((req, res) => {
    const requestUrl = new URL(req.url ?? '/', 'http://sandbox');
    const path = requestUrl.pathname;
    requests.push({ method: req.method ?? 'GET', path, headers: req.headers });
    const isApi = path.startsWith('/v1/') || path.startsWith('/v2/');

    const run = async () => {
      if (!isApi) return handlePage(req, res, requestUrl);
      if (failures.count > 0) {
        failures.count -= 1;
        await readBody(req);
        throw apiError(failures.status);
      }
      return handleApi(req, res, path);
    };
    const answer = () =>
      run().catch((error: unknown) => {
        if (res.headersSent || res.destroyed) return;
        if (error instanceof PaypalApiError) return sendJson(res, error.status, error.body);
        sendJson(res, 500, apiError(500).body);
      });

    if (isApi && delays.count > 0) {
      delays.count -= 1;
      const timer = setTimeout(() => {
        timers.delete(timer);
        void answer();
      }, delays.ms);
      timers.add(timer);
      return;
    }
    void answer();
  });

  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 0, host, () => resolve());
  });
  const { port } = server.address() as AddressInfo;
  const urlHost =
    host === '0.0.0.0' || host === '::' ? '127.0.0.1' : host.includes(':') ? `[${host}]` : host;
  url = `http://${urlHost}:${port}`;

  return {
    url,
    orders,
    requests,
    approve,
    setCaptureStatus(orderId, status) {
      const order = knownOrder(orderId);
      captureStatuses.set(orderId, status);
      for (const unit of order.purchase_units) {
        for (const existing of unit.payments?.captures ?? []) {
          existing.status = status;
          existing.update_time = now();
        }
      }
    },
    failNext(count, status) {
      failures = { count, status };
    },
    delayNext(count, ms) {
      delays = { count, ms };
    },
    revokeTokens() {
      tokens.clear();
    },
    forgetRequestIds() {
      answeredRequestIds.clear();
    },
    signWebhook(event) {
      const body = JSON.stringify(event);
      const transmissionId = randomUUID();
      const time = now();
      return {
        headers: {
          'content-type': 'application/json',
          'paypal-auth-algo': 'SHA256withRSA',
          'paypal-cert-url': certUrl(),
          'paypal-transmission-id': transmissionId,
          'paypal-transmission-sig': webhookSignature(transmissionId, time, webhookId, body),
          'paypal-transmission-time': time,
        },
        body,
      };
    },
    async close() {
      for (const timer of timers) clearTimeout(timer);
      timers.clear();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

/** A PAYMENT.CAPTURE.* event as PayPal posts it (resource: the capture, linked to its order). */
export function buildPaypalCaptureEvent(input: {
  orderId: string;
  captureId: string;
  /** Minor units. */
  amount: number;
  currency: string;
  reference: string;
  eventType?: string;
  status?: string;
  createTime?: string;
}): object {
  const at = input.createTime ?? now();
  const decimals = ZERO_DECIMAL_CURRENCIES.has(input.currency) ? 0 : 2;
  const value = (input.amount / 10 ** decimals).toFixed(decimals);
  const status = input.status ?? 'COMPLETED';
  return {
    id: `WH-${paypalId()}`,
    event_version: '1.0',
    create_time: at,
    resource_type: 'capture',
    resource_version: '2.0',
    event_type: input.eventType ?? 'PAYMENT.CAPTURE.COMPLETED',
    summary: `Payment ${status.toLowerCase()} for ${value} ${input.currency}`,
    resource: {
      id: input.captureId,
      status,
      amount: { currency_code: input.currency, value },
      final_capture: true,
      custom_id: input.reference,
      supplementary_data: { related_ids: { order_id: input.orderId } },
      create_time: at,
      update_time: at,
    },
  };
}
