/**
 * Hostile requests generated from the server's OpenAPI document, for the fuzz test
 * (`test/fuzz-openapi.int.test.ts`). Every case is a pure function of (seed, operation, role,
 * case number): a replay with the same seed sends the same bytes, whatever else runs.
 */

/** The subset of JSON Schema the document's request schemas use. */
export interface JsonSchema {
  $ref?: string;
  type?: string | string[];
  properties?: Record<string, JsonSchema>;
  required?: string[];
  additionalProperties?: boolean | JsonSchema;
  items?: JsonSchema;
  enum?: unknown[];
  const?: unknown;
  anyOf?: JsonSchema[];
  oneOf?: JsonSchema[];
  allOf?: JsonSchema[];
  nullable?: boolean;
  minimum?: number;
  maximum?: number;
  exclusiveMinimum?: boolean | number;
  exclusiveMaximum?: boolean | number;
  minLength?: number;
  maxLength?: number;
  minItems?: number;
  maxItems?: number;
  pattern?: string;
  format?: string;
  default?: unknown;
}

export interface OpenApiParameter {
  in: 'path' | 'query' | 'header' | 'cookie';
  name: string;
  required?: boolean;
  schema?: JsonSchema;
}

export interface OpenApiOperation {
  parameters?: OpenApiParameter[];
  requestBody?: { content: Record<string, { schema?: JsonSchema }> };
  security?: Record<string, string[]>[];
}

export interface OpenApiDocument {
  paths: Record<string, Record<string, OpenApiOperation>>;
  components?: { schemas?: Record<string, JsonSchema> };
}

export interface Operation {
  /** `METHOD /path/{param}` as the document writes it. */
  key: string;
  method: string;
  path: string;
  operation: OpenApiOperation;
  /** The operation declares a bearer token requirement. */
  bearer: boolean;
}

const METHODS = ['get', 'post', 'put', 'patch', 'delete'] as const;

/** Every operation the document publishes, in a stable order. */
export function operationsOf(document: OpenApiDocument): Operation[] {
  return Object.entries(document.paths)
    .flatMap(([path, item]) =>
      METHODS.filter((method) => item[method]).map((method) => {
        const operation = item[method]!;
        return {
          key: `${method.toUpperCase()} ${path}`,
          method: method.toUpperCase(),
          path,
          operation,
          bearer: (operation.security ?? []).some((requirement) => 'bearer' in requirement),
        };
      }),
    )
    .sort((a, b) => a.key.localeCompare(b.key));
}

// ───────────────────────────── seeded randomness ─────────────────────────────

export interface Rng {
  /** A float in [0, 1). */
  next(): number;
  /** An integer in [min, max]. */
  int(min: number, max: number): number;
  pick<T>(items: readonly T[]): T;
  chance(probability: number): boolean;
}

/** A 32-bit hash of the parts (cyrb53's low half), the seed of one case's generator. */
function hashOf(text: string): number {
  let h1 = 0xdeadbeef;
  let h2 = 0x41c6ce57;
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i);
    h1 = Math.imul(h1 ^ code, 2654435761);
    h2 = Math.imul(h2 ^ code, 1597334677);
  }
  h1 = Math.imul(h1 ^ (h1 >>> 16), 2246822507) ^ Math.imul(h2 ^ (h2 >>> 13), 3266489909);
  return h1 >>> 0;
}

/** mulberry32 seeded with the hash of `parts`. */
export function rngFor(...parts: (string | number)[]): Rng {
  let state = hashOf(parts.join('|'));
  const next = () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  const int = (min: number, max: number) => min + Math.floor(next() * (max - min + 1));
  return {
    next,
    int,
    pick: <T>(items: readonly T[]) => items[int(0, items.length - 1)]!,
    chance: (probability) => next() < probability,
  };
}

// ───────────────────────────── hostile values ─────────────────────────────

const INT32_MAX = 2_147_483_647;

/** Nested `depth` times: `[[[…]]]` or `{"a":{"a":…}}`, as JSON text. */
const deeplyNested = (depth: number, kind: 'array' | 'object') =>
  kind === 'array'
    ? '['.repeat(depth) + ']'.repeat(depth)
    : '{"a":'.repeat(depth) + '1' + '}'.repeat(depth);

