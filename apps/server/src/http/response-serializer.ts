import type { FastifySerializerCompiler } from 'fastify';
import { ResponseSerializationError } from 'fastify-type-provider-zod';
import { $ZodType, safeEncode } from 'zod/v4/core';

/**
 * The response serializer: each route's zod response schema is compiled once into a function that
 * writes the JSON directly, instead of `safeEncode` building a copy of the answer that
 * `JSON.stringify` then walks (fastify-type-provider-zod's serializer, decision 030).
 *
 * The compiled writer handles the plain shapes (objects without catchall or refinements, arrays,
 * strings with trim, case and length checks, numbers with integer and range checks, booleans,
 * null, enums, literals, nullable, optional, unknown, records keyed by an enum). Any other
 * schema node (a string format, another record, a union, a default…) is written by zod itself:
 * `safeEncode` of that node, then `JSON.stringify`. Like zod, an object writes only its declared
 * keys, in zod's order, so a private column never reaches an answer. Whenever the writer meets a
 * value it does not accept (a wrong type, an absent key), it gives up and the whole answer goes
 * through zod: the result, or the error, is zod's.
 */

type Writer = (value: unknown) => string | undefined;

/** Thrown inside a writer: this value is left to zod. */
const BAIL = Symbol('bail');
const bail = (): never => {
  throw BAIL;
};

interface ZodInternals {
  def: {
    type: string;
    checks?: {
      _zod: { def: { check: string; format?: string; value?: unknown; inclusive?: boolean } };
    }[];
    coerce?: boolean;
    shape?: Record<string, $ZodType>;
    catchall?: unknown;
    element?: $ZodType;
    innerType?: $ZodType;
    keyType?: $ZodType;
    valueType?: $ZodType;
    mode?: string;
    partial?: boolean;
    entries?: Record<string, unknown>;
    values?: unknown[];
  };
  traits: Set<string>;
  optin?: string;
  optout?: string;
  values?: Set<unknown>;
}

const internals = (schema: $ZodType) => (schema as unknown as { _zod: ZodInternals })._zod;
const noChecks = (z: ZodInternals) => (z.def.checks ?? []).length === 0;
const isObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/**
 * Writers that answer a string for every value they accept and give up on any other, undefined
 * included (so they never skip a field).
 */
const alwaysWrites = new WeakSet<Writer>();
const always = (writer: Writer): Writer => {
  alwaysWrites.add(writer);
  return writer;
};

/** Where the schema being compiled is, and which of its nodes zod writes (`compileResponseWriter`). */
const path: string[] = [];
let leftToZod: string[] = [];

/** The node written by zod: its own encode, then `JSON.stringify` (what the whole answer gets). */
function byZod(schema: $ZodType): Writer {
  leftToZod.push(`${path.join('') || '(root)'}: ${internals(schema).def.type}`);
  return (value) => {
    const result = safeEncode(schema, value);
    if (!result.success) bail();
    return JSON.stringify(result.data);
  };
}

/** `x.toJSON(key)` would see another key than in the whole answer: left to zod, to stay exact. */
function unknownValue(value: unknown): string | undefined {
  if (
    typeof value === 'object' &&
    value !== null &&
    !(value instanceof Date) &&
    typeof (value as { toJSON?: unknown }).toJSON === 'function'
  ) {
    bail();
  }
  return JSON.stringify(value);
}

/** The number checks the writer knows; any other makes the number zod's. */
function numberTest(z: ZodInternals, int: boolean): ((n: number) => boolean) | undefined {
  const tests: ((n: number) => boolean)[] = int ? [Number.isSafeInteger] : [];
  for (const check of z.def.checks ?? []) {
    const def = check._zod.def;
    if (def.check === 'number_format' && def.format === 'safeint') tests.push(Number.isSafeInteger);
    else if (def.check === 'greater_than' && typeof def.value === 'number') {
      const min = def.value;
      tests.push(def.inclusive ? (n) => n >= min : (n) => n > min);
    } else if (def.check === 'less_than' && typeof def.value === 'number') {
      const max = def.value;
      tests.push(def.inclusive ? (n) => n <= max : (n) => n < max);
    } else return undefined;
  }
  return (n) => Number.isFinite(n) && tests.every((test) => test(n));
}

/** The string checks run as zod runs them (trim, lengths), in order; any other makes the string zod's. */
const STRING_CHECKS = new Set(['overwrite', 'min_length', 'max_length', 'length_equals']);

interface RunnableCheck {
  _zod: {
    def: { check: string; when?: (payload: { value: unknown }) => boolean };
    check(payload: { value: unknown; issues: unknown[] }): unknown;
  };
}

