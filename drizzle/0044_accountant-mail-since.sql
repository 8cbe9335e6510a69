ALTER TABLE "accountant_mail_settings" ADD COLUMN "monthly_since" timestamp with time zone;--> statement-breakpoint
UPDATE "accountant_mail_settings" SET "monthly_since" = "updated_at" WHERE "monthly";