/** Values of the wrong type, size, range or text for any field. */
export function hostileValue(rng: Rng): unknown {
  return rng.pick<() => unknown>([
    () => INT32_MAX + 1,
    () => INT32_MAX,
    () => -INT32_MAX - 2,
    () => -1,
    () => 0,
    () => 1.5,
    () => -0.000001,
    () => 1e308,
    () => Number.MAX_SAFE_INTEGER + 2,
    () => '',
    () => ' ',
    () => '\u0000',
    () => `a\u0000b`,
    () => '😀'.repeat(rng.int(1, 400)),
    () => '\u202eevil\u202c \u05e9\u05dc\u05d5\u05dd',
    () => 'e\u0301'.repeat(200),
    () => '\ud800x',
    () => "' OR 1=1; DROP TABLE users; --",
    () => '../../../../etc/passwd',
    () => '<script>alert(1)</script>',
    () => '%00%ff%',
    () => 'x'.repeat(rng.pick([256, 5_001, 70_000])),
    () => String(INT32_MAX + 1),
    () => rng.pick(['NaN', 'Infinity', '-1', '1e3', '0x10', ' 7 ', '1.0', '00001']),
    () => '2024-02-30',
    () => '9999-12-31T23:59:59.999Z',
    () => null,
    () => rng.chance(0.5),
    () => [],
    () => {
      return {};
    },
    () => [null, 1, 'a', {}],
    () => Array.from({ length: rng.pick([101, 5_000]) }, (_, i) => i + 1),
    () => ({ __proto__x: 1, constructor: { prototype: { polluted: true } } }),
  ])();
}

/** Path segments as an attacker writes them (already in URL form). */
export function hostilePathSegment(rng: Rng): string {
  return rng.pick<() => string>([
    () => String(INT32_MAX + 1),
    () => '99999999999999999999999',
    () => '-1',
    () => '0',
    () => '1.5',
    () => '1e3',
    () => 'NaN',
    () => '%00',
    () => '%E0%A4%A',
    () => '%',
    () => '..',
    () => '%2E%2E%2Fetc%2Fpasswd',
    () => encodeURIComponent('😀\u202e'),
    () => encodeURIComponent("' OR 1=1 --"),
    () => 'x'.repeat(rng.pick([99, 101, 2_000])),
    () => '%20',
    () => 'null',
    () => 'undefined',
    () => '__proto__',
  ])();
}

// ───────────────────────────── values that fit a schema ─────────────────────────────

export interface SampleContext {
  document: OpenApiDocument;
  /** Ids of real records worth hitting (a small range of the seeded data). */
  idPool: readonly number[];
  /** Ids a value that fits a schema never takes (the fuzz's own accounts). */
  avoidIds: ReadonlySet<number>;
}

function resolve(schema: JsonSchema, context: SampleContext): JsonSchema {
  if (!schema.$ref) return schema;
  const name = schema.$ref.replace('#/components/schemas/', '');
  return context.document.components?.schemas?.[name] ?? {};
}

function typeOf(schema: JsonSchema, rng: Rng): string | undefined {
  if (Array.isArray(schema.type)) return rng.pick(schema.type);
  return schema.type;
}

/** The bounds an integer takes, with OpenAPI 3.0's boolean exclusive flags. */
function integerRange(schema: JsonSchema): [number, number] {
  let min = schema.minimum ?? -INT32_MAX;
  let max = schema.maximum ?? INT32_MAX;
  if (schema.exclusiveMinimum === true) min += 1;
  if (typeof schema.exclusiveMinimum === 'number') min = schema.exclusiveMinimum + 1;
  if (schema.exclusiveMaximum === true) max -= 1;
  if (typeof schema.exclusiveMaximum === 'number') max = schema.exclusiveMaximum - 1;
  return [min, max];
}

const ALPHABET = 'abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-_';

function sampleString(schema: JsonSchema, rng: Rng, name: string): string {
  const iso = new Date(Date.UTC(2020 + rng.int(0, 8), rng.int(0, 11), rng.int(1, 28)));
  if (schema.format === 'date') return iso.toISOString().slice(0, 10);
  if (schema.format === 'date-time') return iso.toISOString();
  if (schema.format === 'email' || /email/i.test(name)) {
    return `fuzz${rng.int(0, 1e6)}@example.test`;
  }
  if (schema.format === 'uuid') return '00000000-0000-4000-8000-000000000000';
  const digits = schema.pattern?.match(/^\^\\d\{(\d+)\}\$$/);
  if (digits) return Array.from({ length: Number(digits[1]) }, () => rng.int(0, 9)).join('');
  if (schema.pattern === '^\\d{5}-?\\d{3}$') return `0${rng.int(1000, 9999)}-${rng.int(100, 999)}`;
  const min = schema.minLength ?? 0;
  const max = Math.min(schema.maxLength ?? 24, Math.max(min, 24));
  const length = rng.chance(0.15) ? (schema.maxLength ?? max) : rng.int(min, max);
  if (/password/i.test(name)) return `Aa1${'x'.repeat(Math.max(5, length - 3))}`.slice(0, 200);
  return Array.from({ length }, () => rng.pick([...ALPHABET])).join('');
}

