import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { serializerCompiler } from 'fastify-type-provider-zod';
import {
  CASE_LIST_FILTERS,
  caseDetailSchema,
  casePageSchema,
  caseCountsSchema,
} from '@dentflow/domain';
import { errorEnvelopeSchema, ok } from './envelope';
import {
  compileResponseSerializer,
  compileResponseWriter,
  responseSerializerCompiler,
} from './response-serializer';

/** What fastify-type-provider-zod answers: the result (or the error) the writer must equal. */
function reference(schema: z.ZodType, data: unknown): { json?: string; error?: string } {
  const serialize = serializerCompiler({ schema, method: 'GET', url: '/x', httpStatus: '200' });
  try {
    return { json: serialize(data) };
  } catch (error) {
    return { error: (error as Error).name + ': ' + (error as Error).message };
  }
}

function written(schema: z.ZodType, data: unknown): { json?: string; error?: string } {
  const serialize = compileResponseSerializer(schema, { method: 'GET', url: '/x' });
  try {
    return { json: serialize(data) };
  } catch (error) {
    return { error: (error as Error).name + ': ' + (error as Error).message };
  }
}

const cycle: Record<string, unknown> = { a: 'x' };
cycle.self = cycle;

interface Node {
  name: string;
  children: Node[];
}
const node: z.ZodType<Node> = z.object({
  name: z.string(),
  get children() {
    return z.array(node);
  },
});

