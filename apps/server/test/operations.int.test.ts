import { createServer, type AddressInfo, type Server, type Socket } from 'node:net';
import { connect } from 'node:net';
import { io as connectSocket } from 'socket.io-client';
import { startPagbankSandbox, type PagbankSandbox } from '@dentflow/payment-sandbox';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { pagbankSignature } from '../src/adapters/payments/pagbank';
import { createUser } from './support/cases-fixtures';
import { placeOrder } from './support/payments-fixtures';
import {
  bearer,
  captureLog,
  json,
  login,
  startTestApp,
  type Session,
  type TestApp,
} from './support/test-app';

const METRICS_TOKEN = 'metrics-token-for-tests-0123456789';

describe('request ids', () => {
  let t: TestApp;
  const log = captureLog();
  beforeAll(async () => {
    t = await startTestApp({ LOG_LEVEL: 'info' }, { logStream: log.stream });
  });
  afterAll(async () => t?.close());

  it('answers an id per request, keeps a safe incoming one and replaces any other', async () => {
    const fresh = await t.app.inject({ method: 'GET', url: '/api/health' });
    expect(fresh.headers['x-request-id']).toMatch(/^[0-9a-f-]{36}$/);
    const kept = await t.app.inject({
      method: 'GET',
      url: '/api/health',
      headers: { 'x-request-id': 'lb-7f3a.1' },
    });
    expect(kept.headers['x-request-id']).toBe('lb-7f3a.1');
    for (const unsafe of ['a'.repeat(65), 'two words', 'line\\nbreak', '{"json":1}', '']) {
      const replaced = await t.app.inject({
        method: 'GET',
        url: '/api/health',
        headers: { 'x-request-id': unsafe },
      });
      expect(replaced.headers['x-request-id'], unsafe).toMatch(/^[0-9a-f-]{36}$/);
    }
    const missing = await t.app.inject({ method: 'GET', url: '/api/v1/nothing-here' });
    expect(missing.statusCode).toBe(404);
    expect(missing.headers['x-request-id']).toMatch(/^[0-9a-f-]{36}$/);
  });

  it("carries the id on every log line of the request, the services' lines included", async () => {
    const doctor = await login(t.app, 'doctor');
    const id = 'trace-zip-42';
    log.lines.length = 0;
    // No zip provider configured: the shop service logs 'zip lookup unavailable' through ctx.log.
    const response = await t.app.inject({
      method: 'GET',
      url: '/api/v1/shop/queryAddress/01310100',
      headers: { ...bearer(doctor), 'x-request-id': id },
    });
    expect(response.statusCode).toBe(503);
    const lines = log.entries();
    const service = lines.find((line) => line.msg === 'zip lookup unavailable');
    expect(service?.reqId).toBe(id);
    const ofRequest = lines.filter((line) => line.reqId === id);
    expect(ofRequest.map((line) => line.msg)).toEqual(
      expect.arrayContaining(['incoming request', 'zip lookup unavailable', 'request completed']),
    );
    // Nothing of this request was logged without its id.
    expect(lines.filter((line) => line.reqId === undefined && line.msg !== undefined)).toEqual([]);
  });
});

