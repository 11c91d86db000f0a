ALTER TABLE "attachments" ADD COLUMN "upload_id" text;--> statement-breakpoint
ALTER TABLE "attachments" ADD COLUMN "upload_part_size" integer;