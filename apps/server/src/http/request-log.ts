import type { FastifyRequest } from 'fastify';
import type { Config } from '../config';

/**
 * What the request log may hold. A URL carries secrets and health data in two places: path
 * segments that are bearer tokens (`/resetPassword/{token}`, `/verify/{token}`,
 * `/api/v1/students/invitations/{token}`, the random names of avatars and product images) and
 * query strings (signed download links `?t=`, S3's `X-Amz-Signature`, PayPal's `?token=`, a case
 * search by patient name `?patient=`). So the log keeps a URL's shape and drops those values.
 * Headers and bodies (bearer tokens, refresh tokens, passwords, chat text) are never logged.
 */
export const REDACTED = '[redacted]';

/**
 * A token-like path segment: every token and random file name the server makes is 32 or more
 * URL-safe characters; no route's own segment is longer than 20 ("checkPhysicalPayment").
 */
const TOKEN_SEGMENT = /^[A-Za-z0-9_~-]{24,}$/;
/** Query values kept as they are: page numbers, ids, limits and flags. */
const PLAIN_QUERY_VALUE = /^(\d{1,9}|true|false)$/;
const QUERY_KEY = /^[A-Za-z][A-Za-z0-9_.[\]-]{0,39}$/;

/** The URL as the log may show it: token segments and query values other than numbers replaced. */
export function redactUrl(url: string): string {
  const queryAt = url.indexOf('?');
  const path = queryAt === -1 ? url : url.slice(0, queryAt);
  const safePath = path
    .split('/')
    .map((segment) => (TOKEN_SEGMENT.test(segment) ? REDACTED : segment))
    .join('/');
  if (queryAt === -1) return safePath;
  const safeQuery = url
    .slice(queryAt + 1)
    .split('&')
    .map((pair) => {
      const equals = pair.indexOf('=');
      // A bare `?text` is a value: redacted like one.
      if (equals === -1) return pair === '' ? pair : REDACTED;
      const key = pair.slice(0, equals);
      const value = pair.slice(equals + 1);
      if (!QUERY_KEY.test(key)) return REDACTED;
      return PLAIN_QUERY_VALUE.test(value) || value === '' ? pair : `${key}=${REDACTED}`;
    })
    .join('&');
  return `${safePath}?${safeQuery}`;
}

/**
 * Object paths removed from any logged object, should a log call ever pass a request's headers
 * or body: credentials and tokens by their field names.
 */
const REDACT_PATHS = [
  'req.headers.authorization',
  'req.headers.cookie',
  'headers.authorization',
  'headers.cookie',
  'headers["x-authenticity-token"]',
  'password',
  '*.password',
  'refresh_token',
  '*.refresh_token',
  'refreshToken',
  '*.refreshToken',
  'accessToken',
  '*.accessToken',
  'token',
  '*.token',
];

/** Where log lines go instead of stdout (tests capture them). */
export interface LogDestination {
  write(line: string): void;
}

/** Fastify's logger options: level, the redacting request serializer, optional destination. */
export function loggerOptions(level: Config['logLevel'], stream?: LogDestination) {
  return {
    level,
    ...(stream ? { stream } : {}),
    redact: { paths: REDACT_PATHS, censor: REDACTED },
    serializers: {
      // Fastify's own request fields, with the URL redacted.
      req: (request: FastifyRequest) => ({
        method: request.method,
        url: redactUrl(request.url),
        host: request.host,
        remoteAddress: request.ip,
        remotePort: request.socket?.remotePort,
      }),
    },
  };
}
