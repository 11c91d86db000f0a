import { vi } from 'vitest';
import type { ErrorCode } from '@dentflow/domain';

export interface RecordedCall {
  method: string;
  path: string;
  headers: Record<string, string>;
  body: unknown;
}

type Handler = (call: RecordedCall) => Response | Promise<Response>;

export function jsonResponse(status: number, body: unknown): Response {
  return new Response(JSON.stringify(body), {
    status,
    headers: { 'Content-Type': 'application/json' },
  });
}

export const ok = (obj: unknown) => jsonResponse(200, { obj });
/** The API's error envelope; only the server's codes, so a test cannot expect one that never comes. */
export const fail = (
  status: number,
  code: ErrorCode,
  error: string,
  fields?: Record<string, string>,
) => jsonResponse(status, { error, code, ...(fields ? { fields } : {}) });

/** Replaces `fetch` with a handler that sees each call (path without the /api/v1 base). */
export function mockFetch(handler: Handler) {
  const calls: RecordedCall[] = [];
  const fetchMock = vi.fn(async (input: RequestInfo | URL, init?: RequestInit) => {
    const url = typeof input === 'string' ? input : input instanceof URL ? input.href : input.url;
    const headers = Object.fromEntries(
      Object.entries((init?.headers as Record<string, string> | undefined) ?? {}).map(([k, v]) => [
        k.toLowerCase(),
        v,
      ]),
    );
    const call: RecordedCall = {
      method: init?.method ?? 'GET',
      path: url.replace(/^.*\/api\/v1/, ''),
      headers,
      body: typeof init?.body === 'string' ? JSON.parse(init.body) : undefined,
    };
    calls.push(call);
    return handler(call);
  });
  vi.stubGlobal('fetch', fetchMock);
  return { calls, fetchMock };
}

/**
 * The calls the app makes once signed in, answered as for a user with nothing to show (no
 * instructor, no announcement, no kit lists); undefined for any other path.
 */
export function emptyStartupAnswer(path: string): Response | undefined {
  switch (path) {
    case '/profile/getInstructor':
      return ok({ instructor_id: null, instructor_discount: 0 });
    case '/profile/announcement':
      return ok({ active: false, title: '', body: '' });
    case '/metadata/list/serviceData/subsystem':
      return ok({ kitManufacturers: [], treatmentPurposes: [] });
    default:
      return undefined;
  }
}