function stringChecks(z: ZodInternals): ((s: string) => string) | undefined {
  const checks = (z.def.checks ?? []) as unknown as RunnableCheck[];
  if (checks.length === 0) return (s) => s;
  if (!checks.every((check) => STRING_CHECKS.has(check._zod.def.check))) return undefined;
  return (s) => {
    const payload = { value: s as unknown, issues: [] as unknown[] };
    for (const check of checks) {
      const when = check._zod.def.when;
      if (when && !when(payload)) continue;
      if (check._zod.check(payload) instanceof Promise) bail();
      if (payload.issues.length > 0) bail();
    }
    return typeof payload.value === 'string' ? payload.value : bail();
  };
}

/**
 * Exactly this zod class: a subclass (a string format, an exact optional…) parses otherwise, so it
 * stays zod's.
 */
const TRAITS: Record<string, string[]> = {
  string: ['ZodString', '$ZodString', '_ZodString'],
  number: ['ZodNumber', '$ZodNumber'],
  int: [
    'ZodNumberFormat',
    '$ZodNumberFormat',
    '$ZodCheckNumberFormat',
    '$ZodCheck',
    'ZodNumber',
    '$ZodNumber',
  ],
  boolean: ['ZodBoolean', '$ZodBoolean'],
  null: ['ZodNull', '$ZodNull'],
  enum: ['ZodEnum', '$ZodEnum'],
  literal: ['ZodLiteral', '$ZodLiteral'],
  unknown: ['ZodUnknown', '$ZodUnknown'],
  any: ['ZodAny', '$ZodAny'],
  nullable: ['ZodNullable', '$ZodNullable'],
  optional: ['ZodOptional', '$ZodOptional'],
  array: ['ZodArray', '$ZodArray'],
  object: ['ZodObject', '$ZodObjectJIT', '$ZodObject'],
  record: ['ZodRecord', '$ZodRecord'],
};
const exactly = (z: ZodInternals, kind: string) => {
  const names = [...TRAITS[kind]!, '$ZodType', 'ZodType'];
  return !z.def.coerce && z.traits.size === names.length && names.every((n) => z.traits.has(n));
};