describe('request ids on the lines services write, from the logger each call is handed', () => {
  const TOKEN = 'operations-pagbank-token';
  let t: TestApp;
  let pagbank: PagbankSandbox;
  const log = captureLog();
  beforeAll(async () => {
    pagbank = await startPagbankSandbox({ token: TOKEN, deliverNotifications: false });
    t = await startTestApp(
      { LOG_LEVEL: 'info', PAGBANK_TOKEN: TOKEN, PAGBANK_API_URL: pagbank.url },
      { logStream: log.stream },
    );
  }, 60_000);
  afterAll(async () => {
    await t?.close();
    await pagbank?.close();
  });

  /** The messages logged under request id `id`, and whether `message` was logged under no id. */
  const logged = (id: string, message: string) => {
    const lines = log.entries();
    return {
      ofRequest: lines.filter((line) => line.reqId === id).map((line) => line.msg),
      withoutId: lines.filter((line) => line.msg === message && line.reqId === undefined).length,
    };
  };

  it("the signed-in caller's: a payment provider failing while a payment opens", async () => {
    const doctor = await createUser(t.app, ['doctor'], { language: 'ptBR' });
    const { transactionId } = await placeOrder(t.app, doctor, 'pagseguro');
    pagbank.failNext(1, 400);
    const response = await t.app.inject({
      method: 'GET',
      url: `/api/v1/case/transaction/${transactionId}/paymentLink`,
      headers: { ...bearer(doctor), 'x-request-id': 'trace-payment-link' },
    });
    expect(response.statusCode).toBe(502);
    expect(logged('trace-payment-link', 'payment provider call failed')).toEqual({
      ofRequest: expect.arrayContaining(['payment provider call failed', 'request completed']),
      withoutId: 0,
    });
  });

  it("the request's own, without a session: a PagBank notice whose order cannot be read", async () => {
    const body = JSON.stringify({ id: 'ORDE_NOT-AT-PAGBANK' });
    const response = await t.app.inject({
      method: 'POST',
      url: '/api/v1/notification/pagseguro',
      headers: {
        'content-type': 'application/json',
        'x-authenticity-token': pagbankSignature(TOKEN, body),
        'x-request-id': 'trace-pagbank-notice',
      },
      payload: body,
    });
    expect(response.statusCode).toBe(502);
    expect(logged('trace-pagbank-notice', 'payment provider call failed').ofRequest).toContain(
      'payment provider call failed',
    );
  });

  it("the request meta's: a rotated refresh token presented again", async () => {
    const session = await login(t.app, 'printer');
    const refresh = (token: string, id: string) =>
      t.app.inject({
        method: 'POST',
        url: '/api/v1/auth/refresh_token',
        headers: { 'x-request-id': id },
        payload: { refresh_token: token },
      });
    expect(
      json<{ obj: Session }>(await refresh(session.refreshToken, 'trace-rotate')).obj,
    ).toBeTruthy();
    expect((await refresh(session.refreshToken, 'trace-reuse')).statusCode).toBe(401);
    const message = 'rotated refresh token reused; family revoked';
    expect(logged('trace-reuse', message)).toEqual({
      ofRequest: expect.arrayContaining([message]),
      withoutId: 0,
    });
  });
});

describe('readiness', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp();
  });
  afterAll(async () => t?.close());

  it('is ready while the database answers, and not once draining; health stays live', async () => {
    const ready = await t.app.inject({ method: 'GET', url: '/api/ready' });
    expect(ready.statusCode).toBe(200);
    expect(json(ready)).toEqual({ obj: { ready: true } });
    t.app.lifecycle.startDraining();
    const draining = await t.app.inject({
      method: 'GET',
      url: '/api/ready',
      headers: { 'accept-language': 'pt-BR' },
    });
    expect(draining.statusCode).toBe(503);
    expect(json(draining)).toMatchObject({
      code: 'SERVICE_UNAVAILABLE',
      error: 'O serviço está indisponível no momento. Tente novamente em instantes.',
      obj: { ready: false, draining: true, database: 'up' },
    });
    expect(draining.headers.connection).toBe('close');
    expect((await t.app.inject({ method: 'GET', url: '/api/health' })).statusCode).toBe(200);
  });
});

/** A TCP relay to PostgreSQL that the test can cut (as if the database went away) and restore. */
async function databaseRelay(target: { host: string; port: number }) {
  const sockets = new Set<Socket>();
  let server: Server | undefined;
  let port = 0;
  const open = () =>
    new Promise<void>((resolve) => {
      server = createServer((client) => {
        const upstream = connect(target.port, target.host);
        for (const socket of [client, upstream]) {
          sockets.add(socket);
          socket.on('close', () => sockets.delete(socket));
          socket.on('error', () => undefined);
        }
        client.pipe(upstream).pipe(client);
      });
      server.listen(port, '127.0.0.1', () => {
        port = (server!.address() as AddressInfo).port;
        resolve();
      });
    });
  await open();
  return {
    get port() {
      return port;
    },
    /** Refuses new connections and resets the open ones. */
    async cut() {
      await new Promise<void>((resolve) => {
        server!.close(() => resolve());
        for (const socket of sockets) socket.resetAndDestroy();
      });
    },
    restore: open,
  };
}

