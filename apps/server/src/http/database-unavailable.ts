/** Socket errors of a database that cannot be reached (down, restarting, network cut). */
const NETWORK_CODES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ENOTFOUND',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'ETIMEDOUT',
  'EPIPE',
  'EAI_AGAIN',
]);

/**
 * SQLSTATEs of a database that is not serving: class 08 (connection exception), 57P01 admin
 * shutdown, 57P02 crash shutdown, 57P03 cannot connect now (starting up, recovering), 53300 too
 * many connections.
 */
const isUnavailableSqlState = (code: string) =>
  /^08[0-9A-Z]{3}$/.test(code) || ['57P01', '57P02', '57P03', '53300'].includes(code);

/** node-postgres's own messages when it cannot get or keep a connection. */
const POOL_MESSAGES = [
  'timeout exceeded when trying to connect',
  'Connection terminated',
  'Client has encountered a connection error and is not queryable',
  'Cannot use a pool after calling end on the pool',
];

/**
 * True when `error` (or an error it wraps: drizzle wraps the driver's in `cause`) says the
 * database cannot be reached, rather than that a query was wrong: the request gets 503
 * SERVICE_UNAVAILABLE at once (the pool's connection timeout bounds the wait) instead of a 500.
 */
export function isDatabaseUnavailable(error: unknown): boolean {
  for (let current = error, depth = 0; current && depth < 5; depth++) {
    if (typeof current !== 'object') return false;
    const { code, message, cause } = current as {
      code?: unknown;
      message?: unknown;
      cause?: unknown;
    };
    if (typeof code === 'string' && (NETWORK_CODES.has(code) || isUnavailableSqlState(code))) {
      return true;
    }
    if (typeof message === 'string' && POOL_MESSAGES.some((text) => message.startsWith(text))) {
      return true;
    }
    // AggregateError (a host with several addresses refused on each).
    const errors = (current as { errors?: unknown }).errors;
    if (Array.isArray(errors) && errors.some((inner) => isDatabaseUnavailable(inner))) return true;
    current = cause;
  }
  return false;
}
