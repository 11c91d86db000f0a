import { AsyncLocalStorage } from 'node:async_hooks';
import { randomUUID } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import type { FastifyBaseLogger, FastifyInstance } from 'fastify';

export const REQUEST_ID_HEADER = 'x-request-id';

/**
 * An incoming id is kept only when it is a short token of safe characters (a balancer's or a
 * client's correlation id): anything else could forge or break log lines, so it is replaced.
 */
const SAFE_REQUEST_ID = /^[A-Za-z0-9._:-]{1,64}$/;

/** Fastify's `genReqId`: the caller's safe `x-request-id`, else a new UUID. */
export function requestIdOf(request: IncomingMessage): string {
  const incoming = request.headers[REQUEST_ID_HEADER];
  return typeof incoming === 'string' && SAFE_REQUEST_ID.test(incoming) ? incoming : randomUUID();
}

const currentRequestLog = new AsyncLocalStorage<FastifyBaseLogger>();

/**
 * Every response carries its request id; and while a request is handled, whatever logs through
 * the app's logger (services hold `ctx.log`) logs through the request's logger, whose lines carry
 * `reqId` — so every line of a request can be found by the id the client saw.
 */
export function registerRequestId(app: FastifyInstance): void {
  app.addHook('onRequest', (request, reply, done) => {
    void reply.header(REQUEST_ID_HEADER, request.id);
    currentRequestLog.run(request.log, done);
  });
}

/** The app's logger that, inside a request, writes through that request's logger. */
export function requestAwareLogger(root: FastifyBaseLogger): FastifyBaseLogger {
  return new Proxy(root, {
    get(target, property, receiver) {
      const logger = currentRequestLog.getStore() ?? target;
      const value: unknown = Reflect.get(logger, property, logger === target ? receiver : logger);
      return typeof value === 'function' ? value.bind(logger) : value;
    },
  });
}
