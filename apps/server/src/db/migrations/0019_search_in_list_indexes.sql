DROP INDEX "cases_list_idx";--> statement-breakpoint
DROP INDEX "cases_status_idx";--> statement-breakpoint
CREATE INDEX "cases_list_idx" ON "cases" USING btree ("list_group","case_archived","modified_at" DESC NULLS FIRST,"id" DESC NULLS FIRST,"search_text");--> statement-breakpoint
CREATE INDEX "cases_status_idx" ON "cases" USING btree ("case_status","case_archived","modified_at" DESC NULLS FIRST,"id" DESC NULLS FIRST,"search_text");