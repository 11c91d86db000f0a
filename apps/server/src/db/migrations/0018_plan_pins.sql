CREATE TABLE "plan_pins" (
	"id" serial PRIMARY KEY NOT NULL,
	"case_id" integer NOT NULL,
	"attachment_id" integer NOT NULL,
	"author_id" integer NOT NULL,
	"note" text NOT NULL,
	"point" jsonb NOT NULL,
	"normal" jsonb NOT NULL,
	"camera" jsonb NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"resolved_at" timestamp with time zone,
	"resolved_by" integer,
	"chat_message_id" integer
);
--> statement-breakpoint
ALTER TABLE "chat_messages" ADD COLUMN "pin_id" integer;--> statement-breakpoint
ALTER TABLE "plan_pins" ADD CONSTRAINT "plan_pins_case_id_cases_id_fk" FOREIGN KEY ("case_id") REFERENCES "public"."cases"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "plan_pins" ADD CONSTRAINT "plan_pins_attachment_id_attachments_id_fk" FOREIGN KEY ("attachment_id") REFERENCES "public"."attachments"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "plan_pins" ADD CONSTRAINT "plan_pins_author_id_users_id_fk" FOREIGN KEY ("author_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "plan_pins" ADD CONSTRAINT "plan_pins_resolved_by_users_id_fk" FOREIGN KEY ("resolved_by") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "plan_pins_attachment_idx" ON "plan_pins" USING btree ("attachment_id","id");--> statement-breakpoint
ALTER TABLE "chat_messages" ADD CONSTRAINT "chat_messages_pin_id_plan_pins_id_fk" FOREIGN KEY ("pin_id") REFERENCES "public"."plan_pins"("id") ON DELETE set null ON UPDATE no action;