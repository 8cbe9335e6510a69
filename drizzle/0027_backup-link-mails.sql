CREATE TABLE "backup_link_mails" (
	"user_id" text PRIMARY KEY NOT NULL,
	"enabled" boolean DEFAULT true NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"last_month" varchar(7),
	"last_sent_at" timestamp with time zone
);
