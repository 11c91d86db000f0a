import { createHash, randomUUID } from 'node:crypto';
import {
  createServer,
  type IncomingHttpHeaders,
  type IncomingMessage,
  type ServerResponse,
} from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * A local stand-in for PagBank's REST API (checkouts create / get, orders get) and its hosted
 * payment page, answering with PagBank's documented shapes and posting signed order notifications
 * (`x-authenticity-token`), so the adapter, the server and the browser journeys run offline.
 */

export interface PagbankSandboxOptions {
  port?: number | undefined;
  host?: string | undefined;
  /** The account token: Bearer credential and notification signing key. */
  token?: string | undefined;
  /** How long a notification delivery may take before it is given up. */
  notificationTimeoutMs?: number | undefined;
  /**
   * Whether paying posts the notifications (default true). Off for tests whose notification URL
   * is not a listener (nothing is looked up); `notify()` still delivers when asked.
   */
  deliverNotifications?: boolean | undefined;
}

export interface PagbankSandboxItem {
  reference_id?: string;
  name: string;
  quantity: number;
  unit_amount: number;
}

interface PagbankLink {
  rel: string;
  href: string;
  method: string;
}

/** A checkout as PagBank answers it. */
export interface PagbankSandboxCheckout {
  id: string;
  reference_id?: string;
  status: 'ACTIVE' | 'EXPIRED' | 'INACTIVE';
  created_at: string;
  expiration_date?: string;
  customer?: { name?: string; email?: string };
  customer_modifiable: boolean;
  items: PagbankSandboxItem[];
  payment_methods: { type: string }[];
  redirect_url?: string;
  notification_urls: string[];
  payment_notification_urls: string[];
  /** Orders paid through it, oldest first. */
  orders: { id: string }[];
  links: PagbankLink[];
}

export interface PagbankSandboxCharge {
  id: string;
  reference_id?: string;
  status: string;
  created_at: string;
  paid_at?: string;
  description: string;
  amount: {
    value: number;
    currency: 'BRL';
    summary: { total: number; paid: number; refunded: number };
  };
  payment_response: { code: string; message: string; reference: string };
  payment_method:
    | {
        type: 'CREDIT_CARD';
        installments: number;
        capture: boolean;
        card: {
          brand: string;
          first_digits: string;
          last_digits: string;
          exp_month: string;
          exp_year: string;
          holder: { name: string };
        };
      }
    | {
        type: 'BOLETO';
        boleto: { id: string; barcode: string; formatted_barcode: string; due_date: string };
      };
  links: { rel: string; href: string; media: string; type: string }[];
}

/** An order as PagBank answers it and posts it in notifications. */
export interface PagbankSandboxOrder {
  id: string;
  reference_id?: string;
  created_at: string;
  customer?: { name?: string; email?: string };
  items: PagbankSandboxItem[];
  charges: PagbankSandboxCharge[];
  notification_urls: string[];
  links: { rel: string; href: string; media: string; type: string }[];
}

export interface PagbankSandboxRequest {
  method: string;
  /** Path without the query. */
  path: string;
  headers: IncomingHttpHeaders;
}

export interface NotificationDelivery {
  url: string;
  /** The listener's HTTP status; null when it could not be reached in time. */
  status: number | null;
}

export interface PagbankSandbox {
  /** Base URL: the adapter's `apiUrl` and the host of the payment page. */
  url: string;
  checkouts: Map<string, PagbankSandboxCheckout>;
  orders: Map<string, PagbankSandboxOrder>;
  /** Every request received, oldest first. */
  requests: PagbankSandboxRequest[];
  /** The payer pays (what the payment page's buttons do, notifications included); the order id. */
  pay(checkoutId: string, method: 'card' | 'boleto'): Promise<string>;
  /** The status of the order's last charge (PAID also sets `paid_at`). */
  setChargeStatus(orderId: string, status: string): void;
  /** Posts the order to its checkout's notification URLs, signed with the token unless told not to. */
  notify(
    orderId: string,
    options?: { sign?: boolean; token?: string },
  ): Promise<NotificationDelivery[]>;
  /** The next `count` API calls answer `status` with PagBank's error shape (0 stops it). */
  failNext(count: number, status: number): void;
  /** The next `count` API calls wait `ms` before answering. */
  delayNext(count: number, ms: number): void;
  close(): Promise<void>;
}

