-- Relations that come from a role end with the role (docs/permissions.md "Who sees a case"): the
-- planner of a service sees the case while they hold the planner role, and a case user whose
-- membership came from a role (`via_role`: planner, printer, partner, instructor) while they hold
-- that role. case_viewers mirrors the domain's `caseRelation`, so its rows follow the roles too: a
-- change of a user's roles re-derives the cases they plan or are a case user of.
ALTER TABLE "case_users" ADD COLUMN "via_role" text;
--> statement-breakpoint
-- Existing memberships: the planner of one of the case's services was added as its planner (the
-- planner assignment adds them); anyone else by the domain's `membershipRoleOf` of their roles.
UPDATE case_users cu
   SET via_role = CASE
         WHEN EXISTS (SELECT 1 FROM case_services cs
                       WHERE cs.case_id = cu.case_id AND cs.planner_id = cu.user_id) THEN 'planner'
         WHEN u.roles ?| array['clinic', 'doctor'] THEN NULL
         WHEN u.roles ? 'planner' THEN 'planner'
         WHEN u.roles ? 'printer' THEN 'printer'
         WHEN u.roles ? 'partner' THEN 'partner'
         WHEN u.roles ? 'instructor' THEN 'instructor'
         ELSE NULL
       END
  FROM users u
 WHERE u.id = cu.user_id;
--> statement-breakpoint
-- Re-derives the rows of the given cases: adds missing relations, refreshes copied columns,
-- drops relations that no longer hold. A planner counts with a planner role (the domain's
-- `isPlanner`), a case user while they hold the role of their membership (`membershipHolds`).
CREATE OR REPLACE FUNCTION case_viewers_sync(ids integer[]) RETURNS void
LANGUAGE plpgsql AS $$
BEGIN
  IF ids IS NULL OR cardinality(ids) = 0 THEN
    RETURN;
  END IF;
  DELETE FROM case_viewers v
   WHERE v.case_id = ANY (ids)
     AND NOT EXISTS (SELECT 1 FROM cases c WHERE c.id = v.case_id AND c.owner_id = v.user_id)
     AND NOT EXISTS (SELECT 1 FROM case_users cu JOIN users u ON u.id = cu.user_id
                      WHERE cu.case_id = v.case_id AND cu.user_id = v.user_id
                        AND (cu.via_role IS NULL OR u.roles ? cu.via_role))
     AND NOT EXISTS (SELECT 1 FROM case_services cs JOIN users u ON u.id = cs.planner_id
                      WHERE cs.case_id = v.case_id AND cs.planner_id = v.user_id
                        AND u.roles ?| array['admin', 'supervisor', 'planner']);
  INSERT INTO case_viewers (case_id, user_id, list_group, case_status, case_archived, modified_at, search_text)
  SELECT c.id, r.user_id, c.list_group, c.case_status, c.case_archived, c.modified_at, c.search_text
    FROM (SELECT id AS case_id, owner_id AS user_id FROM cases WHERE id = ANY (ids)
          UNION
          SELECT cu.case_id, cu.user_id FROM case_users cu JOIN users u ON u.id = cu.user_id
           WHERE cu.case_id = ANY (ids) AND (cu.via_role IS NULL OR u.roles ? cu.via_role)
          UNION
          SELECT cs.case_id, cs.planner_id FROM case_services cs JOIN users u ON u.id = cs.planner_id
           WHERE cs.case_id = ANY (ids) AND u.roles ?| array['admin', 'supervisor', 'planner']) r
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
-- A change of roles re-derives every case the user plans or is a case user of (in the same
-- transaction: their next request and list already follow the new roles).
CREATE OR REPLACE FUNCTION case_viewers_users_updated() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
  PERFORM case_viewers_sync(array(
    SELECT cu.case_id
      FROM new_rows n JOIN old_rows o ON o.id = n.id JOIN case_users cu ON cu.user_id = n.id
     WHERE n.roles IS DISTINCT FROM o.roles
    UNION
    SELECT cs.case_id
      FROM new_rows n JOIN old_rows o ON o.id = n.id JOIN case_services cs ON cs.planner_id = n.id
     WHERE n.roles IS DISTINCT FROM o.roles));
  RETURN NULL;
END
$$;
--> statement-breakpoint
CREATE TRIGGER case_viewers_users_update AFTER UPDATE ON users
  REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows
  FOR EACH STATEMENT EXECUTE FUNCTION case_viewers_users_updated();
--> statement-breakpoint
SELECT case_viewers_sync(array(
  SELECT case_id FROM case_users
  UNION
  SELECT case_id FROM case_services WHERE planner_id IS NOT NULL));
