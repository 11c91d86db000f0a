CREATE TABLE "case_list_counts" (
	"list_group" text NOT NULL,
	"case_status" text NOT NULL,
	"n" integer NOT NULL
);
--> statement-breakpoint
CREATE TABLE "case_viewers" (
	"case_id" integer NOT NULL,
	"user_id" integer NOT NULL,
	"list_group" text,
	"case_status" text NOT NULL,
	"case_archived" boolean NOT NULL,
	"modified_at" timestamp with time zone NOT NULL,
	"search_text" text NOT NULL,
	CONSTRAINT "case_viewers_pkey" PRIMARY KEY("case_id","user_id")
);
--> statement-breakpoint
ALTER TABLE "case_viewers" ADD CONSTRAINT "case_viewers_case_id_cases_id_fk" FOREIGN KEY ("case_id") REFERENCES "public"."cases"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "case_viewers_list_idx" ON "case_viewers" USING btree ("user_id","list_group","case_archived","modified_at" DESC NULLS FIRST,"case_id" DESC NULLS FIRST,"case_status","search_text");--> statement-breakpoint
CREATE INDEX "case_viewers_status_idx" ON "case_viewers" USING btree ("user_id","case_status","case_archived","modified_at" DESC NULLS FIRST,"case_id" DESC NULLS FIRST);