ALTER TABLE "galleries" ADD COLUMN "invitation_sent_to" varchar(255);--> statement-breakpoint
ALTER TABLE "galleries" ADD COLUMN "invitation_requested_at" timestamp with time zone;