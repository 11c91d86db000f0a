ALTER TABLE "cases" ADD COLUMN "dispatch" jsonb;--> statement-breakpoint
-- The case's address is the delivery address of its first order (the checkout keeps it from now
-- on): filled in for the cases ordered before, from their first live order that ships somewhere.
UPDATE "cases" AS c SET "address" = first_order."shipment" -> 'address'
  FROM (SELECT DISTINCT ON ("case_id") "case_id", "shipment" FROM "transactions"
         WHERE "shipment" IS NOT NULL AND "payment_status" NOT IN ('cancelled', 'returned')
         ORDER BY "case_id", "id") AS first_order
 WHERE first_order."case_id" = c."id" AND c."address" IS NULL
   AND (first_order."shipment" ->> 'shipmentType')::int IN (0, 1, 3)
   AND coalesce(first_order."shipment" -> 'address' ->> 'address', '') <> '';
