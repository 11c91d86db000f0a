import { randomUUID } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import type { FastifyInstance } from 'fastify';

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

/**
 * Every response carries its request id. Fastify's request logger (`request.log`) puts it on each
 * line; services log for a request through the logger handed to them with the call (`logFor` in
 * `context.ts`), so every line of a request can be found by the id the client saw. (A case event
 * listener's failure is logged with its case and action instead: it may run after the answer.)
 */
export function registerRequestId(app: FastifyInstance): void {
  app.addHook('onRequest', (request, reply, done) => {
    void reply.header(REQUEST_ID_HEADER, request.id);
    done();
  });
}
