import type { IncomingMessage, ServerResponse } from 'node:http';
import type { FastifyInstance } from 'fastify';

type HelmetMiddleware = (
  request: IncomingMessage,
  response: ServerResponse,
  next: (error?: unknown) => void,
) => void;

/**
 * The headers a helmet middleware sets, read once. Our policy depends on nothing in the request
 * (no nonces, no per-request directives), so every response gets the same headers: setting the
 * ready list costs a fraction of running helmet's thirteen middlewares on every request.
 */
export function headersOf(middleware: HelmetMiddleware): Record<string, string> {
  const headers: Record<string, string> = {};
  const response = {
    setHeader(name: string, value: string | number | readonly string[]) {
      headers[name.toLowerCase()] = String(value);
      return response;
    },
    removeHeader(name: string) {
      delete headers[name.toLowerCase()];
    },
  };
  let failure: unknown;
  middleware({ headers: {} } as IncomingMessage, response as unknown as ServerResponse, (error) => {
    failure = error;
  });
  if (failure) throw failure instanceof Error ? failure : new Error(String(failure));
  return headers;
}

/**
 * An API answer holds health data and one caller's view of it: no cache may keep it (a clinic's
 * shared computer keeps a browser's disk cache). Routes that serve files set their own policy,
 * which replaces this one; the API's documentation pages are not answers.
 */
const isApiAnswer = (url: string) => url.startsWith('/api/') && !url.startsWith('/api/docs');

/**
 * Every response carries the security headers of `middleware` (built once, helmet's output), and
 * an API answer `Cache-Control: no-store` unless its route sets another.
 */
export function registerSecurityHeaders(app: FastifyInstance, middleware: HelmetMiddleware): void {
  const headers = headersOf(middleware);
  const apiHeaders = { ...headers, 'cache-control': 'no-store' };
  app.addHook('onRequest', (request, reply, done) => {
    void reply.headers(isApiAnswer(request.url) ? apiHeaders : headers);
    done();
  });
}
