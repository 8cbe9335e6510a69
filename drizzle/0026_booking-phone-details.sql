ALTER TABLE "bookings" ADD COLUMN "internal_note" text DEFAULT '' NOT NULL;--> statement-breakpoint
ALTER TABLE "bookings" ADD COLUMN "client_mail" boolean DEFAULT true NOT NULL;