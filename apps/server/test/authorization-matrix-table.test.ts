import { describe, expect, it } from 'vitest';
import {
  parseAuthorizationMatrix,
  readAuthorizationMatrix,
  routeKey,
} from './support/authorization-matrix';

/** Reading docs/permissions.md's authorization matrix: what it accepts and what it refuses. */

const HEADER = [
  '## Authorization matrix',
  '',
  '| route | record | admin | supervisor | planner | printer | clinic | doctor | partner | instructor | anonymous |',
  '|---|---|---|---|---|---|---|---|---|---|---|',
];
const table = (...rows: string[]) => [...HEADER, ...rows, '', 'After the table.'].join('\n');
const GET_CASE =
  '| `GET /api/v1/case/{id}/get` | case | 200/200/404 | 200/200/404 | 200/404/404 | 200/404/404 | 200/404/404 | 200/404/404 | 200/404/404 | 200/404/404 | 401 |';

describe('the authorization matrix table', () => {
  it('reads one status for the three records, or own/another/none', () => {
    const [row] = parseAuthorizationMatrix(table(GET_CASE));
    expect(row).toMatchObject({ route: 'GET /api/v1/case/{id}/get', record: 'case', line: 5 });
    expect(row!.expected.admin).toEqual({ own: 200, another: 200, none: 404 });
    expect(row!.expected.planner).toEqual({ own: 200, another: 404, none: 404 });
    expect(row!.expected.anonymous).toEqual({ own: 401, another: 401, none: 401 });
  });

  it.each([
    ['a status no cell may hold', GET_CASE.replace('| 401 |', '| 500 |'), /anonymous.*"500"/],
    ['two statuses', GET_CASE.replace('200/200/404', '200/404'), /admin.*one status, or three/],
    [
      'three statuses on a route without a record',
      '| `GET /api/health` | — | 200/200/200 | 200 | 200 | 200 | 200 | 200 | 200 | 200 | 200 |',
      /one status, or three/,
    ],
    ['a missing cell', GET_CASE.replace(' 401 |', ''), /10 cells, expected 11/],
    ['no method', GET_CASE.replace('GET /api', '/api'), /is not `METHOD \/path`/],
  ])('refuses %s, naming the line', (_name, row, message) => {
    expect(() => parseAuthorizationMatrix(table(row))).toThrow(message);
  });

  it('refuses a second row for a route and a table without its columns', () => {
    expect(() => parseAuthorizationMatrix(table(GET_CASE, GET_CASE))).toThrow(/second row/);
    expect(() =>
      parseAuthorizationMatrix(table(GET_CASE).replace('| instructor | anonymous |', '|')),
    ).toThrow(/the columns must be/);
    expect(() => parseAuthorizationMatrix('# Permissions\n')).toThrow(/no "## Authorization/);
  });

  it('names routes as the document does', () => {
    expect(routeKey('DELETE', '/api/v1/case/:id/users/:userId')).toBe(
      'DELETE /api/v1/case/{id}/users/{userId}',
    );
  });

  it('docs/permissions.md holds a readable matrix', () => {
    expect(readAuthorizationMatrix().length).toBeGreaterThan(100);
  });
});
