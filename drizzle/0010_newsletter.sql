CREATE TABLE "mail_failures" (
	"id" bigint PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "mail_failures_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1),
	"at" timestamp with time zone DEFAULT now() NOT NULL,
	"kind" varchar(30) NOT NULL,
	"recipient" varchar(255),
	"error" text NOT NULL,
	"final" boolean DEFAULT false NOT NULL
);
--> statement-breakpoint
CREATE TABLE "newsletter_deliveries" (
	"id" bigint PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "newsletter_deliveries_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1),
	"sending_id" uuid NOT NULL,
	"subscriber_id" uuid,
	"batch" integer NOT NULL,
	"status" varchar(20) DEFAULT 'pending' NOT NULL,
	"attempts" smallint DEFAULT 0 NOT NULL,
	"sent_at" timestamp with time zone,
	"error" text
);
--> statement-breakpoint
CREATE TABLE "newsletter_sendings" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"article_id" uuid,
	"subject" varchar(300) NOT NULL,
	"html" text NOT NULL,
	"text" text NOT NULL,
	"status" varchar(20) DEFAULT 'sending' NOT NULL,
	"total" integer DEFAULT 0 NOT NULL,
	"created_by" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"finished_at" timestamp with time zone
);
--> statement-breakpoint
ALTER TABLE "blog_newsletter_subscribers" ADD COLUMN "status" varchar(20) DEFAULT 'pending' NOT NULL;--> statement-breakpoint
-- Subscribers of before the double opt-in keep their state: active stays active, inactive is 'unsubscribed'.
UPDATE "blog_newsletter_subscribers" SET "status" = CASE WHEN "active" THEN 'active' ELSE 'unsubscribed' END;--> statement-breakpoint
ALTER TABLE "blog_newsletter_subscribers" DROP COLUMN "active";--> statement-breakpoint
ALTER TABLE "blog_newsletter_subscribers" ADD COLUMN "active" boolean GENERATED ALWAYS AS (status = 'active') STORED NOT NULL;--> statement-breakpoint
ALTER TABLE "blog_articles" ADD COLUMN "scheduled_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "blog_articles" ADD COLUMN "newsletter_on_publish" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "blog_newsletter_subscribers" ADD COLUMN "consent_page" varchar(500);--> statement-breakpoint
ALTER TABLE "blog_newsletter_subscribers" ADD COLUMN "consent_text" text;--> statement-breakpoint
ALTER TABLE "blog_newsletter_subscribers" ADD COLUMN "confirmation_sent_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "blog_newsletter_subscribers" ADD COLUMN "confirmed_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "blog_newsletter_subscribers" ADD COLUMN "unsubscribed_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "newsletter_deliveries" ADD CONSTRAINT "newsletter_deliveries_sending_id_newsletter_sendings_id_fk" FOREIGN KEY ("sending_id") REFERENCES "public"."newsletter_sendings"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "newsletter_deliveries" ADD CONSTRAINT "newsletter_deliveries_subscriber_id_blog_newsletter_subscribers_id_fk" FOREIGN KEY ("subscriber_id") REFERENCES "public"."blog_newsletter_subscribers"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "newsletter_sendings" ADD CONSTRAINT "newsletter_sendings_article_id_blog_articles_id_fk" FOREIGN KEY ("article_id") REFERENCES "public"."blog_articles"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "mail_failures_date_idx" ON "mail_failures" USING btree ("at" DESC NULLS LAST);--> statement-breakpoint
CREATE UNIQUE INDEX "newsletter_deliveries_subscriber_idx" ON "newsletter_deliveries" USING btree ("sending_id","subscriber_id");--> statement-breakpoint
CREATE INDEX "newsletter_deliveries_batch_idx" ON "newsletter_deliveries" USING btree ("sending_id","batch","status");--> statement-breakpoint
CREATE UNIQUE INDEX "newsletter_sendings_article_idx" ON "newsletter_sendings" USING btree ("article_id") WHERE "newsletter_sendings"."article_id" is not null;--> statement-breakpoint
CREATE INDEX "newsletter_sendings_date_idx" ON "newsletter_sendings" USING btree ("created_at" DESC NULLS LAST);--> statement-breakpoint
CREATE INDEX "blog_articles_scheduled_idx" ON "blog_articles" USING btree ("scheduled_at") WHERE "blog_articles"."scheduled_at" is not null;--> statement-breakpoint
CREATE INDEX "blog_newsletter_subscribers_status_idx" ON "blog_newsletter_subscribers" USING btree ("status");--> statement-breakpoint
ALTER TABLE "blog_newsletter_subscribers" ADD CONSTRAINT "blog_newsletter_subscribers_status_check" CHECK ("blog_newsletter_subscribers"."status" in ('pending', 'active', 'unsubscribed'));