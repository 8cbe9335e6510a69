CREATE TABLE "accountant_mail_settings" (
	"id" smallint PRIMARY KEY DEFAULT 1 NOT NULL,
	"email" varchar(255) DEFAULT '' NOT NULL,
	"monthly" boolean DEFAULT false NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "accountant_mail_settings_one_row" CHECK ("accountant_mail_settings"."id" = 1)
);
--> statement-breakpoint
CREATE TABLE "accountant_monthly_mails" (
	"month" varchar(7) PRIMARY KEY NOT NULL,
	"recipient" varchar(255) NOT NULL,
	"queued_at" timestamp with time zone DEFAULT now() NOT NULL,
	"sent_at" timestamp with time zone
);
