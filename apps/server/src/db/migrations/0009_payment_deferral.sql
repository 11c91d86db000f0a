ALTER TABLE "case_services" ADD COLUMN "payment_deferred_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "case_services" ADD COLUMN "payment_deferred_by" integer;--> statement-breakpoint
ALTER TABLE "case_services" ADD COLUMN "payment_deferred_reason" text;--> statement-breakpoint
ALTER TABLE "case_services" ADD CONSTRAINT "case_services_payment_deferred_by_users_id_fk" FOREIGN KEY ("payment_deferred_by") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;