import { callKey } from './captured-calls';

/**
 * The measured reads, the same for the product and the bare server: each is a path per request
 * number, the caller, and how to tell that both servers answered the same rows.
 */
export interface BenchCall {
  actor: 'doctor' | 'supervisor';
  name: string;
  /** The product's token; the bare server takes `x-bench-user` instead. */
  token?: string | undefined;
  user?: string | undefined;
  /** The capture key's URL (`:id` for the case id). */
  route: string;
  path(i: number): string;
  /** Case ids read in turn by a `case/{id}/get` call (the first is the captured one). */
  caseIds?: number[];
  /** Why the answers differ (product body, bare body), or undefined when they match. */
  mismatch(product: unknown, bare: unknown): string | undefined;
  note?: string | undefined;
}

export const PAGE_SIZE = 20;
export const DEEP_PAGE = 200;
export const SEARCH = 'muller';

type Bare = { obj: unknown[][][] };
type Product<T> = { obj: T };
const lastRows = (bare: unknown) => {
  const statements = (bare as Bare).obj;
  return statements[statements.length - 1] ?? [];
};
/** Whether some statement of the bare answer returned a row whose first column is `id`. */
const hasRow = (bare: unknown, id: number) =>
  (bare as Bare).obj.some((rows) => rows.some((row) => Number(row[0]) === id));
const differ = (what: string, product: unknown, bare: unknown) =>
  JSON.stringify(product) === JSON.stringify(bare)
    ? undefined
    : `${what}: product ${JSON.stringify(product)} ≠ bare ${JSON.stringify(bare)}`;

export interface Actor {
  role: 'doctor' | 'supervisor';
  token: string;
  id: number;
  /** Cases in the 'new' list for this actor. */
  newTotal: number;
  /** Sample of case ids the actor may read. */
  caseIds: number[];
}

/** The reference calls: the floor every request pays (no query; one query + auth). */
export function referenceCalls(doctor: Actor): BenchCall[] {
  return [
    {
      actor: 'doctor',
      name: 'reference: GET /api/health (no auth)',
      route: '/api/health',
      path: () => '/api/health',
      mismatch: (product, bare) =>
        differ(
          'status',
          (product as Product<{ status: string }>).obj.status,
          (bare as Bare).obj.length > 0 ? 'ok' : 'none',
        ),
    },
    {
      actor: 'doctor',
      name: 'reference: GET /api/v1/profile/get (auth)',
      token: doctor.token,
      user: 'doctor',
      route: '/api/v1/profile/get',
      path: () => '/api/v1/profile/get',
      mismatch: (product, bare) => {
        const id = (product as Product<{ id: number }>).obj.id;
        return hasRow(bare, id) ? undefined : `profile ${id} not in the bare answer`;
      },
    },
  ];
}

/** The list, counts and get calls of one actor. */
export function caseCalls(actor: Actor): BenchCall[] {
  const lastPage = Math.max(0, Math.ceil(actor.newTotal / PAGE_SIZE) - 1);
  const deepPage = Math.min(DEEP_PAGE, lastPage);
  const who = { actor: actor.role, token: actor.token, user: actor.role };
  const list = (name: string, page: number, q?: string, note?: string): BenchCall => {
    const path = `/api/v1/case/list/new/${page}?pageSize=${PAGE_SIZE}${q ? `&q=${q}` : ''}`;
    return {
      ...who,
      name,
      route: path,
      path: () => path,
      note,
      mismatch: (product, bare) =>
        differ(
          'page ids',
          (product as Product<{ items: { id: number }[] }>).obj.items.map((item) => item.id),
          lastRows(bare).map((row) => Number(row[0])),
        ),
    };
  };
  return [
    list('list new page 0', 0),
    list(
      `list new page ${deepPage}`,
      deepPage,
      undefined,
      deepPage < DEEP_PAGE
        ? `page ${DEEP_PAGE} does not exist for this caller (${actor.newTotal} cases in 'new' = pages 0–${lastPage}): the last page instead`
        : undefined,
    ),
    list(`list new page 0, q=${SEARCH}`, 0, SEARCH),
    {
      ...who,
      name: 'case/counts',
      route: '/api/v1/case/counts',
      path: () => '/api/v1/case/counts',
      mismatch: (product, bare) => {
        const counts = (product as Product<Record<string, number>>).obj;
        const fromBare: Record<string, number> = { checkingout: 0 };
        for (const [group, count, checkingout] of lastRows(bare)) {
          if (typeof group === 'string') fromBare[group] = Number(count);
          fromBare.checkingout! += Number(checkingout);
        }
        const nonZero = (record: Record<string, number>) =>
          Object.fromEntries(
            Object.entries(record)
              .filter(([, n]) => n > 0)
              .sort(([a], [b]) => a.localeCompare(b)),
          );
        return differ('counts', nonZero(counts), nonZero(fromBare));
      },
    },
    {
      ...who,
      name: 'case/{id}/get',
      route: '/api/v1/case/:id/get',
      caseIds: actor.caseIds,
      path: (i) => `/api/v1/case/${actor.caseIds[i % actor.caseIds.length]}/get`,
      mismatch: (product, bare) => {
        const id = (product as Product<{ id: number }>).obj.id;
        return hasRow(bare, id) ? undefined : `case ${id} not in the bare answer`;
      },
    },
  ];
}

/** The key under which a call's statements are captured and replayed. */
export const keyOf = (call: BenchCall) => callKey(call.user, call.route);
