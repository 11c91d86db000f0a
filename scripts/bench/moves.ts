import type pg from 'pg';
import type { Actor } from './calls';
import type { Send } from './http-client';
import { measure, measureWithCpu, type Stats } from './measure';
import { MOVE_CASES, MOVE_MARK } from './seed';
import type { ServerProcess } from './servers';

/**
 * One actor moving its own bench cases as fast as the server answers: each worker moves its own
 * case, submit (new → checkingout), then backToNew, and so on. Measured last, so the moves'
 * writes do not age the tables under the reads.
 */
export async function measureMoves(
  client: pg.Client,
  send: Send,
  product: ServerProcess,
  actor: Actor,
  doctorId: number,
  concurrency: number,
  requests: number,
  warmup: number,
): Promise<Stats & { note?: string }> {
  const { rows } = await client.query<{ id: number; case_status: string }>(
    `SELECT id, case_status FROM cases WHERE observation = $1 AND (owner_id = $2) = $3 ORDER BY id LIMIT $4`,
    [MOVE_MARK, doctorId, actor.role === 'doctor', MOVE_CASES],
  );
  const moveIds = rows.map((r) => r.id);
  // Where an earlier run (another concurrency) left each case: anything but 'new' was submitted.
  const submitted = new Map(rows.map((r) => [r.id, r.case_status !== 'new']));
  const move = async (_: number, worker: number) => {
    const id = moveIds[worker % moveIds.length]!;
    const wasSubmitted = submitted.get(id) ?? false;
    const answer = await send(
      'POST',
      `/api/v1/case/${id}/move`,
      { authorization: `Bearer ${actor.token}` },
      { action: wasSubmitted ? 'backToNew' : 'submit' },
    );
    if (answer.ok) submitted.set(id, !wasSubmitted);
    return answer.ok;
  };
  const moveConcurrency = Math.min(concurrency, moveIds.length);
  await measure(Math.min(warmup, 100), moveConcurrency, move);
  const stats = await measureWithCpu(product.child.pid!, requests, moveConcurrency, move);
  return moveConcurrency < concurrency
    ? { ...stats, note: `${moveConcurrency} in flight (one dedicated case each)` }
    : stats;
}