/** A value that fits `schema` (as far as its keywords tell), leaning to edges and real ids. */
export function sampleValue(
  schema: JsonSchema,
  rng: Rng,
  context: SampleContext,
  name = '',
  depth = 0,
): unknown {
  const s = resolve(schema, context);
  if ('const' in s) return s.const;
  if (s.enum) return rng.pick(s.enum);
  const choices = s.anyOf ?? s.oneOf;
  if (choices?.length) return sampleValue(rng.pick(choices), rng, context, name, depth);
  if (s.allOf?.length) return sampleValue(s.allOf[0]!, rng, context, name, depth);
  if (s.nullable && rng.chance(0.1)) return null;
  switch (typeOf(s, rng)) {
    case 'integer': {
      const [min, max] = integerRange(s);
      const ids = context.idPool.filter((id) => id >= min && id <= max);
      const candidates = [min, max, rng.int(min, Math.min(max, min + 40))].filter(
        (value) => !context.avoidIds.has(value),
      );
      if (ids.length > 0 && (/id$/i.test(name) || min >= 1 || candidates.length === 0)) {
        return rng.chance(0.7) || candidates.length === 0 ? rng.pick(ids) : rng.pick(candidates);
      }
      return rng.pick(candidates.length > 0 ? candidates : [max]);
    }
    case 'number': {
      const [min, max] = integerRange(s);
      return rng.pick([min, max, min + (Math.min(max, min + 100) - min) * rng.next()]);
    }
    case 'string':
      return sampleString(s, rng, name);
    case 'boolean':
      return rng.chance(0.5);
    case 'null':
      return null;
    case 'array': {
      if (depth > 6 || !s.items) return [];
      const min = s.minItems ?? 0;
      const length = rng.int(min, Math.max(min, Math.min(s.maxItems ?? 3, 3)));
      return Array.from({ length }, () => sampleValue(s.items!, rng, context, name, depth + 1));
    }
    case 'object': {
      if (depth > 6) return {};
      const required = new Set(s.required ?? []);
      const value: Record<string, unknown> = {};
      for (const [key, property] of Object.entries(s.properties ?? {})) {
        if (required.has(key) || rng.chance(0.6)) {
          value[key] = sampleValue(property, rng, context, key, depth + 1);
        }
      }
      if (typeof s.additionalProperties === 'object' && rng.chance(0.3)) {
        value[`k${rng.int(0, 99)}`] = sampleValue(
          s.additionalProperties,
          rng,
          context,
          '',
          depth + 1,
        );
      }
      return value;
    }
    default:
      return rng.pick([{}, 'x', 1, null, []]);
  }
}

// ───────────────────────────── one request ─────────────────────────────

export interface FuzzRequest {
  method: string;
  url: string;
  headers: Record<string, string>;
  payload?: string;
  /** What the case set out to send, for the failure report. */
  intent: string;
}

/** The paths of every value inside `value` (its leaves and containers), `[]` being the root. */
function pathsOf(value: unknown, path: (string | number)[] = []): (string | number)[][] {
  const here = [path];
  if (Array.isArray(value)) {
    return here.concat(...value.map((item, index) => pathsOf(item, [...path, index])));
  }
  if (value && typeof value === 'object') {
    return here.concat(
      ...Object.entries(value).map(([key, item]) => pathsOf(item, [...path, key])),
    );
  }
  return here;
}

/** `value` with the value at `path` replaced by `replacement` (or removed when it is undefined). */
function replaceAt(value: unknown, path: (string | number)[], replacement: unknown): unknown {
  if (path.length === 0) return replacement;
  const [head, ...rest] = path;
  if (Array.isArray(value)) {
    const copy = [...value];
    copy[head as number] = replaceAt(copy[head as number], rest, replacement);
    return copy;
  }
  const copy = { ...(value as Record<string, unknown>) };
  if (rest.length === 0 && replacement === undefined) delete copy[head as string];
  else copy[head as string] = replaceAt(copy[head as string], rest, replacement);
  return copy;
}