// [what, schema, values]: each value is written by the writer and by zod, and must come out the same
const cases: [string, z.ZodType, unknown[]][] = [
  [
    'strings: escapes, unicode, lone surrogates',
    z.object({ s: z.string() }),
    [
      { s: '' },
      { s: 'a"b\\c\n\t\u0000\u001f' },
      { s: 'Müller ção 日本 😀' },
      { s: '\ud800x\udfff' },
      { s: 'ends high \ud83d' },
      { s: '\u2028 \u2029 \u007f \u0020' },
      ...['"', '\\', '\b', '\f', '\r', '\u0001'].map((c) => ({ s: `one ${c} only` })),
      { s: 5 },
      { s: null },
      {},
    ],
  ],
  [
    'string checks: trim, lengths in code points, case changes',
    z.object({
      t: z.string().trim().min(1).max(3),
      e: z.string().length(2),
      l: z.string().toLowerCase(),
    }),
    [
      { t: '  ab ', e: '😀', l: 'ÀB' },
      { t: '😀😀😀', e: 'ab', l: 'x' },
      { t: '😀😀😀😀', e: 'ab', l: 'x' },
      { t: '    ', e: 'ab', l: 'x' },
      { t: 'abcd', e: 'ab', l: 'x' },
      { t: 'a', e: 'abc', l: 'x' },
      { t: 1, e: 'ab', l: 'x' },
    ],
  ],
  [
    'numbers: integers, ranges, NaN, infinities, -0',
    z.object({
      n: z.number(),
      i: z.number().int().min(0),
      j: z.int(),
      k: z.number().max(10).gt(-1),
    }),
    [
      { n: 1.5, i: 0, j: -3, k: 10 },
      { n: -0, i: 2 ** 53, j: 1, k: 0 },
      { n: 1e21, i: 3, j: 1.5, k: 0 },
      { n: NaN, i: 0, j: 0, k: 0 },
      { n: Infinity, i: 0, j: 0, k: 0 },
      { n: 1, i: -1, j: 0, k: 0 },
      { n: 1, i: 0, j: 0, k: 11 },
      { n: 1, i: 0, j: 0, k: -1 },
      { n: '1', i: 0, j: 0, k: 0 },
    ],
  ],
  [
    'booleans, null, enums, literals',
    z.object({
      b: z.boolean(),
      z: z.null(),
      e: z.enum(['a', 'b']),
      l: z.literal(['x', 3, true]),
    }),
    [
      { b: true, z: null, e: 'a', l: 'x' },
      { b: false, z: null, e: 'b', l: 3 },
      { b: false, z: null, e: 'b', l: true },
      { b: 1, z: null, e: 'a', l: 'x' },
      { b: true, z: undefined, e: 'a', l: 'x' },
      { b: true, z: null, e: 'c', l: 'x' },
      { b: true, z: null, e: 'a', l: 4 },
    ],
  ],
  [
    'nullable and optional: absent, undefined, null',
    z.object({
      a: z.string().nullable(),
      b: z.string().optional(),
      c: z.string().nullable().optional(),
      d: z.string().optional().nullable(),
    }),
    [
      { a: null },
      { a: 'x', b: 'y', c: null, d: null },
      { a: 'x', b: undefined, c: undefined, d: undefined },
      { b: 'y' },
      { a: undefined },
      { a: 'x', b: null },
    ],
  ],
  [
    'unknown and any: dates, nested objects, undefined, functions',
    z.object({ u: z.unknown(), v: z.any() }),
    [
      { u: { x: [1, 'a', null, new Date(0)] }, v: new Date(86_400_000) },
      { u: undefined, v: undefined },
      { v: 1 },
      { u: () => 1, v: Symbol('s') },
      { u: { toJSON: (key: string) => `key ${key}` }, v: 1 },
      { u: [undefined, () => 1], v: 'x' },
      { u: 10n, v: 1 },
    ],
  ],
  [
    'arrays: empty, optional elements, wrong types',
    z.object({ a: z.array(z.number().int()), o: z.array(z.string().optional()) }),
    [
      { a: [], o: [] },
      { a: [1, 2, 3], o: ['x', undefined, 'y'] },
      { a: [1, 2.5], o: [] },
      { a: 'nope', o: [] },
      { a: { length: 0 }, o: [] },
    ],
  ],
  [
    'objects: undeclared keys dropped, integer-like keys first, getters, class instances',
    z.object({ b: z.string(), '2': z.number(), a: z.string(), '1': z.number() }),
    [
      { a: 'x', b: 'y', 1: 1, 2: 2, secret: 'private', passwordHash: '$argon2' },
      Object.assign(Object.create({ a: 'from prototype' }), { b: 'y', 1: 1, 2: 2 }),
      new (class {
        a = 'x';
        b = 'y';
        1 = 1;
        2 = 2;
        private hidden = true;
      })(),
      { a: 'x', b: 'y', 1: 1 },
      null,
      [],
      'x',
    ],
  ],
  [
    "zod's own nodes: trim, formats, records, unions, defaults, dates, strict objects",
    z.object({
      t: z.string().trim().min(1),
      d: z.iso.date().nullable(),
      r: z.record(z.enum(['b', 'a']), z.number()),
      s: z.record(z.string(), z.unknown()),
      u: z.union([z.object({ k: z.literal('x'), x: z.number() }), z.object({ y: z.string() })]),
      f: z.string().default('dflt'),
      w: z.date(),
      o: z.strictObject({ a: z.string() }).optional(),
      m: z.array(z.string()).max(2),
    }),
    [
      {
        t: '  padded  ',
        d: '2024-02-29',
        r: { a: 1, b: 2 },
        s: { z: 1, 10: 2, y: undefined },
        u: { k: 'x', x: 1, y: 'dropped' },
        f: 'given',
        w: new Date(1000),
        o: { a: 'x' },
        m: ['a'],
      },
      {
        t: 'x',
        d: null,
        r: { b: 2, a: 1 },
        s: {},
        u: { y: 'why' },
        f: 'x',
        w: new Date(0),
        m: [],
      },
      { t: '   ', d: null, r: { a: 1, b: 2 }, s: {}, u: { y: '' }, f: 'x', w: new Date(0), m: [] },
      {
        t: 'x',
        d: '2024-02-30',
        r: { a: 1, b: 2 },
        s: {},
        u: { y: '' },
        f: 'x',
        w: new Date(0),
        m: [],
      },
      { t: 'x', d: null, r: { a: 1 }, s: {}, u: { y: '' }, f: 'x', w: new Date(0), m: [] },
      { t: 'x', d: null, r: { a: 1, b: 2 }, s: {}, u: { y: '' }, w: new Date(0), m: [] },
      { t: 'x', d: null, r: { a: 1, b: 2 }, s: {}, u: {}, f: 'x', w: new Date(0), m: [] },
      { t: 'x', d: null, r: { a: 1, b: 2 }, s: {}, u: { y: '' }, f: 'x', w: new Date(NaN), m: [] },
      {
        t: 'x',
        d: null,
        r: { a: 1, b: 2 },
        s: {},
        u: { y: '' },
        f: 'x',
        w: new Date(0),
        o: { a: 'x', extra: 1 },
        m: [],
      },
      {
        t: 'x',
        d: null,
        r: { a: 1, b: 2 },
        s: {},
        u: { y: '' },
        f: 'x',
        w: new Date(0),
        m: ['a', 'b', 'c'],
      },
    ],
  ],
  [
    'objects: optional fields before, between and after required ones',
    z.object({
      a: z.string().optional(),
      b: z.number(),
      c: z.unknown(),
      d: z.string().nullable(),
      e: z.boolean().optional(),
    }),
    [
      { b: 1, d: null },
      { a: 'x', b: 1, c: undefined, d: 'y', e: true },
      { a: undefined, b: 2, c: { k: 1 }, d: null, e: undefined },
      { a: 'x', d: null },
      { a: 'x', b: undefined, d: null },
      { b: 1 },
      Object.create({ b: 1, d: 'inherited' }) as unknown,
      {},
    ],
  ],
  [
    'records keyed by an enum: every key, the enum order, no other key',
    z.object({
      r: z.record(z.enum(['b', 'a']), z.number()),
      n: z.record(z.enum(['1', 'a']), z.number()).optional(),
      s: z.record(z.string(), z.number()).optional(),
    }),
    [
      { r: { a: 1, b: 2 } },
      { r: { b: 2, a: 1 }, n: { a: 1, 1: 2 }, s: { y: 1, 2: 3 } },
      { r: { a: 1 } },
      { r: { a: 1, b: 2, c: 3 } },
      { r: { a: 1, b: 'x' } },
      { r: Object.assign(Object.create(null) as object, { a: 1, b: 2 }) },
      { r: Object.assign(Object.create({ c: 3 }) as object, { a: 1, b: 2 }) },
      { r: Object.assign(Object.create({ b: 2 }) as object, { a: 1 }) },
      { r: new Map([['a', 1]]) },
      { r: [1, 2] },
      { r: null },
    ],
  ],
  [
    'objects: only optional fields',
    z.object({ a: z.string().optional() }),
    [{}, { a: undefined }, { a: 'x' }],
  ],
  [
    'recursive schemas and cycles',
    z.object({ tree: node, any: z.unknown() }),
    [
      { tree: { name: 'root', children: [{ name: 'leaf', children: [], extra: 1 }] }, any: 1 },
      { tree: { name: 'root', children: [{ name: 'leaf' }] }, any: 1 },
      { tree: { name: 'root', children: [] }, any: cycle },
    ],
  ],
  [
    'the envelopes',
    ok(z.object({ id: z.number().int() })),
    [{ obj: { id: 1, hidden: 'x' } }, { obj: null }, {}],
  ],
  [
    'the error envelope',
    errorEnvelopeSchema,
    [
      { error: 'Not found', code: 'NOT_FOUND', stack: 'private' },
      { error: 'Invalid', code: 'VALIDATION', fields: { 'patient.fname': 'required' } },
      { error: 'x' },
    ],
  ],
];

