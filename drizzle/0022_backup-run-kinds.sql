ALTER TABLE "backup_runs" ADD COLUMN "kind" varchar(20) DEFAULT 'backup' NOT NULL;--> statement-breakpoint
ALTER TABLE "backup_runs" ADD COLUMN "report" jsonb;