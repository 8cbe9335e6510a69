ALTER TABLE "vouchers" ADD COLUMN "delivery_failed_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "vouchers" ADD COLUMN "delivery_failed_to" varchar(255);