const PAYMENT_METHODS = new Set(['CREDIT_CARD', 'DEBIT_CARD', 'BOLETO', 'PIX']);

class PagbankApiError extends Error {
  constructor(
    readonly status: number,
    readonly messages: { code: string; description: string; parameter_name?: string }[],
  ) {
    super(`HTTP ${status}`);
  }
}

const ERROR_CODES: Record<number, [string, string]> = {
  400: ['40002', 'invalid_parameter'],
  401: ['UNAUTHORIZED', 'Invalid credential. Review AUTHORIZATION header'],
  403: ['ACCESS_DENIED', 'access_denied'],
  404: ['NOT_FOUND', 'resource not found'],
  409: ['CONFLICT', 'conflict'],
  429: ['TOO_MANY_REQUESTS', 'too many requests'],
  500: ['INTERNAL_SERVER_ERROR', 'internal server error'],
  503: ['SERVICE_UNAVAILABLE', 'service unavailable'],
};

function apiError(status: number): PagbankApiError {
  const [code, description] = ERROR_CODES[status] ?? [String(status), `HTTP ${status}`];
  return new PagbankApiError(status, [{ code, description }]);
}

const invalid = (parameter: string, missing = false) =>
  new PagbankApiError(400, [
    {
      code: missing ? '40001' : '40002',
      description: missing ? 'required_parameter' : 'invalid_parameter',
      parameter_name: parameter,
    },
  ]);

/** PagBank writes Brasília time: 2023-08-14T19:09:10.000-03:00. */
function brasiliaTime(date = new Date()): string {
  return new Date(date.getTime() - 3 * 3_600_000).toISOString().replace('Z', '-03:00');
}

/** 12345 → 'R$ 123,45'. */
function formatBrl(amount: number): string {
  const reais = Math.floor(amount / 100)
    .toString()
    .replace(/\B(?=(\d{3})+(?!\d))/g, '.');
  return `R$ ${reais},${String(amount % 100).padStart(2, '0')}`;
}

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

const sendPage = (res: ServerResponse, status: number, body: string) =>
  send(
    res,
    status,
    `<!doctype html><html lang="pt-BR"><head><meta charset="utf-8"><title>PagBank Sandbox</title>
<meta name="viewport" content="width=device-width, initial-scale=1"></head>
<body style="font-family: sans-serif; max-width: 32rem; margin: 3rem auto"><h1>PagBank Sandbox</h1>${body}</body></html>`,
    'text/html; charset=utf-8',
  );

const isHttpUrl = (value: unknown): value is string =>
  typeof value === 'string' && URL.canParse(value) && /^https?:$/.test(new URL(value).protocol);

function urlList(body: Record<string, unknown>, field: string): string[] {
  const value = body[field];
  if (value === undefined) return [];
  if (!Array.isArray(value)) throw invalid(field);
  value.forEach((entry, index) => {
    if (!isHttpUrl(entry)) throw invalid(`${field}[${index}]`);
  });
  return value as string[];
}

