import { randomBytes } from 'node:crypto';
import type { LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { catalogues, INT32_MAX } from '@dentflow/domain';
import type { ZipLookup } from '../src/adapters/zip-lookup/zip-lookup';
import {
  buildRequest,
  forgedAuthorization,
  hostileLanguage,
  operationsOf,
  rngFor,
  type FuzzRequest,
  type JsonSchema,
  type OpenApiDocument,
  type Operation,
  type SampleContext,
} from './support/openapi-fuzz';
import { bearer, login, startTestApp, type Session, type TestApp } from './support/test-app';

/**
 * Every operation the OpenAPI document publishes, called with hostile path values, query strings,
 * bodies and headers as a client (the demo doctor), as an admin and without a token (sometimes a
 * forged one). No answer may be a 5xx; every refusal carries the envelope `{error, code,
 * fields?}` with a known code, every JSON answer `{obj}`; nothing that declares a bearer token
 * answers 2xx without one. The document itself must bound every number, text and list a request
 * carries, and mark exactly the routes that need a token.
 *
 * The run fits a time budget: round after round, one case per operation and caller, until
 * FUZZ_BUDGET_MS is spent (the first round always runs whole). Each case is a pure function of
 * (seed, operation, caller, case number); the seed is printed with every failure.
 * Replay: `FUZZ_SEED=<seed>` sends the same requests again, `FUZZ_ONLY='<METHOD /path>'` (a part
 * of the operation) only those of one operation, `FUZZ_LOG_LEVEL=error` shows the server's log of
 * a 5xx.
 */
const SEED = process.env.FUZZ_SEED ?? randomBytes(6).toString('hex');
/** Wall time the requests may take (the app's start is extra); CI runs the default. */
const BUDGET_MS = Number(process.env.FUZZ_BUDGET_MS ?? 45_000);
/** At most this many cases per operation and caller, however fast the machine. */
const CASES_MAX = Number(process.env.FUZZ_CASES_MAX ?? 60);
/** Requests in flight at once: most of a request's time is spent waiting on PostgreSQL. */
const CONCURRENCY = Number(process.env.FUZZ_CONCURRENCY ?? 4);
const ONLY = process.env.FUZZ_ONLY;

const CALLERS = ['client', 'admin', 'anonymous'] as const;
type Caller = (typeof CALLERS)[number];

/** The error codes the catalogue names: an envelope's `code` is one of them. */
const ERROR_CODES = new Set(Object.keys(catalogues.en.errors.api as Record<string, string>));

/** A provider outage is a designed 503 ("fill in by hand"); the fuzz gets a lookup that answers. */
const answeringZipLookup: ZipLookup = {
  provider: 'fuzz',
  lookup: async () => ({ status: 'not_found' }),
};

let t: TestApp;
let document: OpenApiDocument;
let operations: Operation[];
const sessions: Partial<Record<Caller, Session>> = {};
let context: SampleContext;

beforeAll(async () => {
  t = await startTestApp(
    {
      LOG_LEVEL: process.env.FUZZ_LOG_LEVEL ?? 'silent',
      // Payment providers off: a provider that cannot be reached is a designed 502, not a finding.
      PAYPAL_CLIENT_ID: '',
      PAYPAL_CLIENT_SECRET: '',
      PAGBANK_TOKEN: '',
    },
    { zipLookup: answeringZipLookup },
  );
  document = t.app.swagger() as unknown as OpenApiDocument;
  operations = operationsOf(document);
  sessions.client = await login(t.app, 'doctor');
  sessions.admin = await login(t.app, 'admin');
  // The ids the seeded data uses, minus the fuzz's own accounts: an admin's hostile call on its
  // own account (delete it, set its password) would end the run, not find a bug.
  const own = new Set([sessions.client.profile.id, sessions.admin.profile.id]);
  context = {
    document,
    idPool: Array.from({ length: 40 }, (_, i) => i + 1).filter((id) => !own.has(id)),
    avoidIds: own,
  };
});
afterAll(async () => t?.close());

// ───────────────────────────── what an answer must be ─────────────────────────────

function envelopeProblem(response: LightMyRequestResponse): string | null {
  let body: unknown;
  try {
    body = JSON.parse(response.body);
  } catch {
    return `a ${response.statusCode} whose body is not JSON`;
  }
  if (!body || typeof body !== 'object' || Array.isArray(body)) return 'a refusal without envelope';
  const { error, code, fields, ...rest } = body as Record<string, unknown>;
  if (typeof error !== 'string' || error === '') return 'a refusal without its error message';
  if (typeof code !== 'string' || !ERROR_CODES.has(code)) return `an unknown code ${String(code)}`;
  if (Object.keys(rest).length > 0) return `a refusal with extra keys ${Object.keys(rest)}`;
  if (
    fields !== undefined &&
    (!fields ||
      typeof fields !== 'object' ||
      Object.values(fields).some((message) => typeof message !== 'string'))
  ) {
    return 'a refusal whose fields are not messages';
  }
  return null;
}

function problemOf(
  operation: Operation,
  caller: Caller,
  response: LightMyRequestResponse,
): string | null {
  const status = response.statusCode;
  if (status >= 500) return `answered ${status}`;
  if (status >= 400) return envelopeProblem(response);
  if (status < 300 && caller === 'anonymous' && operation.bearer) {
    return `answered ${status} without a token though it declares a bearer`;
  }
  // A JSON answer carries `{obj}`; a JSON file to download (the data export) is not an answer.
  const download = String(response.headers['content-disposition'] ?? '').startsWith('attachment');
  if (
    status < 300 &&
    !download &&
    String(response.headers['content-type']).startsWith('application/json')
  ) {
    const body = JSON.parse(response.body) as unknown;
    if (!body || typeof body !== 'object' || !('obj' in body)) return `a ${status} without {obj}`;
  }
  return null;
}

// ───────────────────────────── the run ─────────────────────────────

interface Failure {
  operation: string;
  caller: Caller;
  caseNumber: number;
  problem: string;
  request: FuzzRequest;
  status: number;
  body: string;
}

const clip = (text: string, max = 300) =>
  text.length > max ? `${text.slice(0, max)}… (${text.length} chars)` : text;

function report(failure: Failure): string {
  const { request } = failure;
  return [
    `${failure.operation} as ${failure.caller}, case ${failure.caseNumber}: ${failure.problem}`,
    `  sent: ${request.method} ${clip(request.url, 200)} (${request.intent})`,
    `  content-type: ${request.headers['content-type'] ?? '(none)'}; body: ${request.payload === undefined ? '(none)' : clip(String(request.payload))}`,
    `  answer: ${failure.status} ${clip(failure.body)}`,
    `  replay: FUZZ_SEED=${SEED} FUZZ_ONLY='${failure.operation}' npx vitest run --project server apps/server/test/fuzz-openapi.int.test.ts`,
  ].join('\n');
}

/** Runs `tasks` with at most CONCURRENCY in flight. */
async function inParallel(tasks: (() => Promise<void>)[]): Promise<void> {
  let next = 0;
  const worker = async () => {
    while (next < tasks.length) await tasks[next++]!();
  };
  await Promise.all(Array.from({ length: Math.min(CONCURRENCY, tasks.length) }, worker));
}

/**
 * After a 401 on a signed-in call: when a hostile call ended the caller's session, sign in again
 * and carry on; an account that can no longer sign in ends the run with the call that caused it.
 */
async function keepSession(caller: Exclude<Caller, 'anonymous'>, cause: string): Promise<void> {
  const probe = await t.app.inject({
    method: 'GET',
    url: '/api/v1/profile/get',
    headers: bearer(sessions[caller]!),
  });
  if (probe.statusCode === 200) return;
  try {
    sessions[caller] = await login(t.app, caller === 'client' ? 'doctor' : 'admin');
  } catch (error) {
    throw new Error(`the ${caller} account was lost after ${cause} (seed ${SEED}): ${error}`);
  }
}

describe('fuzz from the OpenAPI document', () => {
  it('publishes a bound for every number, text and list a request carries', () => {
    const unbounded: string[] = [];
    const walk = (raw: JsonSchema, where: string, depth = 0): void => {
      const schema = raw.$ref
        ? (document.components?.schemas?.[raw.$ref.replace('#/components/schemas/', '')] ?? {})
        : raw;
      if (depth > 20 || 'const' in schema || schema.enum) return;
      for (const choice of [
        ...(schema.anyOf ?? []),
        ...(schema.oneOf ?? []),
        ...(schema.allOf ?? []),
      ])
        walk(choice, where, depth + 1);
      const types = [schema.type].flat();
      if (types.includes('integer') || types.includes('number')) {
        const bounded =
          typeof schema.minimum === 'number' &&
          typeof schema.maximum === 'number' &&
          schema.minimum >= -INT32_MAX - 1 &&
          schema.maximum <= INT32_MAX;
        if (!bounded)
          unbounded.push(`${where}: a number between ${schema.minimum} and ${schema.maximum}`);
      }
      if (
        types.includes('string') &&
        schema.maxLength === undefined &&
        !schema.format &&
        !schema.pattern
      )
        unbounded.push(`${where}: a text without maxLength`);
      if (types.includes('array')) {
        if (schema.maxItems === undefined) unbounded.push(`${where}: a list without maxItems`);
        if (schema.items) walk(schema.items, `${where}[]`, depth + 1);
      }
      for (const [key, property] of Object.entries(schema.properties ?? {}))
        walk(property, `${where}.${key}`, depth + 1);
      if (typeof schema.additionalProperties === 'object')
        walk(schema.additionalProperties, `${where}.*`, depth + 1);
    };
    for (const operation of operations) {
      for (const parameter of operation.operation.parameters ?? [])
        walk(parameter.schema ?? {}, `${operation.key} ${parameter.in} ${parameter.name}`);
      for (const [type, content] of Object.entries(operation.operation.requestBody?.content ?? {}))
        walk(content.schema ?? {}, `${operation.key} body (${type})`);
    }
    expect(unbounded).toEqual([]);
  });

  it('marks every operation that needs a token with the bearer requirement', () => {
    const rules = new Map(
      t.app.routeRules.map((rule) => [
        `${rule.method} ${rule.url.replace(/:(\w+)/g, '{$1}')}`,
        rule.permission,
      ]),
    );
    const mismatched = operations
      .filter((operation) => rules.has(operation.key))
      .filter((operation) => operation.bearer !== (rules.get(operation.key) !== 'public'))
      .map((operation) => `${operation.key} (${rules.get(operation.key)})`);
    expect(operations.length).toBeGreaterThan(100);
    expect(mismatched).toEqual([]);
  });

  it(
    'calls every operation with hostile input: no 5xx, the envelopes, no 2xx without a token',
    async () => {
      const selected = operations.filter((operation) => !ONLY || operation.key.includes(ONLY));
      expect(selected.length, `no operation matches FUZZ_ONLY=${ONLY}`).toBeGreaterThan(0);
      const failures: Failure[] = [];
      const seen = new Set<string>();
      const deadline = Date.now() + BUDGET_MS;
      let sent = 0;
      /** Operations that took a request: the generator reaches past validation. */
      const accepted = new Set<string>();
      let rounds = 0;

      const runCase = async (operation: Operation, caller: Caller, caseNumber: number) => {
        const rng = rngFor(SEED, operation.key, caller, caseNumber);
        const request = buildRequest(operation, rng, context);
        const session = caller === 'anonymous' ? undefined : sessions[caller]!;
        if (session) Object.assign(request.headers, bearer(session));
        // Without a token of its own, a caller may still send a forged or malformed one.
        else if (rng.chance(0.3)) {
          request.headers.authorization = forgedAuthorization(rng, sessions.client!.accessToken);
          request.intent += `, authorization ${request.headers.authorization.slice(0, 60)}`;
        }
        if (rng.chance(0.1)) request.headers['accept-language'] = hostileLanguage(rng);
        const response = await t.app.inject({
          method: request.method as 'GET',
          url: request.url,
          headers: request.headers,
          ...(request.payload === undefined ? {} : { payload: request.payload }),
        });
        sent += 1;
        if (caller !== 'anonymous' && response.statusCode < 300) accepted.add(operation.key);
        if (caller !== 'anonymous' && response.statusCode === 401) {
          await keepSession(caller, `${operation.key} case ${caseNumber}: ${request.intent}`);
        }
        const problem = problemOf(operation, caller, response);
        // One report per operation, caller and kind of problem is enough to act on.
        const key = `${operation.key}|${caller}|${problem}`;
        if (problem && !seen.has(key)) {
          seen.add(key);
          failures.push({
            operation: operation.key,
            caller,
            caseNumber,
            problem,
            request,
            status: response.statusCode,
            body: response.body,
          });
        }
      };

      // Round by round, every operation once per caller, until the budget or CASES_MAX; the first
      // round always runs whole, so every operation is called however small the budget.
      for (let round = 0; round < CASES_MAX; round++) {
        if (round > 0 && Date.now() >= deadline) break;
        await inParallel(
          selected.flatMap((operation) =>
            CALLERS.map((caller) => () => runCase(operation, caller, round)),
          ),
        );
        rounds += 1;
      }

      const summary =
        `seed ${SEED}: ${sent} requests, ${rounds} cases per operation and caller, ` +
        `${selected.length} operations, ${accepted.size} of them answered 2xx to a signed-in caller`;
      console.info(`OpenAPI fuzz, ${summary}`);
      expect(failures.map(report), summary).toEqual([]);
      // Inputs that fit the schemas often enough to reach the services, not only the validation.
      if (!ONLY) expect(accepted.size, summary).toBeGreaterThan(selected.length / 3);
    },
    BUDGET_MS + 120_000,
  );
});
