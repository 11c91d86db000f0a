-- A case's update (every move and save, one row at a time) keeps case_viewers and the list counts
-- in step with a row-level trigger instead of the statement-level one of 0003: PostgreSQL skips
-- it when none of the copied columns changed (the WHEN clause, no function call at all), and a
-- single-row change no longer builds transition tables, a jsonb of deltas and an empty
-- `case_viewers_sync` call. Inserts keep their statement-level trigger: a bulk insert (the
-- benchmark's seed) stays one set-based statement. The application updates one case per
-- statement; a bulk UPDATE (a migration) is still correct, row by row.

-- Adds one change to the listed-case counts as delta rows (readers sum them per key, so no two
-- moves ever wait on one counter row). Every 64th change folds the rows into one per key when no
-- other transaction is folding (a try-lock: nobody waits), which keeps the table a few hundred
-- rows at most instead of rewriting it on every move.
CREATE SEQUENCE IF NOT EXISTS case_list_counts_changes;
--> statement-breakpoint
CREATE OR REPLACE FUNCTION case_list_counts_fold_sometimes() RETURNS void
LANGUAGE plpgsql AS $$
BEGIN
  IF nextval('case_list_counts_changes') % 64 = 0 AND pg_try_advisory_xact_lock(7262021) THEN
    WITH gone AS (DELETE FROM case_list_counts RETURNING list_group, case_status, n)
    INSERT INTO case_list_counts (list_group, case_status, n)
    SELECT list_group, case_status, sum(n) FROM gone GROUP BY list_group, case_status
    HAVING sum(n) <> 0;
  END IF;
END
$$;
--> statement-breakpoint
-- The statement-level triggers (inserts, deletes) keep adding their jsonb deltas; they fold as
-- rarely as the row trigger.
CREATE OR REPLACE FUNCTION case_list_counts_add(deltas jsonb) RETURNS void
LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO case_list_counts (list_group, case_status, n)
  SELECT d.list_group, d.case_status, d.n
    FROM jsonb_to_recordset(deltas) AS d(list_group text, case_status text, n integer)
   WHERE d.n <> 0;
  IF FOUND THEN
    PERFORM case_list_counts_fold_sometimes();
  END IF;
END
$$;
--> statement-breakpoint
CREATE OR REPLACE FUNCTION case_viewers_case_row_updated() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
  IF NEW.owner_id <> OLD.owner_id THEN
    -- A new owner changes who relates to the case: re-derive its rows.
    PERFORM case_viewers_sync(ARRAY[NEW.id]);
  ELSIF (NEW.list_group, NEW.case_status, NEW.case_archived, NEW.modified_at, NEW.search_text)
        IS DISTINCT FROM (OLD.list_group, OLD.case_status, OLD.case_archived, OLD.modified_at, OLD.search_text) THEN
    UPDATE case_viewers
       SET list_group = NEW.list_group,
           case_status = NEW.case_status,
           case_archived = NEW.case_archived,
           modified_at = NEW.modified_at,
           search_text = NEW.search_text
     WHERE case_id = NEW.id;
  END IF;
  -- A case counts under its list group and status while it is listed (a group, not archived).
  IF (NEW.list_group, NEW.case_status, NEW.case_archived)
     IS DISTINCT FROM (OLD.list_group, OLD.case_status, OLD.case_archived) THEN
    INSERT INTO case_list_counts (list_group, case_status, n)
    SELECT d.list_group, d.case_status, d.n
      FROM (VALUES (OLD.list_group, OLD.case_status, OLD.case_archived, -1),
                   (NEW.list_group, NEW.case_status, NEW.case_archived, 1))
           AS d(list_group, case_status, case_archived, n)
     WHERE d.list_group IS NOT NULL AND NOT d.case_archived;
    IF FOUND THEN
      PERFORM case_list_counts_fold_sometimes();
    END IF;
  END IF;
  RETURN NULL;
END
$$;
--> statement-breakpoint
DROP TRIGGER IF EXISTS case_viewers_cases_update ON cases;
--> statement-breakpoint
DROP FUNCTION IF EXISTS case_viewers_cases_updated();
--> statement-breakpoint
CREATE TRIGGER case_viewers_case_row_update AFTER UPDATE ON cases
  FOR EACH ROW
  WHEN ((NEW.owner_id, NEW.list_group, NEW.case_status, NEW.case_archived, NEW.modified_at, NEW.search_text)
        IS DISTINCT FROM (OLD.owner_id, OLD.list_group, OLD.case_status, OLD.case_archived, OLD.modified_at, OLD.search_text))
  EXECUTE FUNCTION case_viewers_case_row_updated();
--> statement-breakpoint
-- A committed mail wakes the mail workers (decision 016): the notification rides on the insert
-- itself, once per statement, instead of a `pg_notify` round trip after each mail. PostgreSQL
-- delivers it only when the transaction commits.
CREATE OR REPLACE FUNCTION mail_outbox_queued() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
  PERFORM pg_notify('mail_outbox_queued', '');
  RETURN NULL;
END
$$;
--> statement-breakpoint
CREATE TRIGGER mail_outbox_queued AFTER INSERT ON mail_outbox
  FOR EACH STATEMENT EXECUTE FUNCTION mail_outbox_queued();