/** Checks what PagBank's checkout schema checks for the fields we speak. */
function validateCheckout(
  raw: unknown,
): Omit<PagbankSandboxCheckout, 'id' | 'status' | 'created_at' | 'orders' | 'links'> {
  if (typeof raw !== 'object' || raw === null || Array.isArray(raw)) throw invalid('body');
  const body = raw as Record<string, unknown>;
  if (body.reference_id !== undefined) {
    if (typeof body.reference_id !== 'string' || body.reference_id.length > 64) {
      throw invalid('reference_id');
    }
  }
  if (!Array.isArray(body.items) || body.items.length === 0) throw invalid('items', true);
  const items = body.items.map((entry: unknown, index): PagbankSandboxItem => {
    const item = (entry ?? {}) as Record<string, unknown>;
    const at = `items[${index}]`;
    if (typeof item.name !== 'string' || item.name.length === 0 || item.name.length > 100) {
      throw invalid(`${at}.name`, item.name === undefined);
    }
    if (!Number.isInteger(item.quantity) || (item.quantity as number) < 1) {
      throw invalid(`${at}.quantity`, item.quantity === undefined);
    }
    if (!Number.isInteger(item.unit_amount) || (item.unit_amount as number) < 1) {
      throw invalid(`${at}.unit_amount`, item.unit_amount === undefined);
    }
    return {
      ...(typeof item.reference_id === 'string' ? { reference_id: item.reference_id } : {}),
      name: item.name,
      quantity: item.quantity as number,
      unit_amount: item.unit_amount as number,
    };
  });
  let customer: PagbankSandboxCheckout['customer'];
  if (body.customer !== undefined) {
    const given = (body.customer ?? {}) as Record<string, unknown>;
    if (given.name !== undefined && (typeof given.name !== 'string' || given.name.length > 120)) {
      throw invalid('customer.name');
    }
    if (
      given.email !== undefined &&
      (typeof given.email !== 'string' || !given.email.includes('@'))
    ) {
      throw invalid('customer.email');
    }
    customer = {
      ...(typeof given.name === 'string' ? { name: given.name } : {}),
      ...(typeof given.email === 'string' ? { email: given.email } : {}),
    };
  }
  const methods = body.payment_methods ?? [
    { type: 'CREDIT_CARD' },
    { type: 'BOLETO' },
    { type: 'PIX' },
  ];
  if (!Array.isArray(methods) || methods.length === 0) throw invalid('payment_methods');
  methods.forEach((method: unknown, index) => {
    const type = (method as { type?: unknown } | null)?.type;
    if (typeof type !== 'string' || !PAYMENT_METHODS.has(type)) {
      throw invalid(`payment_methods[${index}].type`);
    }
  });
  if (body.redirect_url !== undefined && !isHttpUrl(body.redirect_url))
    throw invalid('redirect_url');
  if (body.expiration_date !== undefined && typeof body.expiration_date !== 'string') {
    throw invalid('expiration_date');
  }
  return {
    ...(typeof body.reference_id === 'string' ? { reference_id: body.reference_id } : {}),
    ...(typeof body.expiration_date === 'string' ? { expiration_date: body.expiration_date } : {}),
    ...(customer ? { customer } : {}),
    customer_modifiable: body.customer_modifiable !== false,
    items,
    payment_methods: (methods as { type: string }[]).map((m) => ({ type: m.type })),
    ...(typeof body.redirect_url === 'string' ? { redirect_url: body.redirect_url } : {}),
    notification_urls: urlList(body, 'notification_urls'),
    payment_notification_urls: urlList(body, 'payment_notification_urls'),
  };
}

