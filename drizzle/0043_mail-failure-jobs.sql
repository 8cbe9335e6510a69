ALTER TABLE "mail_failures" ADD COLUMN "job_id" uuid;--> statement-breakpoint
CREATE INDEX "mail_failures_job_idx" ON "mail_failures" USING btree ("job_id") WHERE "mail_failures"."job_id" is not null;