describe('database outage', () => {
  let t: TestApp;
  let relay: Awaited<ReturnType<typeof databaseRelay>>;
  beforeAll(async () => {
    // The database itself, reached through a relay the test controls.
    const direct = await startTestApp();
    const url = new URL(direct.config.databaseUrl!);
    relay = await databaseRelay({ host: url.hostname, port: Number(url.port || 5432) });
    url.hostname = '127.0.0.1';
    url.port = String(relay.port);
    t = await startTestApp(
      { DATABASE_CONNECT_TIMEOUT_MS: '1000' },
      { databaseUrl: url.toString() },
    );
    t.close = async () => {
      await t.app.close();
      await direct.close();
    };
  }, 60_000);
  afterAll(async () => t?.close());

  it('answers 503 SERVICE_UNAVAILABLE at once while PostgreSQL is unreachable, then recovers', async () => {
    const doctor = await login(t.app, 'doctor');
    const profile = () =>
      t.app.inject({ method: 'GET', url: '/api/v1/profile/get', headers: bearer(doctor) });
    expect((await profile()).statusCode).toBe(200);

    await relay.cut();
    for (let i = 0; i < 3; i++) {
      const started = Date.now();
      const response = await profile();
      expect(response.statusCode, response.body).toBe(503);
      expect(json(response)).toMatchObject({ code: 'SERVICE_UNAVAILABLE' });
      expect(typeof json(response).error).toBe('string');
      expect(Date.now() - started).toBeLessThan(3000);
    }
    const ready = await t.app.inject({ method: 'GET', url: '/api/ready' });
    expect(ready.statusCode).toBe(503);
    expect(json(ready)).toMatchObject({ code: 'SERVICE_UNAVAILABLE', obj: { database: 'down' } });

    await relay.restore();
    let recovered = 0;
    for (let i = 0; i < 40 && recovered !== 200; i++) {
      recovered = (await profile()).statusCode;
      if (recovered !== 200) await new Promise((resolve) => setTimeout(resolve, 100));
    }
    expect(recovered).toBe(200);
    expect((await t.app.inject({ method: 'GET', url: '/api/ready' })).statusCode).toBe(200);
  }, 60_000);
});

describe('Redis unreachable', () => {
  let t: TestApp;
  const log = captureLog();
  beforeAll(async () => {
    t = await startTestApp(
      { REDIS_URL: 'redis://127.0.0.1:9', RATE_LIMIT_LOGIN_MAX: '3', LOG_LEVEL: 'info' },
      { logStream: log.stream },
    );
  }, 60_000);
  afterAll(async () => t?.close());

  it('keeps serving and counts the rate limits per instance, logged once', async () => {
    const attempt = () =>
      t.app.inject({
        method: 'POST',
        url: '/api/v1/auth/login',
        payload: { login: 'doctor', password: 'Dentflow123', remember: false },
      });
    const statuses: number[] = [];
    for (let i = 0; i < 5; i++) statuses.push((await attempt()).statusCode);
    expect(statuses).toEqual([200, 200, 200, 429, 429]);
    const fallbacks = log
      .entries()
      .filter((line) => String(line.msg).startsWith('rate limits: Redis unreachable'));
    expect(fallbacks).toHaveLength(1);
  }, 60_000);
});

