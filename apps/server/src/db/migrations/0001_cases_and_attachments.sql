CREATE TABLE "attachments" (
	"id" serial PRIMARY KEY NOT NULL,
	"case_id" integer,
	"user_id" integer NOT NULL,
	"bucket_name" text NOT NULL,
	"attachment_type" text NOT NULL,
	"string_id" text,
	"required" boolean DEFAULT false NOT NULL,
	"status" text DEFAULT 'uploading' NOT NULL,
	"freeze" boolean DEFAULT false NOT NULL,
	"filename" text,
	"filesize" bigint,
	"mimetype" text,
	"storage_key" text,
	"justification" text,
	"uploaded_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"modified_at" timestamp with time zone DEFAULT now() NOT NULL,
	"deleted_at" timestamp with time zone
);
--> statement-breakpoint
CREATE TABLE "case_events" (
	"id" serial PRIMARY KEY NOT NULL,
	"case_id" integer NOT NULL,
	"actor_id" integer,
	"at" timestamp with time zone DEFAULT now() NOT NULL,
	"action" text NOT NULL,
	"from_status" text,
	"to_status" text,
	"detail" jsonb DEFAULT '{}'::jsonb NOT NULL
);
--> statement-breakpoint
CREATE TABLE "case_reviews" (
	"id" serial PRIMARY KEY NOT NULL,
	"case_id" integer NOT NULL,
	"reason_id" integer,
	"description" text DEFAULT '' NOT NULL,
	"created_by" integer,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"solved_at" timestamp with time zone,
	"solved_by" integer
);
--> statement-breakpoint
CREATE TABLE "case_services" (
	"id" serial PRIMARY KEY NOT NULL,
	"case_id" integer NOT NULL,
	"product_id" integer NOT NULL,
	"service_id" integer,
	"product_category_id" integer NOT NULL,
	"quantity" integer DEFAULT 1 NOT NULL,
	"printable_product" boolean DEFAULT false NOT NULL,
	"planner_id" integer,
	"approve_request_at" timestamp with time zone,
	"approve_at" timestamp with time zone,
	"data_version" integer DEFAULT 3 NOT NULL,
	"data" jsonb,
	"transaction_id" integer,
	"paid_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "case_users" (
	"id" serial PRIMARY KEY NOT NULL,
	"case_id" integer NOT NULL,
	"user_id" integer NOT NULL,
	"trigger_notification" boolean DEFAULT true NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "cases" (
	"id" serial PRIMARY KEY NOT NULL,
	"owner_id" integer NOT NULL,
	"patient_id" integer NOT NULL,
	"case_status" text DEFAULT 'new' NOT NULL,
	"list_group" text,
	"case_archived" boolean DEFAULT false NOT NULL,
	"case_review" boolean DEFAULT false NOT NULL,
	"has_printable" boolean DEFAULT false NOT NULL,
	"address" jsonb,
	"observation" text DEFAULT '' NOT NULL,
	"case_currency" text NOT NULL,
	"search_text" text DEFAULT '' NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"modified_at" timestamp with time zone DEFAULT now() NOT NULL,
	"validated_at" timestamp with time zone,
	"deadline_at" timestamp with time zone,
	"finish_at" timestamp with time zone
);
--> statement-breakpoint
CREATE TABLE "patients" (
	"id" serial PRIMARY KEY NOT NULL,
	"fname" text NOT NULL,
	"lname" text NOT NULL,
	"birth_date" date,
	"gender" text,
	"note" text
);
--> statement-breakpoint
ALTER TABLE "attachments" ADD CONSTRAINT "attachments_case_id_cases_id_fk" FOREIGN KEY ("case_id") REFERENCES "public"."cases"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "attachments" ADD CONSTRAINT "attachments_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "case_events" ADD CONSTRAINT "case_events_case_id_cases_id_fk" FOREIGN KEY ("case_id") REFERENCES "public"."cases"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "case_events" ADD CONSTRAINT "case_events_actor_id_users_id_fk" FOREIGN KEY ("actor_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "case_reviews" ADD CONSTRAINT "case_reviews_case_id_cases_id_fk" FOREIGN KEY ("case_id") REFERENCES "public"."cases"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "case_reviews" ADD CONSTRAINT "case_reviews_created_by_users_id_fk" FOREIGN KEY ("created_by") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "case_reviews" ADD CONSTRAINT "case_reviews_solved_by_users_id_fk" FOREIGN KEY ("solved_by") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "case_services" ADD CONSTRAINT "case_services_case_id_cases_id_fk" FOREIGN KEY ("case_id") REFERENCES "public"."cases"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "case_services" ADD CONSTRAINT "case_services_product_id_products_id_fk" FOREIGN KEY ("product_id") REFERENCES "public"."products"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "case_services" ADD CONSTRAINT "case_services_planner_id_users_id_fk" FOREIGN KEY ("planner_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "case_users" ADD CONSTRAINT "case_users_case_id_cases_id_fk" FOREIGN KEY ("case_id") REFERENCES "public"."cases"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "case_users" ADD CONSTRAINT "case_users_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "cases" ADD CONSTRAINT "cases_owner_id_users_id_fk" FOREIGN KEY ("owner_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "cases" ADD CONSTRAINT "cases_patient_id_patients_id_fk" FOREIGN KEY ("patient_id") REFERENCES "public"."patients"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "attachments_case_idx" ON "attachments" USING btree ("case_id");--> statement-breakpoint
CREATE INDEX "attachments_pending_idx" ON "attachments" USING btree ("created_at") WHERE "attachments"."status" = 'uploading' or "attachments"."case_id" is null;--> statement-breakpoint
CREATE INDEX "case_events_case_idx" ON "case_events" USING btree ("case_id","id");--> statement-breakpoint
CREATE INDEX "case_reviews_case_idx" ON "case_reviews" USING btree ("case_id");--> statement-breakpoint
CREATE INDEX "case_services_case_idx" ON "case_services" USING btree ("case_id");--> statement-breakpoint
CREATE INDEX "case_services_planner_idx" ON "case_services" USING btree ("planner_id","case_id");--> statement-breakpoint
CREATE INDEX "case_services_product_idx" ON "case_services" USING btree ("product_id");--> statement-breakpoint
CREATE UNIQUE INDEX "case_users_case_user_unique" ON "case_users" USING btree ("case_id","user_id");--> statement-breakpoint
CREATE INDEX "case_users_user_idx" ON "case_users" USING btree ("user_id","case_id");--> statement-breakpoint
CREATE INDEX "cases_list_idx" ON "cases" USING btree ("list_group","case_archived","modified_at" DESC NULLS FIRST,"id" DESC NULLS FIRST);--> statement-breakpoint
CREATE INDEX "cases_status_idx" ON "cases" USING btree ("case_status","case_archived","modified_at" DESC NULLS FIRST,"id" DESC NULLS FIRST);--> statement-breakpoint
CREATE INDEX "cases_owner_list_idx" ON "cases" USING btree ("owner_id","list_group","case_archived","modified_at" DESC NULLS FIRST,"id" DESC NULLS FIRST);--> statement-breakpoint
CREATE INDEX "cases_owner_status_idx" ON "cases" USING btree ("owner_id","case_status","case_archived");--> statement-breakpoint
CREATE INDEX "cases_patient_idx" ON "cases" USING btree ("patient_id");--> statement-breakpoint
CREATE INDEX "cases_deadline_idx" ON "cases" USING btree ("deadline_at") WHERE "cases"."deadline_at" is not null;