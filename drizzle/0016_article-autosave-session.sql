ALTER TABLE "blog_articles" ADD COLUMN "autosave_session" uuid;--> statement-breakpoint
ALTER TABLE "blog_articles" ADD COLUMN "autosaved_by" text;--> statement-breakpoint
ALTER TABLE "blog_articles" ADD CONSTRAINT "blog_articles_autosaved_by_users_id_fk" FOREIGN KEY ("autosaved_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "blog_articles" ADD CONSTRAINT "blog_articles_autosave_session_unique" UNIQUE("autosave_session");