CREATE TABLE "case_approval_records" (
	"id" serial PRIMARY KEY NOT NULL,
	"case_id" integer NOT NULL,
	"approver_id" integer NOT NULL,
	"approved_at" timestamp with time zone NOT NULL,
	"address" text NOT NULL,
	"text" text NOT NULL,
	"language" text NOT NULL,
	"certificate_code" text NOT NULL,
	"patient_name" text NOT NULL,
	"services" jsonb NOT NULL,
	"files" jsonb NOT NULL
);
--> statement-breakpoint
ALTER TABLE "attachments" ADD COLUMN "previous_version_id" integer;--> statement-breakpoint
ALTER TABLE "attachments" ADD COLUMN "version" integer DEFAULT 1 NOT NULL;--> statement-breakpoint
ALTER TABLE "attachments" ADD COLUMN "chain_id" integer;--> statement-breakpoint
ALTER TABLE "attachments" ADD COLUMN "published_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "attachments" ADD COLUMN "published_by" integer;--> statement-breakpoint
ALTER TABLE "attachments" ADD COLUMN "superseded_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "attachments" ADD COLUMN "content_sha256" text;--> statement-breakpoint
ALTER TABLE "case_approval_records" ADD CONSTRAINT "case_approval_records_case_id_cases_id_fk" FOREIGN KEY ("case_id") REFERENCES "public"."cases"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "case_approval_records" ADD CONSTRAINT "case_approval_records_approver_id_users_id_fk" FOREIGN KEY ("approver_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "case_approval_records_case_idx" ON "case_approval_records" USING btree ("case_id");--> statement-breakpoint
CREATE UNIQUE INDEX "case_approval_records_code_idx" ON "case_approval_records" USING btree ("certificate_code");--> statement-breakpoint
ALTER TABLE "attachments" ADD CONSTRAINT "attachments_previous_version_id_attachments_id_fk" FOREIGN KEY ("previous_version_id") REFERENCES "public"."attachments"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "attachments" ADD CONSTRAINT "attachments_published_by_users_id_fk" FOREIGN KEY ("published_by") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;