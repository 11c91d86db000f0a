import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { ROLES } from '@dentflow/domain';

/**
 * The authorization matrix of docs/permissions.md, read as data: the one source of what every
 * role gets on every route, so the document and authorization-matrix.int.test.ts cannot drift.
 */

/** The matrix's columns: every role, then a caller without a token. */
export const MATRIX_CALLERS = [...ROLES, 'anonymous'] as const;
export type MatrixCaller = (typeof MATRIX_CALLERS)[number];

/** A record of its own, another's record, and a record that does not exist. */
export const RECORD_CASES = ['own', 'another', 'none'] as const;
export type RecordCase = (typeof RECORD_CASES)[number];

/** The statuses a cell may hold: refusals, and answers given only once authorization passed. */
export const REFUSALS = [401, 403, 404] as const;
const CELL_STATUSES = new Set([200, 204, 302, 400, 409, ...REFUSALS]);

export const isRefusal = (status: number) => (REFUSALS as readonly number[]).includes(status);

/** `—`: the route acts on no record (every cell holds one status). */
export const NO_RECORD = '—';

export interface MatrixRow {
  /** `POST /api/v1/case/{id}/move` */
  route: string;
  /** The record kind the cells are about, or NO_RECORD. */
  record: string;
  /** Per caller, the expected status on its own, another's and a missing record. */
  expected: Record<MatrixCaller, Record<RecordCase, number>>;
  /** 1-based line in the document, for messages. */
  line: number;
}

export const MATRIX_DOCUMENT = join(
  import.meta.dirname,
  '..',
  '..',
  '..',
  '..',
  'docs',
  'permissions.md',
);
const HEADING = '## Authorization matrix';
const HEADER = ['route', 'record', ...MATRIX_CALLERS];

/** A fastify route (`/api/v1/case/:id`) as the document writes it (`/api/v1/case/{id}`). */
export const routeKey = (method: string, url: string) =>
  `${method} ${url.replace(/:(\w+)/g, '{$1}')}`;

const splitRow = (line: string) =>
  line
    .trim()
    .replace(/^\||\|$/g, '')
    .split('|')
    .map((cell) => cell.trim());

function parseCell(text: string, record: string, where: string): Record<RecordCase, number> {
  const parts = text.split('/').map((part) => part.trim());
  const statuses = parts.map(Number);
  if (statuses.some((status) => !CELL_STATUSES.has(status))) {
    throw new Error(`${where}: "${text}" is not one of ${[...CELL_STATUSES].join(', ')}`);
  }
  if (parts.length === 1) {
    const [status] = statuses as [number];
    return { own: status, another: status, none: status };
  }
  if (parts.length !== 3 || record === NO_RECORD) {
    throw new Error(
      `${where}: "${text}" must be one status, or three (own/another/none) for a record`,
    );
  }
  const [own, another, none] = statuses as [number, number, number];
  return { own, another, none };
}

/** The rows of the document's authorization matrix; malformed text throws with its line. */
export function parseAuthorizationMatrix(markdown: string): MatrixRow[] {
  const lines = markdown.split('\n');
  const start = lines.findIndex((line) => line.trim() === HEADING);
  if (start < 0) throw new Error(`docs/permissions.md has no "${HEADING}" section`);
  const headerAt = lines.findIndex((line, i) => i > start && line.trim().startsWith('| route'));
  if (headerAt < 0) throw new Error(`"${HEADING}" has no table`);
  const header = splitRow(lines[headerAt]!);
  if (header.join(',') !== HEADER.join(',')) {
    throw new Error(`line ${headerAt + 1}: the columns must be ${HEADER.join(' | ')}`);
  }
  const rows: MatrixRow[] = [];
  for (let i = headerAt + 2; i < lines.length && lines[i]!.trim().startsWith('|'); i++) {
    const cells = splitRow(lines[i]!);
    const where = `docs/permissions.md line ${i + 1}`;
    if (cells.length !== HEADER.length) {
      throw new Error(`${where}: ${cells.length} cells, expected ${HEADER.length}`);
    }
    const route = cells[0]!.replace(/^`|`$/g, '');
    if (!/^(GET|POST|PUT|PATCH|DELETE) \/\S+$/.test(route)) {
      throw new Error(`${where}: "${cells[0]}" is not \`METHOD /path\``);
    }
    const record = cells[1]!.replace(/^`|`$/g, '');
    const expected = Object.fromEntries(
      MATRIX_CALLERS.map((caller, c) => [
        caller,
        parseCell(cells[c + 2]!, record, `${where}, ${caller}`),
      ]),
    ) as MatrixRow['expected'];
    rows.push({ route, record, expected, line: i + 1 });
  }
  const seen = new Set<string>();
  for (const row of rows) {
    if (seen.has(row.route)) throw new Error(`line ${row.line}: ${row.route} has a second row`);
    seen.add(row.route);
  }
  return rows;
}

export const readAuthorizationMatrix = () =>
  parseAuthorizationMatrix(readFileSync(MATRIX_DOCUMENT, 'utf8'));

/** A row to fill in, for the message that names a route without one. */
export const rowTemplate = (route: string) =>
  `| \`${route}\` | ? | ${MATRIX_CALLERS.map(() => '?').join(' | ')} |`;
