import type pg from 'pg';
import type { Actor } from './calls';
import { callKey, moveRoute } from './captured-calls';
import type { Send } from './http-client';
import { measure, sampleWithCpu, type Sample } from './measure';
import { MOVE_CASES, MOVE_MARK } from './seed';
import type { ServerProcess } from './servers';

/** The two moves the bench alternates on each case: new → checkingout and back. */
export const MOVE_ACTIONS = ['submit', 'backToNew'] as const;
export type MoveAction = (typeof MOVE_ACTIONS)[number];

/** The key under which one actor's move is captured and replayed (`:id` for the case id). */
export const moveKey = (role: Actor['role'], action: MoveAction) =>
  callKey(role, moveRoute(action));

export const movePath = (caseId: number) => `/api/v1/case/${caseId}/move`;

/**
 * The actor's dedicated move cases (seed.ts) and where each stands now: the doctor moves its own,
 * the supervisor those of other owners.
 */
export async function moveCasesOf(
  client: pg.Client,
  role: Actor['role'],
  doctorId: number,
): Promise<{ id: number; caseStatus: string }[]> {
  const { rows } = await client.query<{ id: number; case_status: string }>(
    `SELECT id, case_status FROM cases WHERE observation = $1 AND (owner_id = $2) = $3 ORDER BY id LIMIT $4`,
    [MOVE_MARK, doctorId, role === 'doctor', MOVE_CASES],
  );
  return rows.map((r) => ({ id: r.id, caseStatus: r.case_status }));
}

/**
 * One actor moving its own bench cases as fast as the server answers: each worker moves its own
 * case, submit (new → checkingout), then backToNew, and so on. Measured last, so the moves'
 * writes do not age the tables under the reads. The product and the bare server are measured
 * the same way (the same worker → case assignment), each stretch from where the cases stand in
 * the database when it starts; `headers` say who moves (a token, or the bare server's user).
 */
export async function measureMoves(
  client: pg.Client,
  send: Send,
  server: ServerProcess,
  headers: Record<string, string>,
  role: Actor['role'],
  doctorId: number,
  concurrency: number,
  requests: number,
  warmup: number,
): Promise<{ sample: Sample; note?: string }> {
  const cases = await moveCasesOf(client, role, doctorId);
  const moveIds = cases.map((c) => c.id);
  // Where an earlier run (another concurrency, the other server) left each case: anything but
  // 'new' was submitted.
  const submitted = new Map(cases.map((c) => [c.id, c.caseStatus !== 'new']));
  const move = async (_: number, worker: number) => {
    const id = moveIds[worker % moveIds.length]!;
    const wasSubmitted = submitted.get(id) ?? false;
    const answer = await send('POST', movePath(id), headers, {
      action: wasSubmitted ? 'backToNew' : 'submit',
    });
    if (answer.ok) submitted.set(id, !wasSubmitted);
    return answer.ok;
  };
  const moveConcurrency = Math.min(concurrency, moveIds.length);
  await measure(warmup, moveConcurrency, move);
  const sample = await sampleWithCpu(server.child.pid!, requests, moveConcurrency, move);
  return moveConcurrency < concurrency
    ? { sample, note: `${moveConcurrency} in flight (one dedicated case each)` }
    : { sample };
}

/**
 * What one move did to its case: the status and list it left it in, and the history rows it
 * added (who, what, from and to), so a value wrongly taken for the case id shows.
 */
export interface MoveOutcome {
  status: string;
  listGroup: string;
  added: string[];
}

async function caseStateOf(client: pg.Client, caseId: number) {
  const { rows } = await client.query<{ status: string; list_group: string; last_event: number }>(
    `SELECT case_status AS status, list_group,
            (SELECT coalesce(max(id), 0) FROM case_events e WHERE e.case_id = c.id) AS last_event
       FROM cases c WHERE id = $1`,
    [caseId],
  );
  return rows[0]!;
}

async function eventsAfter(client: pg.Client, caseId: number, lastEvent: number) {
  const { rows } = await client.query<{ event: string }>(
    `SELECT concat_ws(' ', actor_id, action, from_status, '→', to_status) AS event
       FROM case_events WHERE case_id = $1 AND id > $2 ORDER BY id`,
    [caseId, lastEvent],
  );
  return rows.map((r) => r.event);
}

/** Runs one move and reads what it did to the case; throws unless it answered 2xx. */
export async function moveAndObserve(
  client: pg.Client,
  send: Send,
  headers: Record<string, string>,
  caseId: number,
  action: MoveAction,
): Promise<MoveOutcome> {
  const before = await caseStateOf(client, caseId);
  const answer = await send('POST', movePath(caseId), headers, { action });
  if (!answer.ok) throw new Error(`${action} of case ${caseId}: ${answer.status} ${answer.body}`);
  const after = await caseStateOf(client, caseId);
  return {
    status: after.status,
    listGroup: after.list_group,
    added: await eventsAfter(client, caseId, before.last_event),
  };
}

/**
 * The capture of one actor's moves: a few unlabelled pairs on its first move case (warming the
 * server's caches and prepared statements), then one labelled submit and one labelled backToNew,
 * so the case ends where it started ('new'). Answers each capture key's case id and what each
 * labelled move did to the case.
 */
export async function captureMoves(
  client: pg.Client,
  send: Send,
  actor: Actor,
  doctorId: number,
): Promise<{ caseIds: Record<string, number>; outcomes: Record<MoveAction, MoveOutcome> }> {
  const [first] = await moveCasesOf(client, actor.role, doctorId);
  if (first?.caseStatus !== 'new') throw new Error(`${actor.role}: no move case in 'new'`);
  const headers = { authorization: `Bearer ${actor.token}` };
  for (let i = 0; i < 3; i++) {
    for (const action of MOVE_ACTIONS)
      await moveAndObserve(client, send, headers, first.id, action);
  }
  const caseIds: Record<string, number> = {};
  const outcomes = {} as Record<MoveAction, MoveOutcome>;
  for (const action of MOVE_ACTIONS) {
    const key = moveKey(actor.role, action);
    caseIds[key] = first.id;
    outcomes[action] = await moveAndObserve(
      client,
      send,
      { ...headers, 'x-bench-capture': key },
      first.id,
      action,
    );
  }
  return { caseIds, outcomes };
}
