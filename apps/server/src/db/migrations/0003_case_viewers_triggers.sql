-- case_viewers (schema/cases.ts) is written only here: statement-level triggers with transition
-- tables, so a bulk insert (the benchmark's 100,000 cases, a seed) is one set-based statement
-- instead of one trigger call per row. A user sees a case by relation when they own it, are a
-- case user of it or plan one of its services; the row copies the case's list columns.

-- Re-derives the rows of the given cases: adds missing relations, refreshes copied columns,
-- drops relations that no longer hold.
CREATE OR REPLACE FUNCTION case_viewers_sync(ids integer[]) RETURNS void
LANGUAGE plpgsql AS $$
BEGIN
  IF ids IS NULL OR cardinality(ids) = 0 THEN
    RETURN;
  END IF;
  DELETE FROM case_viewers v
   WHERE v.case_id = ANY (ids)
     AND NOT EXISTS (SELECT 1 FROM cases c WHERE c.id = v.case_id AND c.owner_id = v.user_id)
     AND NOT EXISTS (SELECT 1 FROM case_users cu WHERE cu.case_id = v.case_id AND cu.user_id = v.user_id)
     AND NOT EXISTS (SELECT 1 FROM case_services cs WHERE cs.case_id = v.case_id AND cs.planner_id = v.user_id);
  INSERT INTO case_viewers (case_id, user_id, list_group, case_status, case_archived, modified_at, search_text)
  SELECT c.id, r.user_id, c.list_group, c.case_status, c.case_archived, c.modified_at, c.search_text
    FROM (SELECT id AS case_id, owner_id AS user_id FROM cases WHERE id = ANY (ids)
          UNION
          SELECT case_id, user_id FROM case_users WHERE case_id = ANY (ids)
          UNION
          SELECT case_id, planner_id FROM case_services
           WHERE case_id = ANY (ids) AND planner_id IS NOT NULL) r
    JOIN cases c ON c.id = r.case_id
  ON CONFLICT (case_id, user_id) DO UPDATE
     SET list_group = excluded.list_group,
         case_status = excluded.case_status,
         case_archived = excluded.case_archived,
         modified_at = excluded.modified_at,
         search_text = excluded.search_text
   WHERE (case_viewers.list_group, case_viewers.case_status, case_viewers.case_archived, case_viewers.modified_at, case_viewers.search_text)
         IS DISTINCT FROM (excluded.list_group, excluded.case_status, excluded.case_archived, excluded.modified_at, excluded.search_text);
END
$$;
--> statement-breakpoint
-- Adds one statement's change to the listed-case counts as delta rows, then folds all rows into
-- one per key when no other transaction is folding (a try-lock: nobody ever waits here).
CREATE OR REPLACE FUNCTION case_list_counts_add(deltas jsonb) RETURNS void
LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO case_list_counts (list_group, case_status, n)
  SELECT d.list_group, d.case_status, d.n
    FROM jsonb_to_recordset(deltas) AS d(list_group text, case_status text, n integer)
   WHERE d.n <> 0;
  IF pg_try_advisory_xact_lock(7262021) THEN
    WITH gone AS (DELETE FROM case_list_counts RETURNING list_group, case_status, n)
    INSERT INTO case_list_counts (list_group, case_status, n)
    SELECT list_group, case_status, sum(n) FROM gone GROUP BY list_group, case_status
    HAVING sum(n) <> 0;
  END IF;
END
$$;
--> statement-breakpoint
CREATE OR REPLACE FUNCTION case_viewers_cases_inserted() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO case_viewers (case_id, user_id, list_group, case_status, case_archived, modified_at, search_text)
  SELECT id, owner_id, list_group, case_status, case_archived, modified_at, search_text FROM new_rows
  ON CONFLICT DO NOTHING;
  PERFORM case_list_counts_add((
    SELECT coalesce(jsonb_agg(jsonb_build_object('list_group', list_group, 'case_status', case_status, 'n', n)), '[]')
      FROM (SELECT list_group, case_status, count(*)::int AS n FROM new_rows
             WHERE list_group IS NOT NULL AND NOT case_archived
             GROUP BY list_group, case_status) g));
  RETURN NULL;
END
$$;
--> statement-breakpoint
CREATE OR REPLACE FUNCTION case_viewers_cases_updated() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
  -- A new owner changes who relates to the case: re-derive those cases.
  PERFORM case_viewers_sync(array(
    SELECT n.id FROM new_rows n JOIN old_rows o ON o.id = n.id WHERE n.owner_id <> o.owner_id));
  -- Otherwise only the copied list columns move (every save and move touches modified_at).
  UPDATE case_viewers v
     SET list_group = n.list_group,
         case_status = n.case_status,
         case_archived = n.case_archived,
         modified_at = n.modified_at,
         search_text = n.search_text
    FROM new_rows n JOIN old_rows o ON o.id = n.id
   WHERE v.case_id = n.id
     AND n.owner_id = o.owner_id
     AND (n.list_group, n.case_status, n.case_archived, n.modified_at, n.search_text)
         IS DISTINCT FROM (o.list_group, o.case_status, o.case_archived, o.modified_at, o.search_text);
  PERFORM case_list_counts_add((
    SELECT coalesce(jsonb_agg(jsonb_build_object('list_group', list_group, 'case_status', case_status, 'n', n)), '[]')
      FROM (SELECT list_group, case_status, sum(d)::int AS n
              FROM (SELECT list_group, case_status, 1 AS d FROM new_rows
                     WHERE list_group IS NOT NULL AND NOT case_archived
                    UNION ALL
                    SELECT list_group, case_status, -1 FROM old_rows
                     WHERE list_group IS NOT NULL AND NOT case_archived) x
             GROUP BY list_group, case_status) g));
  RETURN NULL;
END
$$;
--> statement-breakpoint
CREATE OR REPLACE FUNCTION case_list_counts_cases_deleted() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
  PERFORM case_list_counts_add((
    SELECT coalesce(jsonb_agg(jsonb_build_object('list_group', list_group, 'case_status', case_status, 'n', -n)), '[]')
      FROM (SELECT list_group, case_status, count(*)::int AS n FROM old_rows
             WHERE list_group IS NOT NULL AND NOT case_archived
             GROUP BY list_group, case_status) g));
  RETURN NULL;
END
$$;
--> statement-breakpoint
CREATE OR REPLACE FUNCTION case_list_counts_cases_truncated() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
  DELETE FROM case_list_counts;
  RETURN NULL;
END
$$;
--> statement-breakpoint
-- case_users and case_services: any insert, update or delete re-derives the touched cases.
CREATE OR REPLACE FUNCTION case_viewers_relation_inserted() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
  PERFORM case_viewers_sync(array(SELECT DISTINCT case_id FROM new_rows));
  RETURN NULL;
END
$$;
--> statement-breakpoint
CREATE OR REPLACE FUNCTION case_viewers_relation_deleted() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
  PERFORM case_viewers_sync(array(SELECT DISTINCT case_id FROM old_rows));
  RETURN NULL;
END
$$;
--> statement-breakpoint
CREATE OR REPLACE FUNCTION case_viewers_relation_updated() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
  PERFORM case_viewers_sync(array(
    SELECT case_id FROM new_rows UNION SELECT case_id FROM old_rows));
  RETURN NULL;
END
$$;
--> statement-breakpoint
CREATE TRIGGER case_viewers_cases_insert AFTER INSERT ON cases
  REFERENCING NEW TABLE AS new_rows
  FOR EACH STATEMENT EXECUTE FUNCTION case_viewers_cases_inserted();
--> statement-breakpoint
CREATE TRIGGER case_viewers_cases_update AFTER UPDATE ON cases
  REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows
  FOR EACH STATEMENT EXECUTE FUNCTION case_viewers_cases_updated();
--> statement-breakpoint
CREATE TRIGGER case_list_counts_cases_delete AFTER DELETE ON cases
  REFERENCING OLD TABLE AS old_rows
  FOR EACH STATEMENT EXECUTE FUNCTION case_list_counts_cases_deleted();
--> statement-breakpoint
CREATE TRIGGER case_list_counts_cases_truncate AFTER TRUNCATE ON cases
  FOR EACH STATEMENT EXECUTE FUNCTION case_list_counts_cases_truncated();
--> statement-breakpoint
CREATE TRIGGER case_viewers_case_users_insert AFTER INSERT ON case_users
  REFERENCING NEW TABLE AS new_rows
  FOR EACH STATEMENT EXECUTE FUNCTION case_viewers_relation_inserted();
--> statement-breakpoint
CREATE TRIGGER case_viewers_case_users_update AFTER UPDATE ON case_users
  REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows
  FOR EACH STATEMENT EXECUTE FUNCTION case_viewers_relation_updated();
--> statement-breakpoint
CREATE TRIGGER case_viewers_case_users_delete AFTER DELETE ON case_users
  REFERENCING OLD TABLE AS old_rows
  FOR EACH STATEMENT EXECUTE FUNCTION case_viewers_relation_deleted();
--> statement-breakpoint
CREATE TRIGGER case_viewers_case_services_insert AFTER INSERT ON case_services
  REFERENCING NEW TABLE AS new_rows
  FOR EACH STATEMENT EXECUTE FUNCTION case_viewers_relation_inserted();
--> statement-breakpoint
CREATE TRIGGER case_viewers_case_services_update AFTER UPDATE ON case_services
  REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows
  FOR EACH STATEMENT EXECUTE FUNCTION case_viewers_relation_updated();
--> statement-breakpoint
CREATE TRIGGER case_viewers_case_services_delete AFTER DELETE ON case_services
  REFERENCING OLD TABLE AS old_rows
  FOR EACH STATEMENT EXECUTE FUNCTION case_viewers_relation_deleted();
--> statement-breakpoint
-- Cases that exist before this migration (a database created before it).
SELECT case_viewers_sync(array(SELECT id FROM cases));
--> statement-breakpoint
INSERT INTO case_list_counts (list_group, case_status, n)
SELECT list_group, case_status, count(*)::int FROM cases
 WHERE list_group IS NOT NULL AND NOT case_archived
 GROUP BY list_group, case_status;
--> statement-breakpoint
-- The patient-name search (`search_text LIKE '%…%'`): a trigram index lets a staff search count
-- its matches without reading every case of the filter. Outside the drizzle schema on purpose
-- (drizzle-kit does not create extensions); pg_trgm is a trusted extension (PostgreSQL 13+) and
-- PGlite loads it in db/client.ts.
CREATE EXTENSION IF NOT EXISTS pg_trgm;
--> statement-breakpoint
CREATE INDEX IF NOT EXISTS cases_search_trgm_idx ON cases USING gin (search_text gin_trgm_ops);
