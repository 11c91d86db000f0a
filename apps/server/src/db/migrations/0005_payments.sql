CREATE TABLE "invoice_customers" (
	"id" serial PRIMARY KEY NOT NULL,
	"transaction_id" integer NOT NULL,
	"customer_name" text NOT NULL,
	"document_type" text NOT NULL,
	"document" text NOT NULL,
	"email" text DEFAULT '' NOT NULL,
	"address" jsonb NOT NULL,
	"invoice_number" text,
	"modified_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "payment_notices" (
	"id" serial PRIMARY KEY NOT NULL,
	"provider" text NOT NULL,
	"event_key" text NOT NULL,
	"transaction_id" integer,
	"outcome" text NOT NULL,
	"provider_status" text,
	"detail" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"received_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "transaction_cancels" (
	"id" serial PRIMARY KEY NOT NULL,
	"transaction_id" integer NOT NULL,
	"reason_id" integer NOT NULL,
	"description" text NOT NULL,
	"request_user" integer,
	"request_at" timestamp with time zone DEFAULT now() NOT NULL,
	"auth_user" integer,
	"auth_at" timestamp with time zone,
	"denied_at" timestamp with time zone
);
--> statement-breakpoint
CREATE TABLE "transaction_receipts" (
	"id" serial PRIMARY KEY NOT NULL,
	"transaction_id" integer NOT NULL,
	"justification" text DEFAULT '' NOT NULL,
	"storage_key" text,
	"file_name" text,
	"file_size" integer,
	"content_type" text,
	"submitted_by" integer,
	"submitted_at" timestamp with time zone DEFAULT now() NOT NULL,
	"auth_user" integer,
	"auth_at" timestamp with time zone,
	"approved" boolean
);
--> statement-breakpoint
ALTER TABLE "case_reviews" ADD COLUMN "transaction_id" integer;--> statement-breakpoint
ALTER TABLE "transactions" ADD COLUMN "gateway_event_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "transactions" ADD COLUMN "receipt_id" integer;--> statement-breakpoint
ALTER TABLE "transactions" ADD COLUMN "invoice_id" integer;--> statement-breakpoint
ALTER TABLE "transactions" ADD COLUMN "cancel_id" integer;--> statement-breakpoint
ALTER TABLE "invoice_customers" ADD CONSTRAINT "invoice_customers_transaction_id_transactions_id_fk" FOREIGN KEY ("transaction_id") REFERENCES "public"."transactions"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "payment_notices" ADD CONSTRAINT "payment_notices_transaction_id_transactions_id_fk" FOREIGN KEY ("transaction_id") REFERENCES "public"."transactions"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "transaction_cancels" ADD CONSTRAINT "transaction_cancels_transaction_id_transactions_id_fk" FOREIGN KEY ("transaction_id") REFERENCES "public"."transactions"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "transaction_cancels" ADD CONSTRAINT "transaction_cancels_request_user_users_id_fk" FOREIGN KEY ("request_user") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "transaction_cancels" ADD CONSTRAINT "transaction_cancels_auth_user_users_id_fk" FOREIGN KEY ("auth_user") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "transaction_receipts" ADD CONSTRAINT "transaction_receipts_transaction_id_transactions_id_fk" FOREIGN KEY ("transaction_id") REFERENCES "public"."transactions"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "transaction_receipts" ADD CONSTRAINT "transaction_receipts_submitted_by_users_id_fk" FOREIGN KEY ("submitted_by") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "transaction_receipts" ADD CONSTRAINT "transaction_receipts_auth_user_users_id_fk" FOREIGN KEY ("auth_user") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "payment_notices_provider_key_unique" ON "payment_notices" USING btree ("provider","event_key");--> statement-breakpoint
CREATE INDEX "transaction_cancels_transaction_idx" ON "transaction_cancels" USING btree ("transaction_id");--> statement-breakpoint
CREATE INDEX "transaction_receipts_transaction_idx" ON "transaction_receipts" USING btree ("transaction_id");--> statement-breakpoint
CREATE INDEX "transactions_gateway_code_idx" ON "transactions" USING btree ("gateway_code");--> statement-breakpoint
CREATE INDEX "transactions_status_idx" ON "transactions" USING btree ("payment_status");