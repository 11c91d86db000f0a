/**
 * The bench's anchor: the best this machine could do for the same calls. A bare Fastify 5 with
 * `pg` (no auth plugin, no helmet, no zod serializer, no request log, no hooks; the product's
 * pool size), started in its own process by bench.ts. For each call it sends exactly the
 * statements the product sent for the same caller (captured by sql-recorder.ts, the session
 * lookup included), in the same order, as named statements where the product names them, and
 * answers `{ obj: [rows of each statement] }`. The caller is the `x-bench-user` header. A move
 * (`POST /api/v1/case/:id/move`, `{ action }`) replays the statements captured for that action.
 *
 * Env: DATABASE_URL, PORT, BARE_CALLS (the captured calls, JSON: key → statements), POOL_SIZE.
 */
import { readFileSync } from 'node:fs';
import Fastify from 'fastify';
import pg from 'pg';
import { callKey, moveRoute, type CapturedCalls } from './captured-calls';

const calls = JSON.parse(readFileSync(process.env.BARE_CALLS!, 'utf8')) as CapturedCalls;
const pool = new pg.Pool({
  connectionString: process.env.DATABASE_URL,
  max: Number(process.env.POOL_SIZE ?? 10),
});
const app = Fastify({ logger: false });

/** The first array of numbers in a statement's first row (the page's ids). */
const idsOf = (rows: unknown[][] | undefined) =>
  Object.values(rows?.[0] ?? []).find((value) => Array.isArray(value)) ?? [];

/**
 * Replays one captured call; `caseId` replaces the id the capture was made with. `db` is the
 * pool (each statement on whichever client is free, as the product's reads) or one client.
 */
async function replay(
  user: string | undefined,
  route: string,
  caseId?: number,
  db: pg.Pool | pg.PoolClient = pool,
) {
  const call = calls[callKey(user, route)];
  if (!call) throw new Error(`no captured statements for ${callKey(user, route)}`);
  const results: unknown[][][] = [];
  for (const statement of call.statements) {
    const values = statement.values.map((value, index) =>
      caseId !== undefined && statement.caseIdAt?.includes(index)
        ? caseId
        : index === statement.previousIdsAt
          ? idsOf(results[results.length - 1])
          : value,
    );
    const { rows } = await db.query<unknown[]>({
      name: statement.name,
      text: statement.text,
      values,
      ...(statement.rowMode ? { rowMode: statement.rowMode } : {}),
    });
    results.push(rows);
  }
  return { obj: results };
}

const userOf = (headers: Record<string, unknown>) =>
  typeof headers['x-bench-user'] === 'string' ? headers['x-bench-user'] : undefined;

app.get('/api/health', async (request) => replay(userOf(request.headers), '/api/health'));
app.get('/api/v1/profile/get', async (request) =>
  replay(userOf(request.headers), '/api/v1/profile/get'),
);
app.get('/api/v1/case/counts', async (request) =>
  replay(userOf(request.headers), '/api/v1/case/counts'),
);
app.get('/api/v1/case/list/:filter/:page', async (request) =>
  replay(userOf(request.headers), request.url),
);
app.get<{ Params: { id: string } }>('/api/v1/case/:id/get', async (request) =>
  replay(userOf(request.headers), '/api/v1/case/:id/get', Number(request.params.id)),
);

/**
 * A move is one transaction (its `begin` … `commit` among the statements): replayed on one client
 * checked out for the call, rolled back and released if a statement fails.
 */
app.post<{ Params: { id: string }; Body: { action: string } }>(
  '/api/v1/case/:id/move',
  async (request) => {
    const client = await pool.connect();
    try {
      const answer = await replay(
        userOf(request.headers),
        moveRoute(request.body.action),
        Number(request.params.id),
        client,
      );
      client.release();
      return answer;
    } catch (error) {
      const rolledBack = await client.query('ROLLBACK').then(
        () => true,
        () => false,
      );
      // A client that cannot even roll back is closed, not handed to the next call.
      client.release(rolledBack ? undefined : (error as Error));
      throw error;
    }
  },
);

await app.listen({ port: Number(process.env.PORT), host: '127.0.0.1' });
process.on('SIGTERM', () => {
  void app.close().then(() => pool.end());
});
