import { setTimeout as sleep } from 'node:timers/promises';
import { ProviderError } from './payment-providers';

/** An answer with its body already read, inside the attempt's time-out. */
export interface ProviderResponse {
  status: number;
  headers: Headers;
  text: string;
}

export interface ProviderRequest {
  method: 'GET' | 'POST' | 'PATCH' | 'DELETE';
  url: string;
  headers?: Record<string, string> | undefined;
  body?: string | undefined;
  /**
   * Whether sending it twice is harmless. By default: a GET, or a request carrying an idempotency
   * header. Set it for calls that change nothing on the provider (an OAuth token, a signature check).
   */
  repeatable?: boolean | undefined;
}

export interface RetryPolicy {
  provider: ProviderError['provider'];
  /** Per attempt, body included. */
  timeoutMs: number;
  /** The waits between attempts: one attempt more than there are delays. */
  retryDelaysMs?: readonly number[] | undefined;
}

export const DEFAULT_RETRY_DELAYS_MS: readonly number[] = [200, 600];

const IDEMPOTENCY_HEADERS = new Set(['paypal-request-id', 'x-idempotency-key', 'idempotency-key']);

function isRepeatable(request: ProviderRequest): boolean {
  if (request.repeatable !== undefined) return request.repeatable;
  if (request.method === 'GET') return true;
  return Object.keys(request.headers ?? {}).some((name) =>
    IDEMPOTENCY_HEADERS.has(name.toLowerCase()),
  );
}

/** Worth another try: the provider is busy or broken, not refusing this request. */
const isTransientStatus = (status: number) => status === 429 || status >= 500;

function describeFailure(error: unknown): string {
  if (error instanceof Error && (error.name === 'TimeoutError' || error.name === 'AbortError')) {
    return 'timed out';
  }
  const cause =
    error instanceof Error && error.cause instanceof Error ? `: ${error.cause.message}` : '';
  return `request failed (${error instanceof Error ? error.message : String(error)}${cause})`;
}

/**
 * One provider call with a time-out per attempt and, when the request is safe to repeat, up to
 * `retryDelaysMs.length` more attempts on network errors, time-outs, 429 and 5xx. Any other answer
 * (2xx, 3xx, other 4xx) is returned for the caller to judge; a transient failure on the last
 * attempt throws ProviderError.
 */
export async function requestWithRetry(
  request: ProviderRequest,
  policy: RetryPolicy,
): Promise<ProviderResponse> {
  const delays = isRepeatable(request) ? (policy.retryDelaysMs ?? DEFAULT_RETRY_DELAYS_MS) : [];
  const target = `${request.method} ${new URL(request.url).pathname}`;
  let failure = '';
  let lastStatus: number | null = null;
  for (let attempt = 0; attempt <= delays.length; attempt += 1) {
    if (attempt > 0) await sleep(delays[attempt - 1] ?? 0);
    try {
      const response = await fetch(request.url, {
        method: request.method,
        headers: request.headers,
        body: request.body,
        redirect: 'manual',
        signal: AbortSignal.timeout(policy.timeoutMs),
      });
      const text = await response.text();
      if (!isTransientStatus(response.status)) {
        return { status: response.status, headers: response.headers, text };
      }
      lastStatus = response.status;
      failure = `HTTP ${response.status}`;
    } catch (error) {
      lastStatus = null;
      failure = describeFailure(error);
    }
  }
  const attempts = delays.length + 1;
  throw new ProviderError(
    policy.provider,
    `${target}: ${failure} after ${attempts} attempt${attempts > 1 ? 's' : ''}`,
    lastStatus,
  );
}

/** The JSON body, or undefined when it is not JSON (an HTML error page, an empty body). */
export function parseJsonBody(response: ProviderResponse): unknown {
  try {
    return JSON.parse(response.text) as unknown;
  } catch {
    return undefined;
  }
}
