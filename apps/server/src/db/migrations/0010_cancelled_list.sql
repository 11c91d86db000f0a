-- Cancelled cases get their own list group, 'cancelled' (the domain's caseListGroup); it was null,
-- so a cancelled case that is not archived appeared in no list, count or search. The cases update
-- trigger (0003) copies the new group to case_viewers and adds the cases to case_list_counts.
UPDATE cases SET list_group = 'cancelled' WHERE case_status = 'cancelled' AND list_group IS NULL;
