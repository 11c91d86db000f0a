import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ROUTE_CALLS, type RouteCall } from './support/authorization-calls';
import { buildWorld, recordFor, type World } from './support/authorization-fixtures';
import {
  MATRIX_CALLERS,
  NO_RECORD,
  RECORD_CASES,
  isRefusal,
  readAuthorizationMatrix,
  routeKey,
  rowTemplate,
  type MatrixCaller,
  type MatrixRow,
  type RecordCase,
} from './support/authorization-matrix';
import { bearer, login, startTestApp, type TestApp } from './support/test-app';

/**
 * docs/permissions.md "Authorization matrix", cell by cell: every role (and no token) × every
 * route × its own record, another's record and a missing one, against the status the table
 * gives. The table is read here, so the document and this test cannot drift; a route registered
 * without a row, or a row without a route, fails.
 */

/**
 * Not rows of the matrix: a HEAD route is its GET's twin (same handler, same rule), the OpenAPI
 * pages and the web app's files are public and hold no data.
 */
const outsideTheMatrix = (method: string, url: string) =>
  method === 'HEAD' || url.startsWith('/api/docs') || !url.startsWith('/api/');

let t: TestApp;
let world: World;
let rows: MatrixRow[];
let zipLookup: Server;

/** A ViaCEP-compatible lookup on a local port: every zip code is Avenida Paulista. */
async function startZipLookup(): Promise<string> {
  zipLookup = createServer((_req, res) => {
    res.setHeader('content-type', 'application/json; charset=utf-8');
    res.end(
      JSON.stringify({
        cep: '01310-100',
        logradouro: 'Avenida Paulista',
        bairro: 'Bela Vista',
        localidade: 'São Paulo',
        uf: 'SP',
      }),
    );
  });
  await new Promise<void>((resolve) => zipLookup.listen(0, '127.0.0.1', resolve));
  return `http://127.0.0.1:${(zipLookup.address() as AddressInfo).port}/ws`;
}

beforeAll(async () => {
  t = await startTestApp({ ZIP_LOOKUP_URL: await startZipLookup() });
  world = await buildWorld(t.app);
  rows = readAuthorizationMatrix();
}, 120_000);

afterAll(async () => {
  await t?.close();
  await new Promise((resolve) => zipLookup?.close(resolve));
});

/** `/api/v1/case/{id}/get` → a pattern a concrete path of that route matches. */
const pathPattern = (route: string) =>
  new RegExp(
    `^${route
      .split(' ')[1]!
      .replace(/[.*+?^$()|[\]\\]/g, '\\$&')
      .replace(/\{\w+\}/g, '[^/]+')}$`,
  );

interface Observed {
  route: string;
  caller: MatrixCaller;
  which: RecordCase;
  expected: number;
  status: number;
  body: string;
}

async function callCell(
  row: MatrixRow,
  call: RouteCall,
  caller: MatrixCaller,
  which: RecordCase,
): Promise<Observed> {
  const expected = row.expected[caller][which];
  const fresh = (call.fresh ?? false) && expected < 400;
  const record = await recordFor(world, row.record, which, caller, fresh);
  const session = caller === 'anonymous' ? null : world.sessions[caller];
  const request = await call.request(record, { world, caller, session });
  const path = request.url.split('?')[0]!;
  if (!pathPattern(row.route).test(path)) {
    throw new Error(`${row.route}: the call's URL ${request.url} is not this route`);
  }
  const method = row.route.split(' ')[0] as 'GET' | 'POST' | 'DELETE';
  const response: LightMyRequestResponse = await t.app.inject({
    method,
    url: request.url,
    headers: { ...(session ? bearer(session) : {}), ...request.headers },
    ...(request.payload === undefined ? {} : { payload: request.payload }),
  });
  if (call.endsSessions && caller !== 'anonymous' && response.statusCode < 300) {
    world.sessions[caller] = await login(t.app, caller);
  }
  return {
    route: row.route,
    caller,
    which,
    expected,
    status: response.statusCode,
    body: response.body,
  };
}