const WRONG_CONTENT_TYPES = [
  'text/plain',
  'application/xml',
  'application/x-www-form-urlencoded',
  'multipart/form-data; boundary=----fuzz',
  'application/json; charset=utf-16',
  'application/octet-stream',
  'image/png',
];

/** A body that is not what any route expects, as raw text with its content type. */
function hostileBody(rng: Rng): { payload?: string; contentType?: string; intent: string } {
  return rng.pick<() => { payload?: string; contentType?: string; intent: string }>([
    () => ({ intent: 'no body' }),
    () => ({ contentType: 'application/json', intent: 'JSON content type, no body' }),
    () => ({ payload: '{"broken": ', contentType: 'application/json', intent: 'broken JSON' }),
    () => ({
      payload: '{"a":1}garbage',
      contentType: 'application/json',
      intent: 'trailing garbage',
    }),
    () => ({ payload: 'null', contentType: 'application/json', intent: 'JSON null' }),
    () => ({ payload: '"text"', contentType: 'application/json', intent: 'JSON string' }),
    () => ({ payload: '[1,2,3]', contentType: 'application/json', intent: 'JSON array' }),
    () => ({
      payload: '12345678901234567890',
      contentType: 'application/json',
      intent: 'JSON number',
    }),
    () => ({
      payload: '{"__proto__":{"polluted":true}}',
      contentType: 'application/json',
      intent: 'prototype pollution',
    }),
    () => ({
      payload: '{"constructor":{"prototype":{"polluted":true}}}',
      contentType: 'application/json',
      intent: 'constructor pollution',
    }),
    () => ({
      payload: deeplyNested(rng.pick([500, 20_000, 100_000]), rng.pick(['array', 'object'])),
      contentType: 'application/json',
      intent: 'deeply nested JSON',
    }),
    () => ({
      payload: JSON.stringify({ a: 'x'.repeat(1_100_000) }),
      contentType: 'application/json',
      intent: 'body past the size limit',
    }),
    () => ({
      payload: '{"a":"\\u0000"}',
      contentType: 'application/json',
      intent: 'escaped NUL',
    }),
    () => ({
      payload: Buffer.from([0xff, 0xfe, 0x00, 0x7b]).toString('latin1'),
      contentType: 'application/json',
      intent: 'bytes that are not UTF-8',
    }),
    () => ({
      payload: rng.pick(['a=b&c=d', '<xml/>', '------fuzz\r\n\r\n', 'plain text']),
      contentType: rng.pick(WRONG_CONTENT_TYPES),
      intent: 'wrong content type',
    }),
    () => ({ payload: JSON.stringify(hostileValue(rng)), intent: 'JSON without content type' }),
  ])();
}

/**
 * `encodeURIComponent`, except that a lone surrogate (which it refuses) goes out as the bytes
 * `%ED%A0%80`: not UTF-8, which is exactly what the server must survive.
 */
function encodeLoosely(text: string): string {
  return text.replace(/[\ud800-\udfff]+|[^\ud800-\udfff]+/g, (part) => {
    try {
      return encodeURIComponent(part);
    } catch {
      return '%ED%A0%80'.repeat(part.length);
    }
  });
}

function queryString(entries: [string, string][]): string {
  if (entries.length === 0) return '';
  return `?${entries.map(([key, value]) => `${encodeLoosely(key)}=${encodeLoosely(value)}`).join('&')}`;
}

const asText = (value: unknown) =>
  typeof value === 'string' ? value : value === undefined ? '' : JSON.stringify(value);

/**
 * One hostile request for `operation`: real-looking values with one field turned hostile, a
 * hostile path, hostile query strings, or a body that is not JSON of the right shape.
 */