/** Starts the sandbox on `port` (0, the default: any free port). */
export async function startPagbankSandbox(
  options: PagbankSandboxOptions = {},
): Promise<PagbankSandbox> {
  const token = options.token ?? 'sandbox-token';
  const host = options.host ?? '127.0.0.1';
  const notificationTimeoutMs = options.notificationTimeoutMs ?? 3000;
  const deliverNotifications = options.deliverNotifications ?? true;
  const checkouts = new Map<string, PagbankSandboxCheckout>();
  const orders = new Map<string, PagbankSandboxOrder>();
  const answeredKeys = new Map<string, { status: number; body: unknown }>();
  const requests: PagbankSandboxRequest[] = [];
  const timers = new Set<NodeJS.Timeout>();
  let failures = { count: 0, status: 503 };
  let delays = { count: 0, ms: 0 };
  let url = '';

  const totalOf = (checkout: PagbankSandboxCheckout) =>
    checkout.items.reduce((sum, item) => sum + item.unit_amount * item.quantity, 0);

  function knownCheckout(checkoutId: string): PagbankSandboxCheckout {
    const checkout = checkouts.get(checkoutId);
    if (!checkout) throw new Error(`the PagBank sandbox has no checkout ${checkoutId}`);
    return checkout;
  }

  function knownOrder(orderId: string): PagbankSandboxOrder {
    const order = orders.get(orderId);
    if (!order) throw new Error(`the PagBank sandbox has no order ${orderId}`);
    return order;
  }

  function createOrder(checkout: PagbankSandboxCheckout, method: 'card' | 'boleto') {
    const at = brasiliaTime();
    const total = totalOf(checkout);
    const paid = method === 'card';
    const chargeId = `CHAR_${randomUUID().toUpperCase()}`;
    const orderId = `ORDE_${randomUUID().toUpperCase()}`;
    const barcode = `0339985301297000003586942060101078249${String(total).padStart(10, '0')}`;
    const charge: PagbankSandboxCharge = {
      id: chargeId,
      ...(checkout.reference_id ? { reference_id: checkout.reference_id } : {}),
      status: paid ? 'PAID' : 'WAITING',
      created_at: at,
      ...(paid ? { paid_at: at } : {}),
      description: checkout.items
        .map((item) => item.name)
        .join(', ')
        .slice(0, 64),
      amount: {
        value: total,
        currency: 'BRL',
        summary: { total, paid: paid ? total : 0, refunded: 0 },
      },
      payment_response: { code: '20000', message: 'SUCESSO', reference: String(Date.now()) },
      payment_method: paid
        ? {
            type: 'CREDIT_CARD',
            installments: 1,
            capture: true,
            card: {
              brand: 'visa',
              first_digits: '411111',
              last_digits: '1111',
              exp_month: '12',
              exp_year: '2030',
              holder: { name: checkout.customer?.name ?? 'Sandbox Payer' },
            },
          }
        : {
            type: 'BOLETO',
            boleto: {
              id: randomUUID(),
              barcode,
              formatted_barcode: barcode.replace(
                /^(\d{5})(\d{5})(\d{5})(\d{6})(\d{5})(\d{6})(\d)(\d+)$/,
                '$1.$2 $3.$4 $5.$6 $7 $8',
              ),
              due_date: brasiliaTime(new Date(Date.now() + 3 * 86_400_000)).slice(0, 10),
            },
          },
      links: [
        { rel: 'SELF', href: `${url}/charges/${chargeId}`, media: 'application/json', type: 'GET' },
      ],
    };
    const order: PagbankSandboxOrder = {
      id: orderId,
      ...(checkout.reference_id ? { reference_id: checkout.reference_id } : {}),
      created_at: at,
      ...(checkout.customer ? { customer: { ...checkout.customer } } : {}),
      items: checkout.items.map((item) => ({ ...item })),
      charges: [charge],
      notification_urls: [...checkout.payment_notification_urls],
      links: [
        { rel: 'SELF', href: `${url}/orders/${orderId}`, media: 'application/json', type: 'GET' },
      ],
    };
    orders.set(orderId, order);
    checkout.orders.push({ id: orderId });
    return order;
  }

  /** The checkout an order was paid through (the sandbox knows; PagBank's order does not say). */
  const checkoutOf = (orderId: string) =>
    [...checkouts.values()].find((c) => c.orders.some((o) => o.id === orderId));

  async function notify(
    orderId: string,
    notifyOptions: { sign?: boolean; token?: string } = {},
  ): Promise<NotificationDelivery[]> {
    const order = knownOrder(orderId);
    const checkout = checkoutOf(orderId);
    const targets = [
      ...new Set([
        ...(checkout?.payment_notification_urls ?? order.notification_urls),
        ...(checkout?.notification_urls ?? []),
      ]),
    ];
    const body = JSON.stringify(order);
    const headers: Record<string, string> = { 'content-type': 'application/json' };
    if (notifyOptions.sign ?? true) {
      headers['x-authenticity-token'] = createHash('sha256')
        .update(`${notifyOptions.token ?? token}-${body}`)
        .digest('hex');
    }
    return Promise.all(
      targets.map(async (target): Promise<NotificationDelivery> => {
        try {
          const response = await fetch(target, {
            method: 'POST',
            headers,
            body,
            signal: AbortSignal.timeout(notificationTimeoutMs),
          });
          await response.arrayBuffer();
          return { url: target, status: response.status };
        } catch {
          return { url: target, status: null };
        }
      }),
    );
  }

  async function pay(checkoutId: string, method: 'card' | 'boleto'): Promise<string> {
    const checkout = knownCheckout(checkoutId);
    if (checkout.status !== 'ACTIVE')
      throw new Error(`checkout ${checkoutId} is ${checkout.status}`);
    const order = createOrder(checkout, method);
    if (deliverNotifications) await notify(order.id);
    return order.id;
  }

  function checkBearer(req: IncomingMessage): void {
    if (req.headers.authorization !== `Bearer ${token}`) throw apiError(401);
  }

  async function handleApi(req: IncomingMessage, res: ServerResponse, path: string): Promise<void> {
    const method = req.method ?? 'GET';
    const raw = await readBody(req);
    checkBearer(req);

    if (method === 'POST' && path === '/checkouts') {
      const key = req.headers['x-idempotency-key'];
      const replay = typeof key === 'string' ? answeredKeys.get(key) : undefined;
      if (replay) return sendJson(res, replay.status, replay.body);
      let parsed: unknown;
      try {
        parsed = JSON.parse(raw);
      } catch {
        throw invalid('body');
      }
      const id = `CHEC_${randomUUID().toUpperCase()}`;
      const checkout: PagbankSandboxCheckout = {
        id,
        status: 'ACTIVE',
        created_at: brasiliaTime(),
        ...validateCheckout(parsed),
        orders: [],
        links: [
          { rel: 'SELF', href: `${url}/checkouts/${id}`, method: 'GET' },
          { rel: 'PAY', href: `${url}/pay/${id}`, method: 'GET' },
        ],
      };
      checkouts.set(id, checkout);
      const body = structuredClone(checkout);
      if (typeof key === 'string') answeredKeys.set(key, { status: 201, body });
      return sendJson(res, 201, body);
    }

    const checkoutMatch = /^\/checkouts\/([^/]+)$/.exec(path);
    if (method === 'GET' && checkoutMatch) {
      const checkout = checkouts.get(decodeURIComponent(checkoutMatch[1]!));
      if (!checkout) throw apiError(404);
      return sendJson(res, 200, checkout);
    }

    const orderMatch = /^\/orders\/([^/]+)$/.exec(path);
    if (method === 'GET' && orderMatch) {
      const order = orders.get(decodeURIComponent(orderMatch[1]!));
      if (!order) throw apiError(404);
      return sendJson(res, 200, order);
    }

    throw apiError(404);
  }

  async function handlePage(req: IncomingMessage, res: ServerResponse, checkoutId: string) {
    const checkout = checkouts.get(checkoutId);
    if (!checkout) return sendPage(res, 404, '<p>Checkout não encontrado.</p>');
    if (req.method === 'POST') {
      const method = new URLSearchParams(await readBody(req)).get('method');
      if (method !== 'card' && method !== 'boleto') {
        return sendPage(res, 400, '<p>Escolha uma forma de pagamento.</p>');
      }
      if (checkout.status !== 'ACTIVE') return sendPage(res, 409, '<p>Checkout inativo.</p>');
      await pay(checkout.id, method);
      if (!checkout.redirect_url) return sendPage(res, 200, '<p>Pagamento registrado.</p>');
      res.writeHead(303, { location: checkout.redirect_url });
      return res.end();
    }
    const id = escapeHtml(checkout.id);
    const items = checkout.items
      .map((item) => `<li>${escapeHtml(item.name)} × ${item.quantity}</li>`)
      .join('');
    const buttons =
      checkout.status === 'ACTIVE'
        ? `<form method="post" action="/pay/${id}">
<button id="pay-card" type="submit" name="method" value="card">Pay by card</button>
<button id="pay-boleto" type="submit" name="method" value="boleto">Generate boleto</button></form>`
        : '<p>Checkout inativo.</p>';
    return sendPage(
      res,
      200,
      `<ul>${items}</ul><p>Total <strong id="amount">${formatBrl(totalOf(checkout))}</strong></p>${buttons}`,
    );
  }

  const server = createServer((req, res) => {
    const requestUrl = new URL(req.url ?? '/', 'http://sandbox');
    const path = requestUrl.pathname;
    requests.push({ method: req.method ?? 'GET', path, headers: req.headers });
    const payMatch = /^\/pay\/([^/]+)$/.exec(path);

    const run = async () => {
      if (payMatch) return handlePage(req, res, decodeURIComponent(payMatch[1]!));
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
        const failure = error instanceof PagbankApiError ? error : apiError(500);
        sendJson(res, failure.status, { error_messages: failure.messages });
      });

    if (!payMatch && delays.count > 0) {
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
    checkouts,
    orders,
    requests,
    pay,
    setChargeStatus(orderId, status) {
      const charge = knownOrder(orderId).charges.at(-1);
      if (!charge) return;
      charge.status = status;
      if (status === 'PAID') {
        charge.paid_at = brasiliaTime();
        charge.amount.summary.paid = charge.amount.value;
      }
    },
    notify,
    failNext(count, status) {
      failures = { count, status };
    },
    delayNext(count, ms) {
      delays = { count, ms };
    },
    async close() {
      for (const timer of timers) clearTimeout(timer);
      timers.clear();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