/** `{error, code}`: the shape of every refusal. */
function isEnvelope(body: string): boolean {
  try {
    const parsed = JSON.parse(body) as { error?: unknown; code?: unknown };
    return typeof parsed.error === 'string' && typeof parsed.code === 'string';
  } catch {
    return false;
  }
}

async function runRow(row: MatrixRow): Promise<Observed[]> {
  const call = ROUTE_CALLS[row.route];
  if (!call)
    throw new Error(`${row.route}: no entry in ROUTE_CALLS (support/authorization-calls.ts)`);
  const cells = MATRIX_CALLERS.flatMap((caller) =>
    (row.record === NO_RECORD ? (['own'] as const) : RECORD_CASES).map(
      (which) => [caller, which] as const,
    ),
  );
  if (call.sequential) {
    const observed: Observed[] = [];
    for (const [caller, which] of cells) observed.push(await callCell(row, call, caller, which));
    return observed;
  }
  return Promise.all(cells.map(([caller, which]) => callCell(row, call, caller, which)));
}

describe('the authorization matrix', () => {
  it('has one row for every registered API route, and none for a route that does not exist', () => {
    const registered = new Set(
      t.app.routeRules
        .filter((rule) => !outsideTheMatrix(rule.method, rule.url))
        .map((rule) => routeKey(rule.method, rule.url)),
    );
    const documented = new Set(rows.map((row) => row.route));
    const missing = [...registered].filter((route) => !documented.has(route));
    const unknown = [...documented].filter((route) => !registered.has(route));
    expect(
      missing,
      `routes without a row in docs/permissions.md "Authorization matrix" — add one each:\n${missing
        .map(rowTemplate)
        .join('\n')}\n`,
    ).toEqual([]);
    expect(unknown, 'rows of docs/permissions.md for routes that are not registered').toEqual([]);
    expect(registered.size).toBeGreaterThan(100);
  });

  it('knows how to call every route of the table, on the record kind its row names', () => {
    const problems = rows.flatMap((row) => {
      const call = ROUTE_CALLS[row.route];
      if (!call) return [`${row.route}: no entry in ROUTE_CALLS (support/authorization-calls.ts)`];
      if (call.record !== row.record) {
        return [`${row.route}: the table says record "${row.record}", the call "${call.record}"`];
      }
      return [];
    });
    const extra = Object.keys(ROUTE_CALLS).filter(
      (route) => !rows.some((row) => row.route === route),
    );
    expect(problems).toEqual([]);
    expect(extra, 'ROUTE_CALLS entries without a row in the table').toEqual([]);
  });

  it('answers every role × route × record exactly as the table says', async () => {
    const observed: Observed[] = [];
    for (const row of rows) observed.push(...(await runRow(row)));

    const wrong: string[] = [];
    for (const cell of observed) {
      const key = `${cell.route} · ${cell.caller} · ${cell.which}`;
      if (cell.status !== cell.expected) {
        wrong.push(
          `${key}: expected ${cell.expected}, got ${cell.status} ${cell.body.slice(0, 160)}`,
        );
      } else if (isRefusal(cell.status) && !isEnvelope(cell.body)) {
        wrong.push(`${key}: a refusal without the error envelope: ${cell.body.slice(0, 160)}`);
      }
    }
    // A hidden record answers exactly like a missing one.
    for (const cell of observed.filter((c) => c.which === 'another' && c.expected === 404)) {
      const missing = observed.find(
        (c) => c.route === cell.route && c.caller === cell.caller && c.which === 'none',
      );
      if (missing && missing.status === 404 && missing.body !== cell.body) {
        wrong.push(
          `${cell.route} · ${cell.caller}: another's record answers ${cell.body}, a missing one ${missing.body}`,
        );
      }
    }
    expect(wrong).toEqual([]);
  }, 120_000);
});