/** What `JSON.stringify` escapes in a string: quotes, backslashes, controls, lone surrogates. */
// eslint-disable-next-line no-control-regex -- control characters are what JSON escapes
const NEEDS_ESCAPE = /["\\\u0000-\u001f\ud800-\udfff]/;
/** A string as JSON. Most answer strings have nothing to escape; quoting them costs half the call. */
const stringJson = (value: string) =>
  NEEDS_ESCAPE.test(value) ? JSON.stringify(value) : `"${value}"`;

/** The objects being compiled: a recursive schema (a getter in a shape) stays zod's below itself. */
const compiling = new Set<$ZodType>();

function compileNode(schema: $ZodType): Writer {
  const z = internals(schema);
  if (compiling.has(schema)) return byZod(schema);
  switch (z.def.type) {
    case 'string': {
      const checked = exactly(z, 'string') ? stringChecks(z) : undefined;
      if (!checked) return byZod(schema);
      return always((value) => (typeof value === 'string' ? stringJson(checked(value)) : bail()));
    }
    case 'number': {
      // z.int(): the schema is its own safe-integer check
      const int = exactly(z, 'int') && (z.def as { format?: string }).format === 'safeint';
      const test = exactly(z, 'number') || int ? numberTest(z, int) : undefined;
      if (!test) return byZod(schema);
      // A finite number's JSON is its string form, without a JSON.stringify call.
      return always((value) => (typeof value === 'number' && test(value) ? String(value) : bail()));
    }
    case 'boolean':
      if (!exactly(z, 'boolean') || !noChecks(z)) return byZod(schema);
      return always((value) => (value === true ? 'true' : value === false ? 'false' : bail()));
    case 'null':
      if (!exactly(z, 'null') || !noChecks(z)) return byZod(schema);
      return always((value) => (value === null ? 'null' : bail()));
    case 'enum':
    case 'literal': {
      const values = z.values;
      if (
        !exactly(z, z.def.type) ||
        !values ||
        !noChecks(z) ||
        [...values].some(
          (v) => typeof v !== 'string' && typeof v !== 'number' && typeof v !== 'boolean',
        )
      ) {
        return byZod(schema);
      }
      const texts = new Map([...values].map((value) => [value, JSON.stringify(value)]));
      return always((value) => texts.get(value) ?? bail());
    }
    case 'unknown':
    case 'any':
      if (!exactly(z, z.def.type) || !noChecks(z)) return byZod(schema);
      return unknownValue;
    case 'nullable': {
      if (!exactly(z, 'nullable') || !noChecks(z)) return byZod(schema);
      const inner = compileNode(z.def.innerType!);
      const writer: Writer = (value) => (value === null ? 'null' : inner(value));
      return alwaysWrites.has(inner) ? always(writer) : writer;
    }
    case 'optional': {
      if (!exactly(z, 'optional') || !noChecks(z)) return byZod(schema);
      if (internals(z.def.innerType!).optin === 'defaulted') return byZod(schema);
      const inner = compileNode(z.def.innerType!);
      return (value) => (value === undefined ? undefined : inner(value));
    }
    case 'array': {
      if (!exactly(z, 'array') || !noChecks(z)) return byZod(schema);
      path.push('[]');
      const element = compileNode(z.def.element!);
      path.pop();
      return always((value) => {
        if (!Array.isArray(value)) bail();
        const items = value as unknown[];
        if (items.length === 0) return '[]';
        // JSON.stringify writes an array's undefined (an omitted optional) as null
        let out = '[' + (element(items[0]) ?? 'null');
        for (let i = 1; i < items.length; i++) out += ',' + (element(items[i]) ?? 'null');
        return out + ']';
      });
    }
    case 'object':
      compiling.add(schema);
      try {
        return compileObject(schema, z);
      } finally {
        compiling.delete(schema);
      }
    case 'record':
      return compileEnumRecord(schema, z);
    default:
      return byZod(schema);
  }
}

/**
 * A record keyed by an enum of plain strings, as zod parses it: every key of the enum, in the
 * enum's order, through the value's schema; any other key in the input is an error. Other
 * records (string keys, partial or loose ones, integer-like keys that JSON would reorder) stay
 * zod's.
 */
function compileEnumRecord(schema: $ZodType, z: ZodInternals): Writer {
  const keyType = internals(z.def.keyType!);
  const keys = [...(keyType.values ?? [])];
  if (
    !exactly(z, 'record') ||
    !noChecks(z) ||
    z.def.partial ||
    z.def.mode === 'loose' ||
    !exactly(keyType, 'enum') ||
    !noChecks(keyType) ||
    keys.length === 0 ||
    keys.some((key) => typeof key !== 'string' || /^\d+$/.test(key) || key === '__proto__')
  ) {
    return byZod(schema);
  }
  path.push('{}');
  const write = compileNode(z.def.valueType!);
  path.pop();
  if (!alwaysWrites.has(write)) return byZod(schema);
  const names = keys as string[];
  const known = new Set(names);
  const prefixes = names.map((key, i) => (i === 0 ? '{' : ',') + JSON.stringify(key) + ':');
  return always((value) => {
    // Stricter than zod's plain-object test: anything else is left to zod.
    if (!isObject(value)) bail();
    const prototype: unknown = Object.getPrototypeOf(value);
    if (prototype !== Object.prototype && prototype !== null) bail();
    const input = value as Record<string, unknown>;
    for (const key in input) if (!known.has(key)) bail();
    let out = '';
    for (let i = 0; i < names.length; i++) out += prefixes[i]! + write(input[names[i]!]);
    return out + '}';
  });
}

function compileObject(schema: $ZodType, z: ZodInternals): Writer {
  const shape = z.def.shape!;
  if (!exactly(z, 'object') || !noChecks(z) || z.def.catchall) {
    return byZod(schema);
  }
  const keys = Object.keys(shape);
  if (Object.getOwnPropertySymbols(shape).length > 0 || keys.includes('__proto__')) {
    return byZod(schema);
  }
  // The answer's key order: zod assigns the keys in shape order, and JavaScript then lists
  // integer-like keys first, which is what JSON.stringify writes.
  const ordered: Record<string, true> = {};
  for (const key of keys) ordered[key] = true;
  const fields = Object.keys(ordered).map((key) => {
    const field = internals(shape[key]!);
    path.push(`.${key}`);
    const write = compileNode(shape[key]!);
    path.pop();
    return {
      key,
      prefix: JSON.stringify(key) + ':',
      // An absent key is fine only for a field that may be absent on both sides (zod's rule).
      mayBeAbsent: field.optin === 'optional' && field.optout === 'optional',
      write,
    };
  });
  return writeObjectSource(fields);
}

/**
 * The object's writer as generated code: one statement per field, each reading its key by name
 * (a fixed property read, where a loop over the fields reads every key through one generic
 * lookup) and calling that field's writer. The source holds only the keys, quoted by
 * `JSON.stringify`, and the writers come in as arguments.
 */
function writeObjectSource(
  fields: { key: string; prefix: string; mayBeAbsent: boolean; write: Writer }[],
): Writer {
  // Whether `out` is certainly empty, certainly not, or either, at this point of the code.
  let written = 'none' as 'none' | 'some' | 'unknown';
  const statements = fields.map(({ key, prefix, mayBeAbsent, write }, i) => {
    const read = `input[${JSON.stringify(key)}]`;
    if (!mayBeAbsent && alwaysWrites.has(write)) {
      // Such a writer gives up on undefined: an absent key fails as the `in` test would.
      const before = written;
      written = 'some';
      const value = `w${i}(${read})`;
      if (before === 'none') return `out = ${JSON.stringify('{' + prefix)} + ${value};`;
      if (before === 'some') return `out += ${JSON.stringify(',' + prefix)} + ${value};`;
      return `out += (out === '' ? '{' : ',') + ${JSON.stringify(prefix)} + ${value};`;
    }
    if (written === 'none') written = 'unknown';
    const emit = `w = w${i}(${read}); if (w !== undefined) out += (out === '' ? '{' : ',') + ${JSON.stringify(prefix)} + w;`;
    return `if (${JSON.stringify(key)} in input) { ${emit} }${mayBeAbsent ? '' : ' else bail();'}`;
  });
  const end = written === 'some' ? `return out + '}';` : `return out === '' ? '{}' : out + '}';`;
  const source = `return function writeObject(input) {
    if (typeof input !== 'object' || input === null || Array.isArray(input)) bail();
    let out = '';
    let w;
    ${statements.join('\n    ')}
    ${end}
  };`;
  const writer = new Function('bail', ...fields.map((_, i) => `w${i}`), source)(
    bail,
    ...fields.map((field) => field.write),
  ) as Writer;
  return always(writer);
}

/** The route's schema, as fastify-type-provider-zod accepts it (a schema, or `{properties}`). */
function resolveSchema(maybeSchema: unknown): $ZodType {
  if (maybeSchema instanceof $ZodType) return maybeSchema;
  const properties = (maybeSchema as { properties?: unknown } | null)?.properties;
  if (properties instanceof $ZodType) return properties;
  throw new Error(`not a zod response schema: ${JSON.stringify(maybeSchema)}`);
}

/** What fastify-type-provider-zod's serializer answers: zod's encoded copy, stringified. */
function zodSerialize(schema: $ZodType, method: string, url: string, data: unknown): string {
  const result = safeEncode(schema, data);
  if (!result.success) throw new ResponseSerializationError(method, url, { cause: result.error });
  return JSON.stringify(result.data);
}

/**
 * The writer alone (tests): it throws where it gives the value to zod; `leftToZod` lists the
 * schema's nodes that zod writes, by path.
 */
export function compileResponseWriter(schema: $ZodType): {
  write: Writer;
  leftToZod: string[];
} {
  leftToZod = [];
  path.length = 0;
  compiling.clear();
  try {
    return { write: compileNode(schema), leftToZod };
  } finally {
    leftToZod = [];
  }
}

/** One schema's serializer: the compiled writer, and zod for whatever the writer leaves. */
export function compileResponseSerializer(
  schema: $ZodType,
  where: { method: string; url: string } = { method: 'GET', url: '' },
): (data: unknown) => string {
  const { write } = compileResponseWriter(schema);
  return (data) => {
    try {
      const written = write(data);
      if (written !== undefined) return written;
    } catch {
      // BAIL, or a value JSON cannot hold (a cycle, a bigint): zod answers, or throws, as before
    }
    return zodSerialize(schema, where.method, where.url, data);
  };
}

/**
 * The serializer compiler for `app.setSerializerCompiler`. `verify`: every answer is also
 * serialized by zod and any difference throws (tests, so the whole suite checks the writer).
 */
export function responseSerializerCompiler(
  options: { verify?: boolean } = {},
): FastifySerializerCompiler<unknown> {
  return ({ schema: maybeSchema, method, url }) => {
    const schema = resolveSchema(maybeSchema);
    const serialize = compileResponseSerializer(schema, { method, url });
    if (!options.verify) return serialize;
    return (data: unknown) => {
      let expected: string;
      try {
        expected = zodSerialize(schema, method, url, data);
      } catch (error) {
        // zod refuses the answer: so must the writer (it bails, then zod throws the same)
        let written: string | undefined;
        try {
          written = serialize(data);
        } catch {
          throw error;
        }
        throw new Error(`response serializer: ${method} ${url} wrote ${written} where zod refused`);
      }
      const written = serialize(data);
      if (written !== expected) {
        throw new Error(
          `response serializer: ${method} ${url} wrote\n${written}\nwhere zod writes\n${expected}`,
        );
      }
      return written;
    };
  };
}