export function buildRequest(operation: Operation, rng: Rng, context: SampleContext): FuzzRequest {
  const parameters = operation.operation.parameters ?? [];
  const pathParameters = parameters.filter((p) => p.in === 'path');
  const queryParameters = parameters.filter((p) => p.in === 'query');
  const jsonBody = operation.operation.requestBody?.content['application/json']?.schema;
  const kinds = ['field', 'field', 'field', 'path', 'query', 'body', 'valid'] as const;
  const kind = rng.pick(kinds);
  const intent: string[] = [kind];

  // Path: values that fit, one of them hostile for a 'path' case.
  const hostilePath = kind === 'path' ? rng.pick(pathParameters.map((p) => p.name)) : undefined;
  const url = operation.path.replace(/\{(\w+)\}/g, (_match, name: string) => {
    if (name === hostilePath) {
      const segment = hostilePathSegment(rng);
      intent.push(`path ${name}=${segment.slice(0, 40)}`);
      return segment;
    }
    const parameter = pathParameters.find((p) => p.name === name);
    return encodeLoosely(asText(sampleValue(parameter?.schema ?? {}, rng, context, name)));
  });

  // Query: the declared parameters that fit, and for a 'query' case hostile ones.
  const query: [string, string][] = [];
  for (const parameter of queryParameters) {
    if (parameter.required || rng.chance(0.5)) {
      const value = sampleValue(parameter.schema ?? {}, rng, context, parameter.name);
      query.push([parameter.name, asText(value)]);
    }
  }
  if (kind === 'query') {
    const names = [...queryParameters.map((p) => p.name), 'x', '__proto__[polluted]', 'a[b][c]'];
    const name = rng.pick(names);
    const value = asText(hostileValue(rng));
    query.push([name, value]);
    if (rng.chance(0.3)) query.push([name, value]);
    intent.push(`query ${name}=${value.slice(0, 40)}`);
  }

  const headers: Record<string, string> = {};
  let payload: string | undefined;
  if (kind === 'body' || (!jsonBody && rng.chance(0.2))) {
    const body = hostileBody(rng);
    if (body.contentType) headers['content-type'] = body.contentType;
    payload = body.payload;
    intent.push(body.intent);
  } else if (jsonBody) {
    let body = sampleValue(jsonBody, rng, context, 'body');
    if (kind === 'field') {
      const paths = pathsOf(body);
      const target = rng.pick(paths);
      const action = rng.pick(['hostile', 'hostile', 'hostile', 'remove', 'extra'] as const);
      if (action === 'extra' && body && typeof body === 'object' && !Array.isArray(body)) {
        body = { ...body, [`unknown${rng.int(0, 9)}`]: hostileValue(rng) };
      } else {
        body = replaceAt(body, target, action === 'remove' ? undefined : hostileValue(rng));
      }
      intent.push(`${action} at ${target.join('.') || '(body)'}`);
    }
    headers['content-type'] = 'application/json';
    payload = JSON.stringify(body) ?? 'null';
  }
  return {
    method: operation.method,
    url: url + queryString(query),
    headers,
    ...(payload === undefined ? {} : { payload }),
    intent: intent.join(', '),
  };
}

// ───────────────────────────── headers ─────────────────────────────

const base64url = (text: string) => Buffer.from(text).toString('base64url');

/**
 * An Authorization header that must not sign anyone in: malformed, another scheme, or a real
 * access token (`realToken`) tampered with — another subject, `alg: none`, a changed signature.
 */
export function forgedAuthorization(rng: Rng, realToken: string): string {
  const [header = '', payload = '', signature = ''] = realToken.split('.');
  const claims = JSON.parse(Buffer.from(payload, 'base64url').toString()) as Record<
    string,
    unknown
  >;
  return rng.pick<() => string>([
    () => 'Bearer',
    () => 'Bearer ',
    () => 'Bearer x',
    () => `Bearer ${'a'.repeat(8_000)}`,
    () => 'Basic YWRtaW46RGVudGZsb3cxMjM=',
    () => `Token ${realToken}`,
    () => `Bearer ${header}.${base64url(JSON.stringify({ ...claims, sub: '1' }))}.${signature}`,
    () => `Bearer ${base64url('{"alg":"none","typ":"JWT"}')}.${base64url(JSON.stringify(claims))}.`,
    () =>
      `Bearer ${header}.${payload}.${signature.slice(0, -2)}${signature.endsWith('AA') ? 'BB' : 'AA'}`,
    () => `Bearer ${header}.${payload}`,
  ])();
}

/** Accept-Language values no browser sends. */
export function hostileLanguage(rng: Rng): string {
  return rng.pick([
    '',
    '*',
    'xx-YY',
    'pt-BR;q=abc, en;q=-1',
    ';;;,,,',
    'pt'.repeat(2_000),
    Array.from({ length: 200 }, (_, i) => `l${i};q=0.${i % 10}`).join(','),
  ]);
}
