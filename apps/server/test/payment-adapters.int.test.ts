import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  startPagbankSandbox,
  type PagbankSandbox,
  buildPaypalCaptureEvent,
  startPaypalSandbox,
  type PaypalSandbox,
} from '@dentflow/payment-sandbox';
import { requestWithRetry } from '../src/adapters/payments/http-retry';
import { createPagbankClient, pagbankSignature } from '../src/adapters/payments/pagbank';
import { ProviderError } from '../src/adapters/payments/payment-providers';
import {
  createPaypalClient,
  fromPaypalValue,
  parsePaypalWebhookEvent,
  toPaypalValue,
  type PaypalClientOptions,
} from '../src/adapters/payments/paypal';

/** Retries without the production waits, so failures are quick to test. */
const FAST_RETRIES = [5, 5];

interface Received {
  method: string;
  path: string;
  headers: Record<string, string | string[] | undefined>;
  body: string;
}

/** A local HTTP listener recording what it receives; `answer` undefined: it never answers. */
async function startListener(answer?: (res: ServerResponse, req: IncomingMessage) => void) {
  const received: Received[] = [];
  const server = createServer(async (req, res) => {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    received.push({
      method: req.method ?? '',
      path: req.url ?? '',
      headers: req.headers,
      body: Buffer.concat(chunks).toString('utf8'),
    });
    answer?.(res, req);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    received,
    async close() {
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    },
  };
}

let serial = 0;
const newReference = () => `TX-${Date.now()}-${(serial += 1)}`;

async function rejection(promise: Promise<unknown>): Promise<ProviderError> {
  const error = await promise.then(
    () => null,
    (caught: unknown) => caught,
  );
  expect(error).toBeInstanceOf(ProviderError);
  return error as ProviderError;
}

describe('http-retry', () => {
  let failing: Awaited<ReturnType<typeof startListener>>;
  beforeAll(async () => {
    failing = await startListener((res, req) => {
      res.writeHead(req.url === '/missing' ? 404 : 503, { 'content-type': 'application/json' });
      res.end('{}');
    });
  });
  afterAll(() => failing.close());

  const policy = { provider: 'pagbank' as const, timeoutMs: 1000, retryDelaysMs: FAST_RETRIES };

  it('retries a POST only when it carries an idempotency header', async () => {
    const plain = await rejection(
      requestWithRetry({ method: 'POST', url: `${failing.url}/plain`, body: '{}' }, policy),
    );
    expect(plain).toMatchObject({ provider: 'pagbank', status: 503 });
    expect(failing.received.filter((r) => r.path === '/plain')).toHaveLength(1);

    const keyed = await rejection(
      requestWithRetry(
        {
          method: 'POST',
          url: `${failing.url}/keyed`,
          headers: { 'X-Idempotency-Key': 'k-1' },
          body: '{}',
        },
        policy,
      ),
    );
    expect(keyed.message).toContain('after 3 attempts');
    expect(failing.received.filter((r) => r.path === '/keyed')).toHaveLength(3);
  });

  it('returns a refusal (4xx) at once for the caller to judge', async () => {
    const response = await requestWithRetry(
      { method: 'GET', url: `${failing.url}/missing` },
      policy,
    );
    expect(response.status).toBe(404);
    expect(failing.received.filter((r) => r.path === '/missing')).toHaveLength(1);
  });

  it('throws ProviderError without a status when nothing answers the connection', async () => {
    const closed = await startListener();
    const url = closed.url;
    await closed.close();
    const error = await rejection(requestWithRetry({ method: 'GET', url: `${url}/x` }, policy));
    expect(error.status).toBeNull();
    expect(error.message).toContain('request failed');
  });
});

describe('PayPal adapter against the PayPal sandbox', () => {
  let paypal: PaypalSandbox;
  beforeAll(async () => {
    paypal = await startPaypalSandbox({
      clientId: 'client-a',
      clientSecret: 'secret-a',
      webhookId: 'WH-ADAPTER',
    });
  });
  afterAll(() => paypal.close());

  const clientFor = (overrides: Partial<PaypalClientOptions> = {}) =>
    createPaypalClient({
      clientId: 'client-a',
      clientSecret: 'secret-a',
      apiUrl: paypal.url,
      webhookId: 'WH-ADAPTER',
      timeoutMs: 2000,
      retryDelaysMs: FAST_RETRIES,
      ...overrides,
    });
  const orderInput = (reference: string) => ({
    reference,
    amount: 12345,
    currency: 'BRL',
    description: 'Planning',
    returnUrl: 'http://app.test/return?tx=7',
    cancelUrl: 'http://app.test/cancel?tx=7',
  });
  /** The requests the sandbox receives while `run` runs. */
  const during = async (run: () => Promise<unknown>) => {
    const start = paypal.requests.length;
    await run();
    return paypal.requests.slice(start).map((r) => `${r.method} ${r.path}`);
  };
  const approvedOrder = async (client = clientFor()) => {
    const created = await client.createOrder(orderInput(newReference()));
    paypal.approve(created.orderId);
    return created.orderId;
  };

  it('converts amounts to and from PayPal values without floating point', () => {
    expect(toPaypalValue(12345, 'BRL')).toBe('123.45');
    expect(toPaypalValue(5, 'USD')).toBe('0.05');
    expect(toPaypalValue(100, 'JPY')).toBe('100');
    expect(fromPaypalValue('123.45', 'BRL')).toBe(12345);
    expect(fromPaypalValue('123.4', 'BRL')).toBe(12340);
    expect(fromPaypalValue('123', 'USD')).toBe(12300);
    expect(fromPaypalValue('1.500', 'USD')).toBe(150);
    expect(fromPaypalValue('1.005', 'USD')).toBeNull();
    expect(fromPaypalValue('12,00', 'BRL')).toBeNull();
  });

  it('fetches one token, shared by concurrent calls and reused afterwards', async () => {
    const client = clientFor();
    const calls = await during(async () => {
      const created = await client.createOrder(orderInput(newReference()));
      await Promise.all([1, 2, 3].map(() => client.getOrder(created.orderId)));
      await client.getOrder(created.orderId);
    });
    expect(calls.filter((c) => c === 'POST /v1/oauth2/token')).toHaveLength(1);
    expect(calls.filter((c) => c.startsWith('GET /v2/checkout/orders/'))).toHaveLength(4);

    const fresh = clientFor();
    const concurrent = await during(() =>
      Promise.all([
        fresh.createOrder(orderInput(newReference())),
        fresh.getOrder('missing').catch(() => null),
      ]),
    );
    expect(concurrent.filter((c) => c === 'POST /v1/oauth2/token')).toHaveLength(1);
  });

  it('creates as documented; the payer approves on the page; the capture pays 12345 BRL', async () => {
    const client = clientFor();
    const reference = newReference();
    const created = await client.createOrder(orderInput(reference));
    expect(created).toMatchObject({
      status: 'PAYER_ACTION_REQUIRED',
      reference,
      amount: 12345,
      currency: 'BRL',
      captureId: null,
      approveUrl: `${paypal.url}/checkoutnow?token=${created.orderId}`,
    });
    const sent = paypal.requests.findLast((r) => r.path === '/v2/checkout/orders')!;
    expect(sent.headers['paypal-request-id']).toBe(`create-${reference}`);
    expect(sent.headers.authorization).toMatch(/^Bearer A21AA/);
    expect(paypal.orders.get(created.orderId)!.purchase_units[0]).toMatchObject({
      reference_id: reference,
      custom_id: reference,
      description: 'Planning',
      amount: { currency_code: 'BRL', value: '123.45' },
    });

    // Not approved yet: PayPal's 422 ORDER_NOT_APPROVED, which is not retried.
    const early = await during(async () => {
      const error = await rejection(client.captureOrder(created.orderId));
      expect(error.status).toBe(422);
      expect(error.message).toContain('ORDER_NOT_APPROVED');
    });
    expect(early.filter((c) => c.endsWith('/capture'))).toHaveLength(1);

    const page = await fetch(created.approveUrl!);
    const html = await page.text();
    expect(html).toContain('<title>PayPal Sandbox</title>');
    expect(html).toContain('123.45 BRL');
    expect(html).toMatch(/<button id="approve"[^>]*>Approve payment<\/button>/);
    expect(html).toMatch(/<button id="cancel"[^>]*>Cancel<\/button>/);

    const approved = await fetch(`${paypal.url}/checkoutnow/approve`, {
      method: 'POST',
      body: new URLSearchParams({ token: created.orderId }),
      redirect: 'manual',
    });
    expect(approved.status).toBe(303);
    const landing = new URL(approved.headers.get('location')!);
    expect(`${landing.origin}${landing.pathname}`).toBe('http://app.test/return');
    expect(Object.fromEntries(landing.searchParams)).toEqual({
      tx: '7',
      token: created.orderId,
      PayerID: 'SANDBOXPAYER',
    });
    expect((await client.getOrder(created.orderId)).status).toBe('APPROVED');

    const captured = await client.captureOrder(created.orderId);
    expect(captured).toMatchObject({
      orderId: created.orderId,
      status: 'COMPLETED',
      captureStatus: 'COMPLETED',
      reference,
      amount: 12345,
      currency: 'BRL',
      approveUrl: null,
    });
    expect(captured.captureId).toMatch(/^[A-Z0-9]{17}$/);
    expect(captured.updatedAt).toBeTruthy();
    const capture = paypal.requests.findLast((r) => r.path.endsWith('/capture'))!;
    expect(capture.headers['paypal-request-id']).toBe(`capture-${created.orderId}`);
    expect(capture.headers['content-type']).toBe('application/json');
  });

  it('the cancel button returns to cancel_url and leaves the order unapproved', async () => {
    const created = await clientFor().createOrder(orderInput(newReference()));
    const cancelled = await fetch(`${paypal.url}/checkoutnow/cancel`, {
      method: 'POST',
      body: new URLSearchParams({ token: created.orderId }),
      redirect: 'manual',
    });
    expect(cancelled.status).toBe(303);
    expect(cancelled.headers.get('location')).toBe(
      `http://app.test/cancel?tx=7&token=${created.orderId}`,
    );
    expect(paypal.orders.get(created.orderId)!.status).toBe('PAYER_ACTION_REQUIRED');
    expect((await fetch(`${paypal.url}/checkoutnow?token=NOPE`)).status).toBe(404);
  });

  it('creating twice with the same reference makes one order', async () => {
    const client = clientFor();
    const reference = newReference();
    const before = paypal.orders.size;
    const first = await client.createOrder(orderInput(reference));
    const second = await client.createOrder(orderInput(reference));
    expect(second.orderId).toBe(first.orderId);
    expect(paypal.orders.size).toBe(before + 1);
  });

  it('capturing twice answers the same capture and captures once', async () => {
    const client = clientFor();
    const orderId = await approvedOrder(client);
    const first = await client.captureOrder(orderId);
    const again = await client.captureOrder(orderId);
    expect(again.captureId).toBe(first.captureId);
    expect(again.amount).toBe(12345);

    // Once PayPal has forgotten the request id it answers ORDER_ALREADY_CAPTURED: read the order.
    paypal.forgetRequestIds();
    let late: Awaited<ReturnType<typeof client.captureOrder>> | undefined;
    const calls = await during(async () => {
      late = await client.captureOrder(orderId);
    });
    expect(calls).toEqual([
      `POST /v2/checkout/orders/${orderId}/capture`,
      `GET /v2/checkout/orders/${orderId}`,
    ]);
    expect(late).toMatchObject({ status: 'COMPLETED', captureId: first.captureId, amount: 12345 });
    expect(paypal.orders.get(orderId)!.purchase_units[0]!.payments!.captures).toHaveLength(1);
  });

  it('reports the capture status PayPal gives (PENDING, later COMPLETED)', async () => {
    const client = clientFor();
    const orderId = await approvedOrder(client);
    paypal.setCaptureStatus(orderId, 'PENDING');
    const pending = await client.captureOrder(orderId);
    expect(pending).toMatchObject({ status: 'COMPLETED', captureStatus: 'PENDING' });
    paypal.setCaptureStatus(orderId, 'COMPLETED');
    expect((await client.getOrder(orderId)).captureStatus).toBe('COMPLETED');
  });

  it('on a 401 fetches a new token once and repeats the call', async () => {
    const client = clientFor();
    const created = await client.createOrder(orderInput(newReference()));
    paypal.revokeTokens();
    const calls = await during(() => client.getOrder(created.orderId));
    expect(calls).toEqual([
      `GET /v2/checkout/orders/${created.orderId}`,
      'POST /v1/oauth2/token',
      `GET /v2/checkout/orders/${created.orderId}`,
    ]);
  });

  it('refused credentials are a ProviderError 401, not retried', async () => {
    const client = clientFor({ clientSecret: 'wrong' });
    const calls = await during(async () => {
      const error = await rejection(client.createOrder(orderInput(newReference())));
      expect(error).toMatchObject({ provider: 'paypal', status: 401 });
    });
    expect(calls).toEqual(['POST /v1/oauth2/token']);
  });

  it('an unknown order is a ProviderError 404', async () => {
    const error = await rejection(clientFor().getOrder('5O190127TN364715T'));
    expect(error.status).toBe(404);
    expect(error.message).toContain('RESOURCE_NOT_FOUND');
  });

  it.each([503, 429, 500])('retries %i twice and then succeeds', async (status) => {
    const client = clientFor();
    const orderId = await approvedOrder(client);
    paypal.failNext(2, status);
    const calls = await during(() => client.getOrder(orderId));
    expect(calls).toEqual(Array(3).fill(`GET /v2/checkout/orders/${orderId}`));
  });

  it('retries an order creation (it carries PayPal-Request-Id) without a second order', async () => {
    const client = clientFor();
    await approvedOrder(client);
    const before = paypal.orders.size;
    paypal.failNext(1, 503);
    const calls = await during(() => client.createOrder(orderInput(newReference())));
    expect(calls).toEqual(['POST /v2/checkout/orders', 'POST /v2/checkout/orders']);
    expect(paypal.orders.size).toBe(before + 1);
  });

  it('gives up with ProviderError after three failed attempts', async () => {
    const client = clientFor();
    const orderId = await approvedOrder(client);
    paypal.failNext(3, 503);
    const calls = await during(async () => {
      const error = await rejection(client.getOrder(orderId));
      expect(error).toMatchObject({ provider: 'paypal', status: 503 });
    });
    expect(calls).toHaveLength(3);
    expect((await client.getOrder(orderId)).status).toBe('APPROVED');
  });

  it('does not retry a 400', async () => {
    const client = clientFor();
    const orderId = await approvedOrder(client);
    paypal.failNext(1, 400);
    const calls = await during(async () => {
      expect((await rejection(client.getOrder(orderId))).status).toBe(400);
    });
    expect(calls).toHaveLength(1);
  });

  it('times out each attempt: ProviderError within the time-outs, not the slow answers', async () => {
    const client = clientFor({ timeoutMs: 150 });
    const orderId = await approvedOrder(client);
    paypal.delayNext(3, 3000);
    const started = Date.now();
    const error = await rejection(client.getOrder(orderId));
    expect(Date.now() - started).toBeLessThan(1500);
    expect(error.status).toBeNull();
    expect(error.message).toContain('timed out');
  });

  describe('webhooks', () => {
    const captureEvent = () =>
      buildPaypalCaptureEvent({
        orderId: '5O190127TN364715T',
        captureId: '3C679366HH908993F',
        amount: 12345,
        currency: 'BRL',
        reference: 'TX-WEBHOOK',
      }) as { id: string; create_time: string };

    it('a delivery the sandbox signed is verified by PayPal and read', async () => {
      const event = captureEvent();
      const delivery = paypal.signWebhook(event);
      const calls = await during(async () => {
        expect(await clientFor().verifyWebhook(delivery.headers, delivery.body)).toEqual({
          id: event.id,
          eventType: 'PAYMENT.CAPTURE.COMPLETED',
          createTime: event.create_time,
          orderId: '5O190127TN364715T',
          reference: 'TX-WEBHOOK',
          captureId: '3C679366HH908993F',
          resourceStatus: 'COMPLETED',
          amount: 12345,
          currency: 'BRL',
        });
      });
      expect(calls).toContain('POST /v1/notifications/verify-webhook-signature');
      // Header names in any case, values as Node gives them.
      const shouted = Object.fromEntries(
        Object.entries(delivery.headers).map(([name, value]) => [name.toUpperCase(), [value]]),
      );
      expect(await clientFor().verifyWebhook(shouted, delivery.body)).not.toBeNull();
    });

    it('reads an order event (CHECKOUT.ORDER.APPROVED) by the order', async () => {
      const delivery = paypal.signWebhook({
        id: 'WH-ORDER-1',
        event_type: 'CHECKOUT.ORDER.APPROVED',
        create_time: '2026-01-02T10:00:00Z',
        resource_type: 'checkout-order',
        resource: {
          id: 'ORDER-42',
          status: 'APPROVED',
          purchase_units: [
            { custom_id: 'TX-42', amount: { currency_code: 'USD', value: '10.00' } },
          ],
        },
      });
      expect(await clientFor().verifyWebhook(delivery.headers, delivery.body)).toMatchObject({
        eventType: 'CHECKOUT.ORDER.APPROVED',
        orderId: 'ORDER-42',
        reference: 'TX-42',
        captureId: null,
        resourceStatus: 'APPROVED',
        amount: 1000,
        currency: 'USD',
      });
    });

    it('reads the refunded capture of a refund event from its links', () => {
      expect(
        parsePaypalWebhookEvent({
          id: 'WH-R',
          event_type: 'PAYMENT.CAPTURE.REFUNDED',
          create_time: '2026-01-02T10:00:00Z',
          resource_type: 'refund',
          resource: {
            id: 'REFUND-1',
            status: 'COMPLETED',
            amount: { currency_code: 'BRL', value: '123.45' },
            custom_id: 'TX-R',
            links: [{ href: 'https://api.test/v2/payments/captures/CAP-9', rel: 'up' }],
          },
        }),
      ).toMatchObject({ captureId: 'CAP-9', reference: 'TX-R', amount: 12345, orderId: null });
    });

    it('refuses a tampered body, a wrong signature, another webhook id', async () => {
      const delivery = paypal.signWebhook(captureEvent());
      const client = clientFor();
      expect(
        await client.verifyWebhook(delivery.headers, delivery.body.replace('123.45', '1.00')),
      ).toBeNull();
      expect(
        await client.verifyWebhook(
          { ...delivery.headers, 'paypal-transmission-sig': 'Zm9yZ2Vk' },
          delivery.body,
        ),
      ).toBeNull();
      expect(
        await clientFor({ webhookId: 'WH-OTHER' }).verifyWebhook(delivery.headers, delivery.body),
      ).toBeNull();
    });

    it('answers null without asking PayPal: missing header, no webhook id, unreadable body', async () => {
      const delivery = paypal.signWebhook(captureEvent());
      const { 'paypal-cert-url': _cert, ...withoutCert } = delivery.headers;
      const calls = await during(async () => {
        expect(await clientFor().verifyWebhook(withoutCert, delivery.body)).toBeNull();
        expect(
          await clientFor({ webhookId: undefined }).verifyWebhook(delivery.headers, delivery.body),
        ).toBeNull();
        expect(await clientFor().verifyWebhook(delivery.headers, '{not json')).toBeNull();
        expect(await clientFor().verifyWebhook(delivery.headers, '[1,2]')).toBeNull();
      });
      expect(calls.filter((c) => c.includes('verify-webhook-signature'))).toEqual([]);
    });
  });

  describe('the sandbox speaks PayPal’s error shapes', () => {
    const token = async () => {
      const response = await fetch(`${paypal.url}/v1/oauth2/token`, {
        method: 'POST',
        headers: { authorization: `Basic ${Buffer.from('client-a:secret-a').toString('base64')}` },
        body: new URLSearchParams({ grant_type: 'client_credentials' }),
      });
      return ((await response.json()) as { access_token: string }).access_token;
    };
    const create = async (body: unknown) => {
      const response = await fetch(`${paypal.url}/v2/checkout/orders`, {
        method: 'POST',
        headers: { authorization: `Bearer ${await token()}`, 'content-type': 'application/json' },
        body: JSON.stringify(body),
      });
      return { status: response.status, body: (await response.json()) as Record<string, unknown> };
    };
    const unit = (value: string) => ({
      intent: 'CAPTURE',
      purchase_units: [{ amount: { currency_code: 'BRL', value } }],
    });

    it('validates the order it is asked to create', async () => {
      const malformed = await create(unit('12.3.4'));
      expect(malformed.status).toBe(400);
      expect(malformed.body).toMatchObject({
        name: 'INVALID_REQUEST',
        debug_id: expect.any(String),
        details: [{ field: '/purchase_units/0/amount/value', issue: 'INVALID_PARAMETER_SYNTAX' }],
      });
      expect((await create(unit('1.234'))).body).toMatchObject({
        name: 'UNPROCESSABLE_ENTITY',
        details: [{ issue: 'DECIMAL_PRECISION' }],
      });
      expect((await create({ purchase_units: [] })).body).toMatchObject({
        details: [{ field: '/intent', issue: 'MISSING_REQUIRED_PARAMETER' }],
      });
      const minimal = await create(unit('10.00'));
      expect(minimal.status).toBe(201);
      expect(Object.keys(minimal.body).sort()).toEqual(['id', 'links', 'status']);
      expect(minimal.body.status).toBe('CREATED');
    });

    it('refuses API calls without a valid token', async () => {
      const response = await fetch(`${paypal.url}/v2/checkout/orders/ANY`);
      expect(response.status).toBe(401);
      expect(await response.json()).toMatchObject({ name: 'AUTHENTICATION_FAILURE' });
    });
  });
});

describe('PagBank adapter against the PagBank sandbox', () => {
  let pagbank: PagbankSandbox;
  let listener: Awaited<ReturnType<typeof startListener>>;
  beforeAll(async () => {
    pagbank = await startPagbankSandbox({ token: 'pb-token' });
    listener = await startListener((res) => {
      res.writeHead(204);
      res.end();
    });
  });
  afterAll(async () => {
    await pagbank.close();
    await listener.close();
  });

  const clientFor = (overrides: Partial<Parameters<typeof createPagbankClient>[0]> = {}) =>
    createPagbankClient({
      token: 'pb-token',
      apiUrl: pagbank.url,
      timeoutMs: 2000,
      retryDelaysMs: FAST_RETRIES,
      ...overrides,
    });
  const checkoutInput = (reference: string) => ({
    reference,
    amount: 12345,
    currency: 'BRL' as const,
    itemName: 'Planning',
    customer: { name: 'Ana Souza', email: 'ana@example.com' },
    redirectUrl: 'http://app.test/back?tx=3',
    notificationUrl: `${listener.url}/notify`,
  });
  const during = async (run: () => Promise<unknown>) => {
    const start = pagbank.requests.length;
    await run();
    return pagbank.requests.slice(start).map((r) => `${r.method} ${r.path}`);
  };
  const noticesOf = (orderId: string) =>
    listener.received.filter((r) => r.body.includes(`"id":"${orderId}"`));

  it('creates the checkout as documented, once per reference', async () => {
    const client = clientFor();
    const reference = newReference();
    const before = pagbank.checkouts.size;
    const checkout = await client.createCheckout(checkoutInput(reference));
    expect(checkout).toEqual({
      checkoutId: expect.stringMatching(/^CHEC_/),
      status: 'ACTIVE',
      payUrl: `${pagbank.url}/pay/${checkout.checkoutId}`,
      orderIds: [],
    });
    const sent = pagbank.requests.findLast((r) => r.path === '/checkouts')!;
    expect(sent.headers.authorization).toBe('Bearer pb-token');
    expect(sent.headers['x-idempotency-key']).toBe(`checkout-${reference}`);
    expect(pagbank.checkouts.get(checkout.checkoutId)).toMatchObject({
      reference_id: reference,
      customer: { name: 'Ana Souza', email: 'ana@example.com' },
      items: [{ name: 'Planning', quantity: 1, unit_amount: 12345 }],
      payment_methods: [{ type: 'CREDIT_CARD' }, { type: 'BOLETO' }],
      redirect_url: 'http://app.test/back?tx=3',
      notification_urls: [`${listener.url}/notify`],
      payment_notification_urls: [`${listener.url}/notify`],
    });

    const again = await client.createCheckout(checkoutInput(reference));
    expect(again.checkoutId).toBe(checkout.checkoutId);
    expect(pagbank.checkouts.size).toBe(before + 1);
  });

  it('paid by card on the page: one signed notification, read and checked; the order is PAID', async () => {
    const client = clientFor();
    const reference = newReference();
    const checkout = await client.createCheckout(checkoutInput(reference));

    const html = await (await fetch(checkout.payUrl!)).text();
    expect(html).toContain('R$ 123,45');
    expect(html).toMatch(/<button id="pay-card"[^>]*>Pay by card<\/button>/);
    expect(html).toMatch(/<button id="pay-boleto"[^>]*>Generate boleto<\/button>/);

    const paid = await fetch(checkout.payUrl!, {
      method: 'POST',
      body: new URLSearchParams({ method: 'card' }),
      redirect: 'manual',
    });
    expect(paid.status).toBe(303);
    expect(paid.headers.get('location')).toBe('http://app.test/back?tx=3');

    const [orderId] = pagbank.checkouts.get(checkout.checkoutId)!.orders.map((o) => o.id);
    expect(orderId).toMatch(/^ORDE_/);
    // Both URL lists name the same listener: it hears once, before the payer is sent back.
    const notices = noticesOf(orderId!);
    expect(notices).toHaveLength(1);
    const notice = notices[0]!;
    expect(notice).toMatchObject({ method: 'POST', path: '/notify' });
    expect(client.readNotification(notice.headers, notice.body)).toEqual({
      kind: 'notice',
      orderId,
      checkoutId: null,
    });
    expect(
      clientFor({ token: 'other-token' }).readNotification(notice.headers, notice.body),
    ).toEqual({ kind: 'unsigned' });
    expect(
      client.readNotification(notice.headers, notice.body.replace('"PAID"', '"DECLINED"')),
    ).toEqual({ kind: 'unsigned' });
    const { 'x-authenticity-token': _signature, ...unsigned } = notice.headers;
    expect(client.readNotification(unsigned, notice.body)).toEqual({ kind: 'unsigned' });

    expect(await client.getOrder(orderId!)).toEqual({
      orderId,
      reference,
      chargeId: expect.stringMatching(/^CHAR_/),
      chargeStatus: 'PAID',
      amount: 12345,
      currency: 'BRL',
      updatedAt: expect.stringMatching(/^\d{4}-\d\d-\d\dT/),
    });
    expect((await client.getCheckout(checkout.checkoutId)).orderIds).toEqual([orderId]);
  });

  it('a boleto waits until paid; notifications can be resent, unsigned or forged', async () => {
    const client = clientFor();
    const checkout = await client.createCheckout(checkoutInput(newReference()));
    const orderId = await pagbank.pay(checkout.checkoutId, 'boleto');
    expect(await client.getOrder(orderId)).toMatchObject({
      chargeStatus: 'WAITING',
      amount: 12345,
    });

    pagbank.setChargeStatus(orderId, 'PAID');
    expect(await client.getOrder(orderId)).toMatchObject({ chargeStatus: 'PAID' });

    const [unsignedDelivery] = await pagbank.notify(orderId, { sign: false });
    expect(unsignedDelivery).toEqual({ url: `${listener.url}/notify`, status: 204 });
    await pagbank.notify(orderId, { token: 'not-the-token' });
    const [, unsigned, forged] = noticesOf(orderId);
    expect(unsigned!.headers['x-authenticity-token']).toBeUndefined();
    expect(client.readNotification(unsigned!.headers, unsigned!.body)).toEqual({
      kind: 'unsigned',
    });
    expect(client.readNotification(forged!.headers, forged!.body)).toEqual({ kind: 'unsigned' });
  });

  it('pays without posting when notifications are off; notify() still delivers', async () => {
    const quiet = await startPagbankSandbox({ token: 'pb-token', deliverNotifications: false });
    try {
      const client = clientFor({ apiUrl: quiet.url });
      const checkout = await client.createCheckout(checkoutInput(newReference()));
      const orderId = await quiet.pay(checkout.checkoutId, 'card');
      expect(noticesOf(orderId)).toEqual([]);
      expect(await client.getOrder(orderId)).toMatchObject({ chargeStatus: 'PAID' });
      await quiet.notify(orderId);
      expect(noticesOf(orderId)).toHaveLength(1);
    } finally {
      await quiet.close();
    }
  });

  it('reads the order out of the notification shapes PagBank sends', () => {
    const client = clientFor();
    const read = (body: unknown, sign = true) => {
      const raw = typeof body === 'string' ? body : JSON.stringify(body);
      const headers = sign ? { 'X-Authenticity-Token': [pagbankSignature('pb-token', raw)] } : {};
      return client.readNotification(headers, raw);
    };
    expect(read({ id: 'ORDE_A', checkout_id: 'CHEC_1', charges: [] })).toEqual({
      kind: 'notice',
      orderId: 'ORDE_A',
      checkoutId: 'CHEC_1',
    });
    expect(
      read({ id: 'CHEC_2', status: 'ACTIVE', orders: [{ id: 'ORDE_B' }, { id: 'ORDE_C' }] }),
    ).toEqual({ kind: 'notice', orderId: 'ORDE_C', checkoutId: 'CHEC_2' });
    expect(read({ id: 'CHAR_1', order_id: 'ORDE_D' })).toMatchObject({ orderId: 'ORDE_D' });
    // Unsigned: refused before the body is read, whatever it holds.
    expect(read({ id: 'ORDE_A', checkout_id: 'CHEC_1' }, false)).toEqual({ kind: 'unsigned' });
    expect(read('not json', false)).toEqual({ kind: 'unsigned' });
    for (const body of [
      { id: 'CHAR_1', status: 'PAID' },
      { id: 'ORDE_../../x' },
      'not json',
      [{ id: 'ORDE_A' }],
    ]) {
      expect(read(body), JSON.stringify(body)).toEqual({ kind: 'unreadable' });
    }
  });

  it('a wrong token is a ProviderError 401 in PagBank’s words, not retried', async () => {
    const client = clientFor({ token: 'wrong' });
    const calls = await during(async () => {
      const error = await rejection(client.getOrder('ORDE_X'));
      expect(error).toMatchObject({ provider: 'pagbank', status: 401 });
      expect(error.message).toContain('UNAUTHORIZED');
    });
    expect(calls).toEqual(['GET /orders/ORDE_X']);
  });

  it('refuses an invalid checkout with the parameter it could not take', async () => {
    const error = await rejection(
      clientFor().createCheckout({ ...checkoutInput(newReference()), amount: 0 }),
    );
    expect(error.status).toBe(400);
    expect(error.message).toContain('items[0].unit_amount');
    expect((await rejection(clientFor().getOrder('ORDE_UNKNOWN'))).status).toBe(404);
  });

  it('retries 5xx, gives up after three attempts, never retries a 400', async () => {
    const client = clientFor();
    const checkout = await client.createCheckout(checkoutInput(newReference()));
    const orderId = await pagbank.pay(checkout.checkoutId, 'card');

    pagbank.failNext(2, 503);
    expect(await during(() => client.getOrder(orderId))).toHaveLength(3);

    pagbank.failNext(3, 500);
    const gaveUp = await during(async () => {
      expect((await rejection(client.getOrder(orderId))).status).toBe(500);
    });
    expect(gaveUp).toHaveLength(3);

    pagbank.failNext(1, 400);
    const refused = await during(async () => {
      expect((await rejection(client.getOrder(orderId))).status).toBe(400);
    });
    expect(refused).toHaveLength(1);

    // The checkout creation carries x-idempotency-key: retried, one checkout.
    const before = pagbank.checkouts.size;
    pagbank.failNext(1, 503);
    const created = await during(() => client.createCheckout(checkoutInput(newReference())));
    expect(created).toEqual(['POST /checkouts', 'POST /checkouts']);
    expect(pagbank.checkouts.size).toBe(before + 1);
  });

  it('a provider that never answers is a ProviderError within the time-outs', async () => {
    const silent = await startListener();
    try {
      const client = clientFor({ apiUrl: silent.url, timeoutMs: 150 });
      const started = Date.now();
      const error = await rejection(client.getOrder('ORDE_SLOW'));
      expect(Date.now() - started).toBeLessThan(1500);
      expect(error).toMatchObject({ provider: 'pagbank', status: null });
      expect(silent.received).toHaveLength(3);
    } finally {
      await silent.close();
    }
  });
});