describe('metrics', () => {
  let t: TestApp;
  let closed: TestApp;
  beforeAll(async () => {
    t = await startTestApp({ METRICS_TOKEN });
    closed = await startTestApp({}, { databaseUrl: t.config.databaseUrl! });
  });
  afterAll(async () => {
    await closed?.close();
    await t?.close();
  });

  const scrape = (app: TestApp, token?: string) =>
    app.app.inject({
      method: 'GET',
      url: '/metrics',
      headers: token === undefined ? {} : { authorization: `Bearer ${token}` },
    });

  it('serves Prometheus series to the holder of the token', async () => {
    for (let i = 0; i < 3; i++) await t.app.inject({ method: 'GET', url: '/api/health' });
    await t.app.inject({ method: 'GET', url: '/api/v1/case/12345/get' });
    await t.app.jobs.runNow('file-cleanup');
    const response = await scrape(t, METRICS_TOKEN);
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toContain('text/plain');
    const text = response.body;
    const value = (series: string) => {
      const line = text.split('\n').find((l) => l.startsWith(`${series} `));
      return line === undefined ? undefined : Number(line.slice(series.length + 1));
    };
    expect(
      value(
        'dentflow_http_request_duration_seconds_count{route="/api/health",method="GET",status_code="200"}',
      ),
    ).toBeGreaterThanOrEqual(3);
    // The route's pattern, never the URL.
    expect(text).toContain('route="/api/v1/case/:id/get"');
    expect(text).not.toContain('12345');
    expect(value('dentflow_db_pool_connections{state="total"}')).toBeGreaterThan(0);
    expect(value('dentflow_db_pool_connections{state="waiting"}')).toBe(0);
    expect(value('dentflow_mail_outbox_pending')).toBeGreaterThanOrEqual(0);
    expect(value('dentflow_mail_outbox_oldest_pending_age_seconds')).toBeGreaterThanOrEqual(0);
    expect(value('dentflow_job_runs_total{job="file-cleanup",outcome="ran"}')).toBe(1);
    expect(value('dentflow_live_socket_connections')).toBe(0);
    expect(text).toContain('# TYPE dentflow_payment_notices_total counter');
    expect(text).toContain('# TYPE dentflow_job_failures_total counter');
  });

  it('refuses a missing or wrong token, and does not exist without one configured', async () => {
    expect((await scrape(t)).statusCode).toBe(401);
    const wrong = await scrape(t, 'not-the-token');
    expect(wrong.statusCode).toBe(401);
    expect(json(wrong)).toMatchObject({ code: 'NOT_AUTHORIZED' });
    expect((await scrape(closed, METRICS_TOKEN)).statusCode).toBe(404);
  });
});

describe('live sockets on shutdown', () => {
  it('closes the transports, so the client reconnects by itself', async () => {
    const t = await startTestApp();
    await t.app.listen({ port: 0, host: '127.0.0.1' });
    const { port } = t.app.server.address() as AddressInfo;
    const doctor = await login(t.app, 'doctor');
    const socket = connectSocket(`http://127.0.0.1:${port}`, {
      path: '/api/socket.io',
      transports: ['websocket'],
      reconnectionDelay: 60_000,
      forceNew: true,
      auth: { token: doctor.accessToken },
    });
    try {
      await new Promise<void>((resolve, reject) => {
        socket.on('connect', () => resolve());
        socket.on('connect_error', reject);
      });
      const reason = new Promise<string>((resolve) => socket.on('disconnect', resolve));
      void t.app.close();
      // 'transport close' is retried by socket.io-client ('io server disconnect' is not).
      expect(await reason).toBe('transport close');
      // `active`: the client will try to reconnect by itself (false after 'io server disconnect').
      expect(socket.active).toBe(true);
    } finally {
      socket.close();
      await t.close();
    }
  }, 60_000);
});

describe('requests that reach a closing server', () => {
  it('serves one pipelined behind a request in flight, then closes the connection', async () => {
    const t = await startTestApp();
    await t.app.listen({ port: 0, host: '127.0.0.1' });
    const { port } = t.app.server.address() as AddressInfo;
    const socket = connect(port, '127.0.0.1');
    let received = '';
    socket.on('data', (chunk: Buffer) => (received += chunk.toString()));
    const ended = new Promise<void>((resolve) => socket.on('close', () => resolve()));
    const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
    try {
      // A sign-in whose body is still arriving keeps the connection busy while the server closes.
      const body = JSON.stringify({ login: 'doctor', password: 'Dentflow123', remember: false });
      socket.write(
        `POST /api/v1/auth/login HTTP/1.1\r\nHost: dentflow\r\nContent-Type: application/json\r\n` +
          `Content-Length: ${Buffer.byteLength(body)}\r\n\r\n${body.slice(0, 10)}`,
      );
      await pause(200);
      const closing = t.app.close();
      await pause(300);
      // The rest of its body, and behind it a request that reaches the server while it closes.
      socket.write(`${body.slice(10)}GET /api/health HTTP/1.1\r\nHost: dentflow\r\n\r\n`);
      await ended;
      await closing;
      const [signIn, health] = received.split(/(?=HTTP\/1\.1 \d{3})/);
      expect(signIn, received).toMatch(/^HTTP\/1\.1 200/);
      // Served like any request (the balancer already sends new ones elsewhere), and the client
      // told to open its next request on another connection.
      expect(health, received).toMatch(/^HTTP\/1\.1 200/);
      expect(health).toMatch(/\r\nconnection: close\r\n/i);
      expect(health).toContain('"obj"');
    } finally {
      socket.destroy();
      await t.close();
    }
  }, 60_000);
});