describe('the compiled response writer', () => {
  describe.each(cases)('%s', (_what, schema, values) => {
    it.each(values.map((value, i) => [i, value] as const))('value %i: same as zod', (_i, value) => {
      expect(written(schema, value)).toEqual(reference(schema, value));
    });
  });

  it('answers like zod for the case reads, with every nullable and optional part', () => {
    const detail = {
      id: 7,
      ownerId: 3,
      owner: { id: 3, displayName: 'Dr. Müller', email: 'private@example.com' },
      caseStatus: 'new',
      caseArchived: false,
      caseReview: false,
      caseCurrency: 'BRL',
      patient: { fname: ' Ana ', lname: 'Souza', birthDate: null, gender: 'female', cpf: 'x' },
      address: null,
      observation: '',
      createdAt: '2026-01-01T00:00:00.000Z',
      modifiedAt: '2026-01-02T00:00:00.000Z',
      deadlineAt: null,
      finishAt: null,
      services: [],
      users: [{ userId: 3, displayName: 'Dr.', roles: ['owner'], triggerNotification: true }],
      reviews: [],
      checks: {
        services: false,
        patient: true,
        attachments: false,
        transactions: false,
        missingSlots: [],
        unpaidServiceIds: [],
      },
      actions: ['submit'],
      can: ['edit'],
      readOnly: false,
      delivery: null,
      dispatch: null,
      productionActions: [],
    };
    for (const value of [detail, { ...detail, caseStatus: 'nope' }]) {
      expect(written(ok(caseDetailSchema), { obj: value })).toEqual(
        reference(ok(caseDetailSchema), { obj: value }),
      );
    }
    expect(written(ok(caseDetailSchema), { obj: detail }).json).not.toMatch(/private|cpf/);
    const page = { items: [], total: 0, page: 0, pageSize: 20, totalCapped: undefined };
    expect(written(ok(casePageSchema), { obj: page })).toEqual(
      reference(ok(casePageSchema), { obj: page }),
    );
    const counts = { new: 1, pending: 2 };
    expect(written(ok(caseCountsSchema), { obj: counts })).toEqual(
      reference(ok(caseCountsSchema), { obj: counts }),
    );
  });

  it('writes the case reads itself; zod only the nodes it must', () => {
    expect(compileResponseWriter(ok(caseDetailSchema)).leftToZod).toEqual([
      '.obj.patient.birthDate: string',
    ]);
    expect(compileResponseWriter(ok(casePageSchema)).leftToZod).toEqual([]);
    expect(compileResponseWriter(ok(caseCountsSchema)).leftToZod).toEqual([]);
    // the counts of every filter, in the writer's own answer (it throws where zod would write)
    const counts = { obj: Object.fromEntries(CASE_LIST_FILTERS.map((f, i) => [f, i])) };
    expect(compileResponseWriter(ok(caseCountsSchema)).write(counts)).toBe(
      reference(ok(caseCountsSchema), counts).json,
    );
    const { write } = compileResponseWriter(ok(casePageSchema));
    const item = {
      id: 1,
      patient: { fname: 'Ana', lname: 'Souza' },
      caseStatus: 'new',
      caseArchived: false,
      caseCurrency: 'BRL',
      owner: { id: 2, displayName: 'Dr.' },
      services: [{ id: 3, productName: 'Aligner', category: 1 }],
      createdAt: '2026-01-01T00:00:00.000Z',
      deadlineAt: null,
      modifiedAt: '2026-01-01T00:00:00.000Z',
      review: false,
      unseen: 0,
      dispatch: null,
    };
    const page = { obj: { items: [item], total: 1, page: 0, pageSize: 20 } };
    // the writer's own answer (it throws where it would leave the value to zod)
    expect(write(page)).toBe(reference(ok(casePageSchema), page).json);
  });

  it('never writes a key the schema does not declare', () => {
    const serialize = compileResponseSerializer(
      ok(z.object({ id: z.number(), items: z.array(z.object({ name: z.string() })) })),
    );
    const json = serialize({
      obj: { id: 1, passwordHash: 'h', items: [{ name: 'a', token: 't' }] },
      secret: 's',
    });
    expect(json).toBe('{"obj":{"id":1,"items":[{"name":"a"}]}}');
  });

  it('with verify, fails on a difference from zod', () => {
    const schema = z.object({ a: z.string() });
    const serialize = responseSerializerCompiler({ verify: true })({
      schema,
      method: 'GET',
      url: '/x',
      httpStatus: '200',
    });
    expect(serialize({ a: 'x' })).toBe('{"a":"x"}');
    expect(() => serialize({ a: 1 })).toThrow(/Response doesn't match the schema/);
  });
});
