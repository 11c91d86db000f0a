import type pg from 'pg';
import { DEADLINE_NEAR_MS, DEADLINE_SETTLED_STATUSES, NOTIFICATION_TYPES } from '@dentflow/domain';

/**
 * Bulk benchmark data in plain SQL (generate_series), on top of the demo seed: 500 bench owners
 * (doctors and clinics), CASE_COUNT cases with patients, services, planners, members, reviews, a
 * 'created' event and two notifications to the owner each. The demo doctor is the heavy owner
 * (2,000 cases). Statuses, dates and names are spread by hashes of the row number, so the data is
 * the same on every run.
 */

/** BENCH_CASES (default 100,000): a million seeds in a few minutes, all set-based. */
export const CASE_COUNT = Number(process.env.BENCH_CASES ?? 100_000);
export const HEAVY_OWNER_CASES = 2_000;
export const OWNER_COUNT = 500;
/** Cases kept in 'new' for the move measurements, per actor (one per concurrent request). */
export const MOVE_CASES = 50;
export const MOVE_MARK = 'bench move';

/** Names with and without accents; the folded twin is what `search_text` stores. */
const FIRST = [
  ['João', 'joao'],
  ['Maria', 'maria'],
  ['José', 'jose'],
  ['Ana', 'ana'],
  ['Lucía', 'lucia'],
  ['Pedro', 'pedro'],
  ['Beatriz', 'beatriz'],
  ['Carlos', 'carlos'],
  ['Chloé', 'chloe'],
  ['Emily', 'emily'],
  ['Tomás', 'tomas'],
  ['Helena', 'helena'],
  ['Rafael', 'rafael'],
  ['Sofia', 'sofia'],
  ['André', 'andre'],
  ['Zoë', 'zoe'],
];
const LAST = [
  ['Silva', 'silva'],
  ['Souza', 'souza'],
  ['Múller', 'muller'],
  ['Gonçalves', 'goncalves'],
  ['Fernández', 'fernandez'],
  ['Pereira', 'pereira'],
  ['Álvarez', 'alvarez'],
  ['Conceição', 'conceicao'],
  ['Smith', 'smith'],
  ['Brown', 'brown'],
  ['Ribeiro', 'ribeiro'],
  ['Araújo', 'araujo'],
  ['Rocha', 'rocha'],
  ['Castro', 'castro'],
  ['Lima', 'lima'],
  ['Nogueira', 'nogueira'],
  ['Carter', 'carter'],
  ['Dubois', 'dubois'],
  ['Rossi', 'rossi'],
  ['Schmidt', 'schmidt'],
];

/** 20 slots: the share of each status among the generated cases. */
const STATUS_SLOTS = [
  'new',
  'new',
  'new',
  'new',
  'revision',
  'checkingout',
  'checkingout',
  'execute',
  'execute',
  'execute',
  'approve',
  'approve',
  'finishing',
  'finishing',
  'print',
  'finished',
  'finished',
  'finished',
  'closed',
  'cancelled',
];

const V3_DATA = (category3: boolean) =>
  JSON.stringify({
    jaw: category3 ? 'upper' : null,
    implantSystem: category3
      ? { manufactureName: 'Neodent', systemName: 'Grand Morse' }
      : { manufactureName: '', systemName: '' },
    extractTeeth: category3 ? false : null,
    hasOrtho: false,
    plasticGum: false,
    increaseDVO: { checked: false, howMuch: null },
    treatmentPurpose: { purpose: category3 ? 5 : 2 },
    provision: category3 ? true : null,
    terms: { checked: true },
    extra: 'Benchmark case.',
  });

const literal = (values: string[]) => `ARRAY[${values.map((v) => `'${v}'`).join(',')}]`;

export async function seedBenchCases(client: pg.Client): Promise<void> {
  const q = (text: string) => client.query(text);
  await q('BEGIN');
  await q(`
    INSERT INTO users (email, nick_name, fname, lname, display_name, password_hash, roles, internal,
                       data_info, data_address, data_capabilities, verified_at)
    SELECT 'bench' || g || '@bench.local', 'bench' || g, 'Bench', 'Owner ' || g, 'Bench Owner ' || g,
           d.password_hash,
           CASE WHEN g % 2 = 0 THEN '["doctor"]'::jsonb ELSE '["clinic"]'::jsonb END, false,
           d.data_info, d.data_address,
           jsonb_set(d.data_capabilities, '{instructorId}', 'null'::jsonb), now()
      FROM generate_series(1, ${OWNER_COUNT}) g, users d
     WHERE d.nick_name = 'doctor'`);
  // One row per case number: owner, status, dates and names derived from it.
  await q(`
    CREATE TEMP TABLE bench_plan ON COMMIT DROP AS
    WITH owners AS (
      SELECT array_agg(id ORDER BY id) AS ids FROM users WHERE nick_name LIKE 'bench%'
    ), demo AS (
      SELECT (SELECT id FROM users WHERE nick_name = 'doctor') AS doctor,
             (SELECT coalesce(max(id), 0) FROM patients) AS patient_base,
             (SELECT coalesce(max(id), 0) FROM cases) AS case_base
    ), numbered AS (
      SELECT n, (hashint4(n) & 2147483647) AS h1, (hashint4(n + 1000003) & 2147483647) AS h2
        FROM generate_series(1, ${CASE_COUNT}) n
    )
    SELECT n,
           demo.case_base + n AS case_id,
           demo.patient_base + n AS patient_id,
           CASE WHEN n <= ${HEAVY_OWNER_CASES} THEN demo.doctor
                ELSE owners.ids[1 + n % ${OWNER_COUNT}] END AS owner_id,
           CASE WHEN n <= ${MOVE_CASES}
                  OR n BETWEEN ${HEAVY_OWNER_CASES + 1} AND ${HEAVY_OWNER_CASES + MOVE_CASES}
                THEN 'new'
                ELSE (${literal(STATUS_SLOTS)})[1 + h1 % ${STATUS_SLOTS.length}] END AS status,
           (n <= ${MOVE_CASES} OR n BETWEEN ${HEAVY_OWNER_CASES + 1} AND ${HEAVY_OWNER_CASES + MOVE_CASES}) AS move_case,
           1 + h2 % ${FIRST.length} AS fi,
           1 + (h2 / ${FIRST.length}) % ${LAST.length} AS li,
           h1, h2,
           now() - make_interval(secs => (h2 % 8640000)) AS modified_at
      FROM numbered, owners, demo`);
  await q(`
    INSERT INTO patients (id, fname, lname, birth_date, gender)
    SELECT patient_id, (${literal(FIRST.map((f) => f[0]!))})[fi], (${literal(LAST.map((l) => l[0]!))})[li],
           date '1940-01-01' + (h1 % 25000), CASE WHEN h1 % 2 = 0 THEN 'female' ELSE 'male' END
      FROM bench_plan`);
  await q(`
    INSERT INTO cases (id, owner_id, patient_id, case_status, list_group, case_archived, case_review,
                       has_printable, observation, case_currency, search_text, created_at, modified_at,
                       validated_at, deadline_at, finish_at)
    SELECT case_id, owner_id, patient_id, status,
           CASE WHEN status IN ('new', 'revision', 'checkingout') THEN 'new'
                WHEN status IN ('finished', 'closed') THEN 'finished' ELSE status END,
           status IN ('finished', 'closed') AND h1 % 4 = 0,
           NOT move_case AND h2 % 40 = 0,
           status = 'print' OR (NOT move_case AND h1 % 3 = 0),
           CASE WHEN move_case THEN '${MOVE_MARK}' ELSE '' END,
           'USD',
           (${literal(FIRST.map((f) => f[1]!))})[fi] || ' ' || (${literal(LAST.map((l) => l[1]!))})[li],
           modified_at - interval '3 days', modified_at,
           CASE WHEN status NOT IN ('new', 'checkingout') THEN modified_at - interval '2 days' END,
           -- Deadlines lie two to six weeks ahead of now (not of the last change, up to 100 days
           -- old), so the deadline-near job that runs at the server's start finds nothing: its
           -- burst of one transaction per overdue case would run under the measurements.
           CASE WHEN status NOT IN ('new', 'checkingout')
                THEN now() + make_interval(days => 14 + h1 % 30) END,
           CASE WHEN status IN ('finished', 'closed') THEN modified_at END
      FROM bench_plan`);
  // A planning service per case (category by hash) and, for printable cases, a printed one.
  await q(`
    INSERT INTO case_services (case_id, product_id, product_category_id, quantity, printable_product,
                               planner_id, approve_request_at, approve_at, data_version, data)
    SELECT c.id, p.id, p.product_category_id, 1, false,
           CASE WHEN c.validated_at IS NOT NULL THEN planner.id END,
           CASE WHEN c.case_status IN ('approve', 'finishing', 'print', 'finished', 'closed')
                THEN c.modified_at - interval '1 day' END,
           CASE WHEN c.case_status IN ('finishing', 'print', 'finished', 'closed')
                THEN c.modified_at - interval '12 hours' END,
           3,
           CASE WHEN p.product_category_id = 3 THEN '${V3_DATA(true)}'::jsonb
                ELSE '${V3_DATA(false)}'::jsonb END
      FROM bench_plan b
      JOIN cases c ON c.id = b.case_id
      JOIN products p ON p.code = (ARRAY['PLAN-GUIDE', 'PLAN-SMILE', 'PLAN-ORTHO'])[1 + b.h1 % 3]
      CROSS JOIN (SELECT id FROM users WHERE nick_name = 'planner') planner`);
  await q(`
    INSERT INTO case_services (case_id, product_id, product_category_id, quantity, printable_product,
                               planner_id, approve_request_at, approve_at, data_version, data)
    SELECT c.id, p.id, p.product_category_id, 1, true, s.planner_id, s.approve_request_at,
           s.approve_at, 3,
           CASE WHEN p.product_category_id = 3 THEN '${V3_DATA(true)}'::jsonb
                ELSE '${V3_DATA(false)}'::jsonb END
      FROM bench_plan b
      JOIN cases c ON c.id = b.case_id AND c.has_printable
      JOIN case_services s ON s.case_id = c.id
      JOIN products p ON p.code = CASE WHEN s.product_category_id = 3 THEN 'MFG-GUIDE' ELSE 'MFG-MOCKUP' END`);
  await q(`
    INSERT INTO case_users (case_id, user_id, trigger_notification)
    SELECT DISTINCT s.case_id, s.planner_id, true
      FROM case_services s JOIN bench_plan b ON b.case_id = s.case_id
     WHERE s.planner_id IS NOT NULL`);
  await q(`
    INSERT INTO case_reviews (case_id, reason_id, description, created_at)
    SELECT c.id, NULL, 'Benchmark review.', c.modified_at
      FROM cases c JOIN bench_plan b ON b.case_id = c.id WHERE c.case_review`);
  await q(`
    INSERT INTO case_events (case_id, actor_id, at, action, detail)
    SELECT c.id, c.owner_id, c.created_at, 'created', '{}'::jsonb
      FROM cases c JOIN bench_plan b ON b.case_id = c.id`);
  // A case's history notified its owner: two status notices each, the older seen; one case in
  // twenty has its newer one unseen (the list's badge). An install with this many cases has at
  // least as many notifications, and the list's badge reads them by index: with the table left
  // nearly empty, each connection planned that read as a scan of the whole table, which the
  // supervisor's moves then grew by thousands of rows under the next measurements.
  await q(`
    INSERT INTO notifications (case_id, user_id, event_type, path, created_at, modified_at,
                               sent_at, viewed_at)
    SELECT c.id, c.owner_id, ${NOTIFICATION_TYPES.statusChanged}, '/case/' || c.id || '?tab=history',
           c.modified_at - make_interval(days => 2 - k), c.modified_at - make_interval(days => 2 - k),
           c.modified_at - make_interval(days => 2 - k),
           CASE WHEN k = 2 AND c.id % 20 = 0 THEN NULL ELSE c.modified_at END
      FROM cases c JOIN bench_plan b ON b.case_id = c.id, generate_series(1, 2) k`);
  for (const table of [
    'patients',
    'cases',
    'case_services',
    'case_users',
    'case_reviews',
    'case_events',
    'notifications',
  ]) {
    await q(
      `SELECT setval(pg_get_serial_sequence('${table}', 'id'), (SELECT max(id) FROM ${table}))`,
    );
  }
  // The bench's cases leave the deadline-near job idle (the demo's few are its only work).
  const { rows } = await client.query<{ due: number }>(
    `SELECT count(*)::int AS due FROM cases JOIN bench_plan ON case_id = id
      WHERE deadline_at <= now() + make_interval(secs => $1 / 1000.0) AND NOT case_archived
        AND case_status <> ALL($2::text[])`,
    [DEADLINE_NEAR_MS, [...DEADLINE_SETTLED_STATUSES]],
  );
  if (rows[0]!.due > 0) throw new Error(`${rows[0]!.due} cases wake the deadline-near job`);
  await q('COMMIT');
  await q('VACUUM ANALYZE');
  // The seed leaves gigabytes of dirty pages at a million cases: written back now, not by the
  // checkpointer during the measurements (where its work showed as database CPU of the calls).
  await q('CHECKPOINT');
}
